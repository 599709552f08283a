// The state store as every isdlc process opens it: in a project that keeps a journal of isdlc's writes,
// each write first puts back a state someone else wrote (tamper-check.ts), then is recorded as isdlc's own
// (journal.ts). A write that skipped the journal would look forged to the next hook call, which would undo
// it, so nothing above this layer opens a state file any other way (a dependency rule says so).
import { sep } from 'node:path';
import { ISDLC_DIR } from '../state/locate.js';
import type { LockOptions } from '../state/lock.js';
import { StateStore, type StateJournal } from '../state/store.js';
import { GuardedSet } from './guarded-set.js';
import { fileStamp, hasJournal, journaledWrite, readJournal, sameStamp, stampOf, type Stamp } from './journal.js';
import { displacedIsdlc, DisplacedIsdlcError } from './displaced.js';
import { loadTamper } from './load-tamper.js';

/** A state file is judged by its bytes whatever hosts a project has: isdlc's own files are all it needs. */
const ISDLC_FILES = new GuardedSet([]);

/** The project root and the file's path from it, when the file is one of a project's `.isdlc/` that keeps a journal. */
function journalOf(file: string): { root: string; rel: string } | undefined {
  const normal = file.split(sep).join('/');
  const at = normal.lastIndexOf(`/${ISDLC_DIR}/`);
  if (at < 0) return undefined;
  const root = file.slice(0, at);
  return hasJournal(root) ? { root, rel: normal.slice(at + 1) } : undefined;
}

/** verify's answer for a file no journal holds: anything read is fine. */
const NOT_JOURNALED = Symbol('not journaled');

const STATE_JOURNAL: StateJournal = {
  verify(file) {
    const journal = journalOf(file);
    if (!journal) return NOT_JOURNALED;
    const displaced = displacedIsdlc(journal.root);
    if (displaced) throw new DisplacedIsdlcError(displaced);
    // The file as isdlc left it (its stat has not moved): nothing to judge, and the judging is not loaded.
    const read = readJournal(journal.root);
    const entry = read.kind === 'ok' ? read.index.files[journal.rel] : undefined;
    if (!entry) return NOT_JOURNALED;
    if (sameStamp(fileStamp(journal.root, journal.rel), entry.stamp)) return entry.stamp;
    loadTamper().verifyStateBeforeWrite(journal.root, journal.rel, { guarded: ISDLC_FILES, foundBy: 'a state write' });
    return undefined; // put back: the index has moved on, confirm reads it again
  },
  confirm(file, stats, expected) {
    if (expected === NOT_JOURNALED) return true;
    if (expected !== undefined) return sameStamp(stampOf(stats), expected as Stamp | null);
    const journal = journalOf(file);
    if (!journal) return true;
    const read = readJournal(journal.root);
    const entry = read.kind === 'ok' ? read.index.files[journal.rel] : undefined;
    return !entry || sameStamp(stampOf(stats), entry.stamp);
  },
  record(file, bytes, write) {
    const journal = journalOf(file);
    if (journal) journaledWrite(journal.root, journal.rel, bytes, write, true);
    else write();
  },
};

/** The state store with the journal wired in; `new JournaledStateStore(file)` is how isdlc opens a state file. */
export class JournaledStateStore extends StateStore {
  constructor(file: string, lockOptions: LockOptions = {}) {
    super(file, { ...lockOptions, journal: STATE_JOURNAL });
  }
}
