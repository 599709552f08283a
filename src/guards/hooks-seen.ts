// Records, at each session start, that the host ran isdlc's hooks here: a host that skips untrusted hooks
// silently (Codex) leaves no such record, and doctor says so instead of taking a registered hook for a
// working one.
import { defineGuard } from '../engine/guard.js';
import { noteHooksSeen } from '../state/hooks-seen.js';

export const hooksSeen = defineGuard({
  id: 'hooks-seen',
  description: "Records when each agent host last ran isdlc's hooks at a session start (hooks_seen), for doctor.",
  on: { SessionStart: true },
  check({ event, state, now, update }) {
    const host = event.host;
    if (!host || !state) return;
    update((draft) => noteHooksSeen(draft, host, now.toISOString()));
  },
});
