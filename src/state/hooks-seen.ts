// The proof that an agent host runs isdlc's hooks in a project: the activity log names the host of every
// call it answered. A host that skips hooks it does not trust records nothing, so doctor can tell a
// registered hook from one that runs.
import { join } from 'node:path';
import { ACTIVITY_LOG } from './activity-log.js';
import { readTextIfPresent } from '../util/read-text.js';

/** When the host's hooks last ran in this project (the newest logged call from it), as the activity log says. */
export function hooksSeenAt(isdlcDir: string, host: string): string | undefined {
  for (const file of [ACTIVITY_LOG, `${ACTIVITY_LOG}.1`]) {
    const lines = (readTextIfPresent(join(isdlcDir, file)) ?? '').split('\n').reverse();
    for (const line of lines) {
      if (!line.includes(`"host":"${host}"`)) continue;
      try {
        const entry = JSON.parse(line) as { ts?: unknown; host?: unknown };
        if (entry.host === host && typeof entry.ts === 'string') return entry.ts;
      } catch {
        // a line cut short
      }
    }
  }
  return undefined;
}
