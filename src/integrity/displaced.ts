// isdlc's folder, or its journal, swapped for a link (or a file). Everything isdlc would judge a change by
// lives in that folder, so nothing in it can be judged or put back: undoing the swap took the folder with the
// journal away mid-check and left isdlc's programs gone. isdlc changes nothing there, writes no state
// through it, and keeps every gate closed until a person moves the folder back.
import { lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ISDLC_DIR } from '../state/locate.js';

const FOLDERS = [ISDLC_DIR, `${ISDLC_DIR}/journal`];

/** What is wrong with isdlc's folder or its journal's, or undefined when both are plain folders (or absent). */
export function displacedIsdlc(root: string): string | undefined {
  for (const rel of FOLDERS) {
    const path = join(root, rel);
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (!stats || stats.isDirectory()) continue;
    if (stats.isSymbolicLink()) {
      let target = '?';
      try {
        target = readlinkSync(path);
      } catch {
        // gone since the stat: still not a folder
      }
      return `${rel} is a link to ${target}, not a folder`;
    }
    return `${rel} is not a folder`;
  }
  return undefined;
}

/** How a person puts it right. */
export const DISPLACED_REPAIR =
  'a person moves the folder back in place of the link (for example `rm .isdlc && mv <the folder it points to> .isdlc`), then runs `isdlc doctor`';

/** Thrown by a state write while isdlc's folder is displaced: the write would land wherever the link points. */
export class DisplacedIsdlcError extends Error {
  constructor(problem: string) {
    super(`isdlc does not write through a displaced folder: ${problem}; ${DISPLACED_REPAIR}`);
    this.name = 'DisplacedIsdlcError';
  }
}
