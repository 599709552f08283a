// `pending_delegation`: loading the /isdlc or /discover command promises a delegation to its
// orchestrator. The marker records that promise until the delegation is seen in `skill_usage_log`; the
// Stop hook holds the turn open meanwhile, a bounded number of times.
import { normalizeAgentName } from '../config/agents.js';
import type { IsdlcState } from './schema.js';

export const DELEGATION_MAP: Readonly<Record<string, string>> = Object.freeze({ isdlc: 'sdlc-orchestrator', discover: 'discover-orchestrator' });
/** Actions of the command that need no orchestrator (they are handled inline). */
export const EXEMPT_ACTIONS: ReadonlySet<string> = new Set(['add', 'analyze']);
/** A marker older than this belongs to an abandoned command. */
export const MARKER_MAX_AGE_MS = 30 * 60_000;
/** How many times one marker may hold a turn open. */
export const MAX_REMINDERS = 2;

export interface PendingDelegation {
  skill: string;
  required_agent: string;
  invoked_at: string;
  args: string;
  session_id?: string;
  reminders?: number;
}

/** `isdlc`, `/isdlc`, `plugin:isdlc` → `isdlc`. */
export function skillName(raw: string): string {
  return (raw.trim().replace(/^\//, '').split(':').pop() ?? '').toLowerCase();
}

/** The first word of the arguments that is not a flag. */
export function actionOf(args: string): string {
  return (/^(?:--?\S+\s+)*([\w-]+)/.exec(args.trim())?.[1] ?? '').toLowerCase();
}

/** The orchestrator a command must delegate to, or null when it needs none. */
export function requiredAgent(skill: string, args: string): string | null {
  const agent = DELEGATION_MAP[skillName(skill)];
  return agent && !EXEMPT_ACTIONS.has(actionOf(args)) ? agent : null;
}

export function pendingDelegationOf(state: IsdlcState | null | undefined): PendingDelegation | null {
  const marker = state?.pending_delegation as Partial<PendingDelegation> | null | undefined;
  return marker && typeof marker === 'object' && typeof marker.required_agent === 'string' && typeof marker.invoked_at === 'string'
    ? (marker as PendingDelegation)
    : null;
}

/** The required agent ran after the command was loaded (as log-skill-usage recorded it). */
export function delegationSeen(state: IsdlcState, marker: PendingDelegation): boolean {
  const since = Date.parse(marker.invoked_at);
  const wanted = normalizeAgentName(marker.required_agent);
  return (state.skill_usage_log ?? []).some((entry) => {
    const at = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : NaN;
    const agent = normalizeAgentName(typeof entry.agent === 'string' ? entry.agent : '');
    return at >= since && agent !== '' && (agent === wanted || agent.includes(wanted));
  });
}
