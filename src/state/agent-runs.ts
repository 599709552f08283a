// What a subagent's run looks like from the evidence the hooks gathered in `skill_usage_log`: each entry is
// one run, followed by its `agent_id` from the launch (the Agent call's result) or from its first tool
// call (a tool call inside a subagent carries its id), to its end (its SubagentStop, the synchronous
// Agent result, or the host's <task-notification>). A phase's delegation counts only for a run that
// ended having made at least one tool call: "reply OK and do nothing" is not the phase's work.
import type { SkillUsageEntry } from './schema.js';

/**
 * A run launched this long ago that never reported its end is taken as lost (its session ended, or the
 * hook that would have seen its end did not run): it no longer holds `phase complete`, and never counts.
 */
export const RUN_LOST_AFTER_MINUTES = 360;

/** The log keeps its newest entries only. */
export const SKILL_USAGE_LOG_LIMIT = 200;

export type RunJudgement =
  /** It ended having made at least one tool call. */
  | { kind: 'worked' }
  /** Logged without a run id and without a count of its tool calls (an older isdlc or host): taken on trust. */
  | { kind: 'trusted' }
  /** It ended without a tool call that isdlc saw or the host counted. */
  | { kind: 'idle' }
  | { kind: 'running'; since: string; minutes: number }
  | { kind: 'lost'; since: string };

/** Launched, or seen working before its launch was logged, and not ended yet. */
export function runIsOpen(entry: SkillUsageEntry): boolean {
  return entry.outcome === 'launched' || entry.outcome === 'running';
}

function madeToolCall(entry: SkillUsageEntry): boolean {
  return typeof entry.first_tool_at === 'string' || (typeof entry.tool_calls === 'number' && entry.tool_calls > 0);
}

function minutesSince(iso: string | undefined, now: Date): number {
  const at = iso ? Date.parse(iso) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, Math.floor((now.getTime() - at) / 60_000)) : 0;
}

export function judgeRun(entry: SkillUsageEntry, now: Date): RunJudgement {
  if (runIsOpen(entry)) {
    const since = entry.timestamp ?? entry.first_tool_at ?? '';
    const minutes = minutesSince(since, now);
    return minutes > RUN_LOST_AFTER_MINUTES ? { kind: 'lost', since } : { kind: 'running', since, minutes };
  }
  if (madeToolCall(entry)) return { kind: 'worked' };
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
    const judged = judgeRun(entry, now);
    if (judged.kind === 'running') running.push({ agent: entry.agent ?? 'a subagent', since: judged.since, minutes: judged.minutes });
  }
  return running;
}
