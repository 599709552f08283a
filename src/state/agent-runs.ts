// What a subagent's run looks like from the evidence the hooks gathered in `skill_usage_log`: each entry is
// one run, followed by its `agent_id` from the launch (the Agent call's result) or from its first tool
// call (a tool call inside a subagent carries its id), to its end (its SubagentStop, the synchronous
// Agent result, or the host's <task-notification>). A phase's delegation counts only for a run that did
// that phase's kind of work in that phase (`work_in`, recorded from tool results by agent-work-tracker): a
// file changed with the host's edit tools, or a test run; in the implementation phase only a file change.
// "Reply OK", a call isdlc denied, a `true` in the shell or a call of isdlc's own tools is no phase's work.
import { homePhaseOf, normalizeAgentName } from '../config/agents.js';
import type { SkillsManifest } from '../config/schemas.js';
import type { SkillUsageEntry } from './schema.js';

/**
 * A run launched this long ago that never reported its end is taken as lost (its session ended, or the
 * hook that would have seen its end did not run): it no longer holds `phase complete`, and never counts.
 */
export const RUN_LOST_AFTER_MINUTES = 360;

/** The log keeps its newest entries only. */
export const SKILL_USAGE_LOG_LIMIT = 200;

/** What a run did in a phase that may count as the phase's work. */
export type PhaseWork = 'change' | 'test';

/** A phase whose work is changing the code: a test run alone is not it. */
const CHANGES_CODE = /implementation/;

/** Whether `done` (what one run did in `phase`) is that phase's kind of work. */
export function isPhaseWork(phase: string, done: readonly string[] | undefined): boolean {
  if (!done || done.length === 0) return false;
  return CHANGES_CODE.test(phase) ? done.includes('change') : done.includes('change') || done.includes('test');
}

/** The phase's kind of work, in words, for a refusal. */
export function phaseWorkWords(phase: string): string {
  return CHANGES_CODE.test(phase) ? 'a file changed with Write or Edit in this phase' : 'a file changed with Write or Edit, or a test run, in this phase';
}

/** The phases a run did work in, by kind (`work_in` as recorded). */
export function workIn(entry: SkillUsageEntry, phase: string): readonly string[] | undefined {
  const work = entry['work_in'];
  if (typeof work !== 'object' || work === null || Array.isArray(work)) return undefined;
  const done = (work as Record<string, unknown>)[phase];
  return Array.isArray(done) ? done.filter((item): item is string => typeof item === 'string') : undefined;
}

export type RunJudgement =
  /** It ended having done the phase's kind of work in the phase. */
  | { kind: 'worked' }
  /** Logged without a run id and without a count of its tool calls (an older isdlc or host): taken on trust. */
  | { kind: 'trusted' }
  /** It ended without doing the phase's kind of work in the phase (it may have made other tool calls). */
  | { kind: 'idle' }
  | { kind: 'running'; since: string; minutes: number }
  | { kind: 'lost'; since: string };

/**
 * The entry of a run first seen from inside (a tool call that carries its id) before its launch was logged:
 * `running`, under its own agent and that agent's phase; its launch fills in the rest.
 */
export function seenRunEntry(agentId: string, agentType: string | undefined, manifest: SkillsManifest, current: string | null, at: string): SkillUsageEntry {
  const agent = normalizeAgentName(agentType) || 'general-purpose';
  const agentPhase = homePhaseOf(manifest, agent);
  return {
    timestamp: at,
    agent,
    agent_id: agentId,
    ...(agentPhase !== null ? { agent_phase: agentPhase } : {}),
    ...(current !== null ? { current_phase: current } : {}),
    outcome: 'running',
    first_tool_at: at,
    launch_pending: true,
  };
}

/** Launched, or seen working before its launch was logged, and not ended yet. */
export function runIsOpen(entry: SkillUsageEntry): boolean {
  return entry.outcome === 'launched' || entry.outcome === 'running';
}

function minutesSince(iso: string | undefined, now: Date): number {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, Math.floor((now.getTime() - at) / 60_000)) : 0;
}

/** `entry` as a run of `phase`'s work, as it stands `now`. */
export function judgeRun(entry: SkillUsageEntry, now: Date, phase: string): RunJudgement {
  if (runIsOpen(entry)) {
    const since = entry.timestamp ?? entry.first_tool_at ?? '';
    const minutes = minutesSince(since, now);
    return minutes > RUN_LOST_AFTER_MINUTES ? { kind: 'lost', since } : { kind: 'running', since, minutes };
  }
  if (isPhaseWork(phase, workIn(entry, phase))) return { kind: 'worked' };
  // Entries from before runs were followed (the JavaScript framework's, isdlc's older ones) have neither a
  // run id nor a count; nothing says whether they worked, and refusing them would strand a phase in progress.
  if (entry.agent_id === undefined && entry.tool_calls === undefined) return { kind: 'trusted' };
  return { kind: 'idle' };
}

/** `10:42 UTC` for an ISO time, or the text as given when it is not one. */
export function clockOf(iso: string): string {
  const match = /T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} UTC` : iso || 'an unknown time';
}

/** The runs of the phase's own agents that are still running now (for `phase complete`). */
export function runningPhaseRuns(log: readonly SkillUsageEntry[] | undefined, phase: string, now: Date): { agent: string; since: string; minutes: number }[] {
  const running: { agent: string; since: string; minutes: number }[] = [];
  for (const entry of log ?? []) {
    if (entry.agent_phase !== phase) continue;
    const judged = judgeRun(entry, now, phase);
    if (judged.kind === 'running') running.push({ agent: entry.agent ?? 'a subagent', since: judged.since, minutes: judged.minutes });
  }
  return running;
}
