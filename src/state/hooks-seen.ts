// The proof that an agent host runs isdlc's hooks in a project: each session start records when, by host
// (`hooks_seen` in state). A host that skips hooks it does not trust records nothing, so doctor can tell a
// registered hook from one that runs.
import { join } from 'node:path';
import { readTextIfPresent } from '../util/read-text.js';
import { recordOrUndefined } from '../util/json.js';
import type { IsdlcState } from './schema.js';

export function noteHooksSeen(draft: IsdlcState, host: string, at: string): void {
  draft['hooks_seen'] = { ...(recordOrUndefined(draft['hooks_seen']) ?? {}), [host]: at };
}

/** When the host's hooks last ran at a session start in this project, as the state file says. */
export function hooksSeenAt(root: string, host: string): string | undefined {
  try {
    const state = JSON.parse(readTextIfPresent(join(root, '.isdlc', 'state.json')) ?? '{}') as Record<string, unknown>;
    const at = recordOrUndefined(state['hooks_seen'])?.[host];
    return typeof at === 'string' ? at : undefined;
  } catch {
    return undefined;
  }
}
