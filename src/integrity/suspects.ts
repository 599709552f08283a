// The first look the tamper check takes, before any lock and on every hook call: which watched files' stat
// moved since isdlc's last write, which watched folders hold a name nobody recorded, and whether the
// activity log did anything but grow. Nothing here reads a file's content; when it finds nothing, the
// check is done (tamper-on-hook.ts), and the judging (tamper-check.ts) is not even loaded.
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIVITY_LOG } from '../state/activity-log.js';
import { ISDLC_DIR } from '../state/locate.js';
import { fileStamp, lstamp, sameStamp, type IncidentChange, type JournalIndex } from './journal.js';
import { watchedChildren } from './unjournaled.js';

export interface Suspects {
  files: string[];
  dirs: string[];
  log: boolean;
}

/** What stands out before any lock is taken: files whose stat moved, folders whose entries may have. */
export function suspects(root: string, index: JournalIndex): Suspects {
  const files = Object.entries(index.files)
    .filter(([rel, entry]) => !sameStamp(fileStamp(root, rel), entry.stamp))
    .map(([rel]) => rel);
  // A folder's stamp also moves with isdlc's own locks and temporary files coming and going: only a name
  // nobody recorded makes it a suspect.
  const unknownIn = (dir: string): boolean =>
    notAFolder(join(root, dir)) || watchedChildren(root, dir).some((child) => !(child in index.files) && !(child in index.dirs));
  const dirs = Object.entries(index.dirs)
    .filter(([rel, stamp]) => !sameStamp(lstamp(join(root, rel)), stamp) && unknownIn(rel))
    .map(([rel]) => rel);
  return { files, dirs, log: logProblem(root, index) !== undefined };
}

/** The activity log only grows, until it is rotated to `.1`: anything else is someone else's doing. */
export function logProblem(root: string, index: JournalIndex): IncidentChange | undefined {
  if (!index.log) return undefined;
  const log = lstatSync(join(root, ISDLC_DIR, ACTIVITY_LOG), { throwIfNoEntry: false });
  if (log && log.ino === index.log.ino) return log.size >= index.log.floor ? undefined : 'modified';
  const rotated = lstatSync(join(root, ISDLC_DIR, `${ACTIVITY_LOG}.1`), { throwIfNoEntry: false });
  if (rotated && rotated.ino === index.log.ino && rotated.size >= index.log.floor) return undefined;
  return log ? 'modified' : 'deleted';
}

export function noteLogFloor(root: string, index: JournalIndex): void {
  const log = lstatSync(join(root, ISDLC_DIR, ACTIVITY_LOG), { throwIfNoEntry: false });
  if (log) index.log = { ino: log.ino, floor: log.size };
  else delete index.log;
}

/** A watched folder that is there but no longer a folder of its own (a link, a file). */
export function notAFolder(path: string): boolean {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats !== undefined && !stats.isDirectory();
}

/** Whether the first look found anything to judge. */
export function anySuspect(found: Suspects): boolean {
  return found.files.length > 0 || found.dirs.length > 0 || found.log;
}
