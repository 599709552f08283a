// The end of a turn after /isdlc or /discover was loaded but its orchestrator never ran: the model is
// sent back to delegate. It can never hold a session forever: a marker from another session is not
// ours to act on, a marker older than 30 minutes is dropped, and after MAX_REMINDERS holds (or when the
// host says it is already continuing because of a Stop hook) the turn ends and the user is told.
import { defineGuard } from '../engine/guard.js';
import { delegationSeen, MARKER_MAX_AGE_MS, MAX_REMINDERS, pendingDelegationOf, requiredAgent } from '../state/pending-delegation.js';

export const delegationGate = defineGuard({
  id: 'delegation-gate',
  description: 'Holds the end of a turn (at most twice) until the orchestrator required by a loaded /isdlc or /discover command has run.',
  on: { Stop: true },
  check({ event, state, now, deny, tellUser, update, log }) {
    const marker = pendingDelegationOf(state);
    if (!state || !marker) return;
    if (marker.session_id && event.sessionId && marker.session_id !== event.sessionId) {
      log({ outcome: 'other-session' });
      return;
    }
    const clear = (): void =>
      update((draft) => {
        draft.pending_delegation = null;
      });
    // `add` and `analyze` run inline and need no orchestrator: a marker for one (left by an older install,
    // or by the original framework) promises nothing, and holding the turn for it would be a false stop.
    if (requiredAgent(marker.skill, typeof marker.args === 'string' ? marker.args : '') === null) {
      clear();
      log({ outcome: 'inline-action' });
      return;
    }
    const age = now.getTime() - Date.parse(marker.invoked_at);
    if (!(age <= MARKER_MAX_AGE_MS)) {
      clear();
      log({ outcome: 'expired', minutes: Math.round(age / 60_000) });
      return;
    }
    if (delegationSeen(state, marker)) {
      clear();
      log({ outcome: 'delegated', agent: marker.required_agent });
      return;
    }
    const reminders = typeof marker.reminders === 'number' ? marker.reminders : 0;
    if (event.stop?.hookActive === true || reminders >= MAX_REMINDERS) {
      clear();
      log({ outcome: 'gave-up', reminders });
      tellUser(
        `isdlc: /${marker.skill} was loaded but ${marker.required_agent} never ran, after ${reminders} reminder${reminders === 1 ? '' : 's'}. ` +
          'isdlc has stopped holding the turn. The request was not carried out through the workflow: ask again, or check what the agent did.',
      );
      return;
    }
    update((draft) => {
      const pending = pendingDelegationOf(draft);
      if (pending) pending.reminders = reminders + 1;
    });
    // Short: Claude Code 2.1.332 sends a held Stop's reason to the model twice.
    deny(
      `isdlc delegation-gate: Delegate to ${marker.required_agent} now (Agent tool, subagent_type "${marker.required_agent}"); ` +
        `do not do the request yourself. /${marker.skill} was loaded but ${marker.required_agent} has not run. ` +
        `isdlc asks at most ${MAX_REMINDERS} times, once per turn, then ends the turn and tells the user.`,
    );
  },
});
