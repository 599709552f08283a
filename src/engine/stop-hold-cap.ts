// isdlc's own bound on holding the end of a turn, whatever guard holds it and whatever the host does: after
// MAX_IDLE_STOP_HOLDS holds in a row of one agent with no tool call or prompt of that agent between them,
// the next hold is let go, the turn ends and the person is told what held it. Each holding guard has a bound
// of its own (a loop its iteration limit and circuit breaker, delegation-gate its reminders), but those
// count iterations, not stalls: an agent that answers each hold with words alone would be sent back up to a
// loop's last iteration, one model request each, on a host that never ends a turn itself (Codex; Claude
// Code ends one after eight such holds). The holds are counted from the activity log, where every hook
// call's decision already is: nothing more is written, and a tool call pays nothing.
import type { HookEvent } from '../events/hook-event.js';
import { recentActivity } from '../state/activity-log.js';
import type { Verdict } from './verdict.js';

/** Holds in a row, with nothing done between them, after which isdlc lets the turn end (Claude Code's own figure). */
export const MAX_IDLE_STOP_HOLDS = 8;
export const STOP_HOLD_CAP_ID = 'stop-hold-cap';

/** How far back the log is read: the holds of one turn, with what other agents logged between them. */
const TAIL_BYTES = 256 * 1024;
const ENDS = new Set<unknown>(['Stop', 'SubagentStop']);
const ACTS = new Set<unknown>(['PreToolUse', 'UserPromptSubmit']);

export interface StopHoldInput {
  event: HookEvent;
  verdict: Verdict;
  isdlcDir: string;
  log: (detail: Record<string, unknown>) => void;
}

/**
 * The agent's holds in a row just before this call, as the log has them: its held ends of a turn back to
 * the last thing it did (a tool call, a prompt) or the last end it was let go.
 */
function holdsInARow(isdlcDir: string, sessionId: string, agentId: string | undefined): number {
  const mine = recentActivity(isdlcDir, sessionId, TAIL_BYTES).filter((entry) => entry['session'] === sessionId && entry['agent_id'] === agentId);
  let holds = 0;
  for (let i = mine.length - 1; i >= 0 && holds < MAX_IDLE_STOP_HOLDS; i -= 1) {
    const entry = mine[i]!;
    if (ACTS.has(entry['event'])) break;
    if (!ENDS.has(entry['event'])) continue;
    if (entry['decision'] !== 'block') break;
    holds += 1;
  }
  return holds;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
}

/** At the end of a turn a guard holds: lets it go once the agent has been held too often with nothing done. */
export function boundStopHolds({ event, verdict, isdlcDir, log }: StopHoldInput): void {
  const sessionId = event.sessionId;
  if (!verdict.deny || !sessionId || !ENDS.has(event.name)) return;
  const holds = holdsInARow(isdlcDir, sessionId, event.agentId);
  if (holds < MAX_IDLE_STOP_HOLDS) return;
  const { guard, reason } = verdict.deny;
  delete verdict.deny;
  log({ guard: STOP_HOLD_CAP_ID, outcome: 'let-go', holds, held_by: guard });
  const whose = event.agentId ? `a subagent's turn (${event.agentType ?? 'agent'} ${event.agentId})` : 'the turn';
  verdict.userMessages.push(
    `isdlc: ${whose} was held ${holds} times in a row with no tool call between the holds, so isdlc let it end instead of holding it again. ` +
      `What held it still stands (${guard}: ${firstLine(reason)}): ask the agent to go on, or see to it yourself.`,
  );
}
