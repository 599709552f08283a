// What was done while a phase was active, from the results of tool calls (a denied call has none):
//   - a subagent run's work, recorded on its skill_usage_log entry under the phase (`work_in`): `change` (a
//     file written or edited with the host's tools) or `test` (a test run). The agent-delegation check
//     counts a run only for the phase's kind of work done in that phase (src/state/agent-runs.ts), so a run
//     that called only isdlc's tools, ran `true`, or worked while another phase was active stands for nothing;
//   - the files changed in the phase, by anyone (`changed_files`, with when each last changed), and which of
//     them a subagent run read after their last change (`read_in`): an independent review counts only from
//     a run that read them (src/gates/article-recorders.ts).
// Each fact is recorded once, so repeated calls cost no write.
import { defineGuard } from '../engine/guard.js';
import type { HookEvent } from '../events/hook-event.js';
import { toolTargets } from '../integrity/tool-target.js';
import { runIsOpen, seenRunEntry, SKILL_USAGE_LOG_LIMIT, type PhaseWork } from '../state/agent-runs.js';
import { currentPhaseOf } from '../state/current-phase.js';
import { changedFiles, noteChange, noteRead, projectPath, readFiles } from '../state/review-evidence.js';
import type { IsdlcState, SkillUsageEntry } from '../state/schema.js';
import { findTestCommand } from '../testwatch/test-commands.js';
import { toolFilePath } from '../detect/state-file-writes.js';

const CHANGES = new Set(['write', 'edit', 'notebook', 'patch']);

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

const entries = (draft: IsdlcState): SkillUsageEntry[] => (Array.isArray(draft.skill_usage_log) ? draft.skill_usage_log : []);

export const agentWorkTracker = defineGuard({
  id: 'agent-work-tracker',
  description:
    "Records what was done while a phase was active: a subagent run's work (a file written or edited, a test run: work_in on its skill_usage_log entry), the files changed (changed_files on the phase) and which of them a run read after their last change (read_in), the evidence the agent-delegation and independent-review checks count.",
  on: { PostToolUse: ['write', 'edit', 'notebook', 'patch', 'shell', 'read'], PostToolUseFailure: ['shell'] },
  check({ event, state, config, location, guarded, now, update }) {
    if (!state || !event.tool) return;
    const phase = currentPhaseOf(state);
    if (!phase) return;
    const at = now.toISOString();
    const agentId = event.agentId;
    const mine = (entry: SkillUsageEntry) => agentId !== undefined && entry.agent_id === agentId && runIsOpen(entry);
    // A run whose first seen call is one no PreToolUse hook watches (a Read) has no entry yet: it gets the
    // one agent-run-tracker would have made.
    const unseen = agentId !== undefined && !(state.skill_usage_log ?? []).some((entry) => entry.agent_id === agentId);
    const ensureRun = (draft: IsdlcState): void => {
      if (agentId === undefined || entries(draft).some((entry) => entry.agent_id === agentId)) return;
      draft.skill_usage_log = [...entries(draft), seenRunEntry(agentId, event.agentType, config.manifest, phase, at)].slice(-SKILL_USAGE_LOG_LIMIT);
    };

    if (event.tool.kind === 'read') {
      const named = event.tool.input['file_path'];
      if (!agentId || typeof named !== 'string' || event.name !== 'PostToolUse') return;
      const path = projectPath(location.root, toolFilePath(named, event.cwd ?? location.root));
      const changedAt = path === undefined ? undefined : changedFiles(state.phases?.[phase])[path];
      if (path === undefined || changedAt === undefined) return;
      const stale = (entry: SkillUsageEntry) => mine(entry) && !((readFiles(entry, phase)[path] ?? '') >= changedAt);
      if (!unseen && !(state.skill_usage_log ?? []).some(stale)) return;
      update((draft) => {
        ensureRun(draft);
        for (const entry of entries(draft)) if (stale(entry)) noteRead(entry, phase, path, at);
      });
      return;
    }

    const targets = event.name === 'PostToolUse' && CHANGES.has(event.tool.kind) ? toolTargets(event, location.root, guarded) : [];
    const changed = targets
      .filter((target) => !target.guarded)
      .map((target) => projectPath(location.root, target.file))
      .filter((path): path is string => path !== undefined);
    const seen = agentId ? workOf(event) : undefined;
    // A file written outside the project (a temp file) is no change to the project's work.
    const work = seen === 'change' && changed.length === 0 ? undefined : seen;
    const newWork = work !== undefined && (unseen || (state.skill_usage_log ?? []).some((entry) => mine(entry) && !recorded(entry, phase, work)));
    if (changed.length === 0 && !newWork) return;
    update((draft) => {
      for (const path of changed) noteChange(draft, phase, path, at);
      if (!newWork || work === undefined) return;
      ensureRun(draft);
      for (const entry of entries(draft)) {
        if (!mine(entry) || recorded(entry, phase, work)) continue;
        const workIn = typeof entry.work_in === 'object' && entry.work_in !== null && !Array.isArray(entry.work_in) ? entry.work_in : {};
        workIn[phase] = [...(Array.isArray(workIn[phase]) ? workIn[phase] : []), work];
        entry.work_in = workIn;
      }
    });
  },
});
