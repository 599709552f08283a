// Taking the guarded files as they are into the journal: at init (the person's command), for a project set
// up before the journal existed, and when a person accepts what is on disk after a review.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIVITY_LOG } from '../state/activity-log.js';
import { INSTALL_RECORD, parseInstallRecord, readInstallRecord, type InstallRecord } from '../state/install-record.js';
import { ISDLC_DIR } from '../state/locate.js';
import type { GuardedSet } from './guarded-set.js';
import { fileStamp, journaledWrite, lstamp, pruneCopies, readCopy, recordAsIs, writeCopy, type JournalIndex } from './journal.js';
import type { LoopRows } from './loop-rows.js';
import { scanWatched, viewOf } from './watched-files.js';
import { writeFileAtomic } from '../state/atomic-write.js';

const INSTALL_JSON = INSTALL_RECORD;

/** The install record as isdlc last wrote it (the journal's copy), else as it is on disk. */
export function installRecordOf(root: string, index: JournalIndex): InstallRecord | undefined {
  if (index.files[INSTALL_JSON]?.copy) {
    const copy = parseInstallRecord(readCopy(root, INSTALL_JSON)?.toString('utf8'));
    if (copy) return copy;
  }
  return readInstallRecord(root);
}

/**
 * Whether a missing journal is a loss. The journal is local to a checkout (git ignores it, like the
 * activity log): a fresh clone has neither, and starts one. Where init made one and the hooks have run
 * (the activity log is there), a missing journal was removed.
 */
export function journalExpected(root: string): boolean {
  if (readInstallRecord(root)?.journal !== true) return false;
  return [ACTIVITY_LOG, `${ACTIVITY_LOG}.1`].some((name) => existsSync(join(root, ISDLC_DIR, name)));
}

export function markJournalExpected(root: string): void {
  const record = readInstallRecord(root);
  if (!record || record.journal === true) return;
  const text = Buffer.from(`${JSON.stringify({ ...record, journal: true }, null, 2)}\n`);
  journaledWrite(root, INSTALL_JSON, text, () => writeFileAtomic(join(root, INSTALL_JSON), text));
}

/** Every watched file and folder, as it is now, becomes what isdlc expects. Incidents are kept. */
export function adoptAll(root: string, index: JournalIndex, guarded: GuardedSet, loopRows?: () => LoopRows): void {
  const watched = scanWatched(root, guarded);
  index.files = {};
  index.dirs = {};
  for (const rel of watched.files) {
    if (viewOf(rel, guarded) === 'loop-rows') adoptLoopRows(root, index, rel, loopRows);
    else recordAsIs(root, index, rel, true);
  }
  for (const dir of watched.dirs) index.dirs[dir] = lstamp(join(root, dir));
  pruneCopies(root, index);
}

function adoptLoopRows(root: string, index: JournalIndex, rel: string, loopRows: (() => LoopRows) | undefined): void {
  const file = join(root, rel);
  if (!existsSync(file) || !loopRows) {
    index.files[rel] = { stamp: fileStamp(root, rel) };
    return;
  }
  writeCopy(root, rel, loopRows().snapshot(file));
  index.files[rel] = { stamp: fileStamp(root, rel), copy: true };
}
