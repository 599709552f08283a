// What was done while a phase was active, from the results of tool calls (a denied call has none):
//   - a subagent run's work, recorded on its skill_usage_log entry under the phase (`work_in`): `change` (a
//     file written or edited with the host's tools) or `test` (a test run). The agent-delegation check
//     counts a run only for the phase's kind of work done in that phase (src/state/agent-runs.ts), so a run
//     that called only isdlc's tools, ran `true`, or worked while another phase was active stands for nothing;
//   - the files changed in the phase, by anyone (`changed_files`, with when each last changed), and which of
//     them a subagent run read after their last change (`read_in`, from a Read tool or a shell line that
//     prints them): an independent review counts only from a run that read them (src/gates/article-recorders.ts).
// Each fact is recorded once, so repeated calls cost no write.
import { defineGuard } from '../engine/guard.js';
import type { HookEvent } from '../events/hook-event.js';
import { toolTargets } from '../integrity/tool-target.js';
import { runIsOpen, seenRunEntry, SKILL_USAGE_LOG_LIMIT, type PhaseWork } from '../state/agent-runs.js';
import { currentPhaseOf } from '../state/current-phase.js';
import { changedFiles, noteChange, noteRead, projectPath, readFiles } from '../state/review-evidence.js';
import type { IsdlcState, SkillUsageEntry } from '../state/schema.js';
import { findTestCommand } from '../testwatch/test-commands.js';
import { shellReads } from '../detect/shell-reads.js';
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

/**
 * The files a subagent's call read: a Read tool's file, or what its shell printed (a host whose agents have
 * no Read tool reads with the shell). A shell line is parsed only while the phase has changed files to read.
 */
function readsOf(event: HookEvent, cwd: string, changed: Record<string, string>): string[] {
  const input = event.tool?.input ?? {};
  if (event.tool?.kind === 'read') return typeof input['file_path'] === 'string' ? [toolFilePath(input['file_path'], cwd)] : [];
  if (event.tool?.kind !== 'shell' || typeof input['command'] !== 'string' || Object.keys(changed).length === 0) return [];
  return shellReads(input['command'], cwd);
}

const recorded = (entry: SkillUsageEntry, phase: string, work: PhaseWork): boolean =>
  Array.isArray(entry.work_in?.[phase]) && entry.work_in[phase].includes(work);

const entries = (draft: IsdlcState): SkillUsageEntry[] => (Array.isArray(draft.skill_usage_log) ? draft.skill_usage_log : []);

export const agentWorkTracker = defineGuard({
  id: 'agent-work-tracker',
  description:
    "Records what was done while a phase was active: a subagent run's work (a file written or edited, a test run: work_in on its skill_usage_log entry), the files changed (changed_files on the phase) and which of them a run read after their last change (read_in: a Read, or a shell line printing them), the evidence the agent-delegation and independent-review checks count.",
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

    const phaseChanges = changedFiles(state.phases?.[phase]);
    const reads = event.name === 'PostToolUse' && agentId ? readsOf(event, event.cwd ?? location.root, phaseChanges) : [];
    if (event.tool.kind === 'read' || reads.length > 0) {
      const paths = reads
        .map((file) => projectPath(location.root, file))
        .filter((path): path is string => path !== undefined && phaseChanges[path] !== undefined);
      const stale = (path: string) => (entry: SkillUsageEntry) => mine(entry) && !((readFiles(entry, phase)[path] ?? '') >= phaseChanges[path]!);
      const fresh = paths.filter((path) => unseen || (state.skill_usage_log ?? []).some(stale(path)));
      if (fresh.length > 0) {
        update((draft) => {
          ensureRun(draft);
          for (const path of fresh) for (const entry of entries(draft)) if (stale(path)(entry)) noteRead(entry, phase, path, at);
        });
      }
      if (event.tool.kind === 'read') return;
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
