// What a subagent's run did, from the results of its tool calls (a denied call has none): a file written or
// edited with the host's tools, or a test run, recorded on its skill_usage_log entry under the phase the
// workflow was in at the time (`work_in`). The agent-delegation check counts a run only for the phase's kind
// of work done in that phase (src/state/agent-runs.ts), so a run that called only isdlc's tools, ran `true`,
// or worked while another phase was active does not stand for the phase's delegation. Each kind is recorded
// once per phase, so a run's later calls cost no write.
import { defineGuard } from '../engine/guard.js';
import type { HookEvent } from '../events/hook-event.js';
import { runIsOpen, type PhaseWork } from '../state/agent-runs.js';
import { currentPhaseOf } from '../state/current-phase.js';
import type { SkillUsageEntry } from '../state/schema.js';
import { findTestCommand } from '../testwatch/test-commands.js';

const CHANGES = new Set(['write', 'edit', 'notebook']);

/** The kind of work this tool result shows, if any. */
function workOf(event: HookEvent): PhaseWork | undefined {
  const tool = event.tool;
  if (!tool) return undefined;
  if (CHANGES.has(tool.kind)) return event.name === 'PostToolUse' ? 'change' : undefined;
  if (tool.kind !== 'shell') return undefined;
  // A failing test run is a test run (its result comes as PostToolUseFailure).
  const line = typeof tool.input['command'] === 'string' ? tool.input['command'] : '';
  return findTestCommand(line) ? 'test' : undefined;
}

const recorded = (entry: SkillUsageEntry, phase: string, work: PhaseWork): boolean =>
  Array.isArray(entry.work_in?.[phase]) && entry.work_in[phase].includes(work);

export const agentWorkTracker = defineGuard({
  id: 'agent-work-tracker',
  description:
    "Records what a subagent's run did (a file written or edited, a test run) under the phase the workflow was in (work_in on its skill_usage_log entry), the evidence the agent-delegation check counts.",
  on: { PostToolUse: ['write', 'edit', 'notebook', 'shell'], PostToolUseFailure: ['shell'] },
  check({ event, state, update }) {
    const agentId = event.agentId;
    if (!agentId || !state) return;
    const phase = currentPhaseOf(state);
    const work = workOf(event);
    if (!phase || !work) return;
    const mine = (entry: SkillUsageEntry) => entry.agent_id === agentId && runIsOpen(entry);
    const open = (state.skill_usage_log ?? []).filter(mine);
    if (open.length === 0 || open.every((entry) => recorded(entry, phase, work))) return;
    update((draft) => {
      for (const entry of Array.isArray(draft.skill_usage_log) ? draft.skill_usage_log : []) {
        if (!mine(entry) || recorded(entry, phase, work)) continue;
        const workIn = typeof entry.work_in === 'object' && entry.work_in !== null && !Array.isArray(entry.work_in) ? entry.work_in : {};
        workIn[phase] = [...(Array.isArray(workIn[phase]) ? workIn[phase] : []), work];
        entry.work_in = workIn;
      }
    });
  },
});
