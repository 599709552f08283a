// The journal of isdlc's own writes to its guarded files (src/integrity/guarded-set.ts): for each watched
// file, how isdlc left it (a stat stamp) and a copy of what it wrote. A hook call compares the files with
// it (src/integrity/tamper-check.ts); whatever differs was not isdlc's doing.
//
// Layout, inside `.isdlc/journal/`:
//   index.json          the stamps, the watched folders, the incidents (see JournalIndex)
//   copies/<rel>        the content isdlc last wrote to each file (rel URI-encoded), its last good copy
//   copies/<rel>.next   written just before isdlc replaces the file: after a crash between the two, the
//                       file is this copy and counts as isdlc's
//
// Every write to the journal happens under its lock (`index.json.lock`); a writer that holds the state
// lock takes it second, never the other way round.
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withLock, type LockOptions } from '../state/lock.js';
import { ISDLC_DIR } from '../state/locate.js';
import { JOURNAL_DIR, watchedChildren } from './unjournaled.js';

export { JOURNAL_DIR };
const INDEX = 'index.json';
const COPIES = 'copies';
const NEXT = '.next';

/**
 * ino, size, mtime and ctime of a file (and of its side files: the loop store's write-ahead log): ctime
 * moves with every change and no user can set it back.
 */
export type Stamp = readonly number[];

export interface JournalEntry {
  /** How isdlc left the file; null: isdlc left no file there. */
  stamp: Stamp | null;
  /** Whether a copy of isdlc's content is kept (bin files, state, config...); without one, a change can be reported but not undone. */
  copy?: boolean;
}

export type IncidentChange = 'modified' | 'created' | 'deleted';

export interface IncidentFile {
  path: string;
  kind: string;
  change: IncidentChange;
  /** What was done about it: put back as isdlc wrote it, or only reported. */
  outcome: 'reverted' | 'reported';
  /** Where the changed content was kept for the person. */
  keptAs?: string;
}

export interface Incident {
  id: number;
  at: string;
  /** The hook event that found it, and the tool of the call before which it happened. */
  foundBy: string;
  /** The workflow in progress when it was found: `<type>@<started_at>`. */
  workflow?: string;
  files: IncidentFile[];
  /** Set by a person's `isdlc changes accept|reject`. */
  review?: { decision: 'accepted' | 'rejected'; at: string; by: string };
}

export interface JournalIndex {
  version: 1;
  files: Record<string, JournalEntry>;
  /** Folders whose entries are watched for files isdlc did not create: their stamps. */
  dirs: Record<string, Stamp | null>;
  /** The activity log: its inode and a size it has reached (it only grows, until it is rotated). */
  log?: { ino: number; floor: number };
  incidents: Incident[];
  nextIncident: number;
}

/** At most this many incidents are kept: the newest, and every unreviewed one. */
const MAX_INCIDENTS = 50;

export function journalPath(root: string, ...parts: string[]): string {
  return join(root, ISDLC_DIR, JOURNAL_DIR, ...parts);
}

export function emptyIndex(): JournalIndex {
  return { version: 1, files: {}, dirs: {}, incidents: [], nextIncident: 1 };
}

export function stampOf(stats: Stats | undefined): Stamp | null {
  return stats ? [stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs] : null;
}

/** SQLite writes to `loop.db-wal` first: a change may leave `loop.db` itself untouched until a checkpoint. */
const SIDE_FILES: Readonly<Record<string, readonly string[]>> = Object.freeze({ [`${ISDLC_DIR}/loop.db`]: ['-wal'] });

/** The stamp of a watched file, relative to the root, its side files included. */
export function fileStamp(root: string, rel: string): Stamp | null {
  const main = stampOf(lstatSync(join(root, rel), { throwIfNoEntry: false }));
  const sides = SIDE_FILES[rel];
  if (!main || !sides) return main;
  return [...main, ...sides.flatMap((suffix) => stampOf(lstatSync(join(root, `${rel}${suffix}`), { throwIfNoEntry: false })) ?? [0, 0, 0, 0])];
}

/** The stamp of a folder (or of a file with no side files), by its path. */
export function lstamp(path: string): Stamp | null {
  return stampOf(lstatSync(path, { throwIfNoEntry: false }));
}

export function sameStamp(a: Stamp | null | undefined, b: Stamp | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

export type JournalRead = { kind: 'ok'; index: JournalIndex } | { kind: 'missing' } | { kind: 'broken'; problem: string };

function isIndex(value: unknown): value is JournalIndex {
  const v = value as Partial<JournalIndex> | null;
  return Boolean(
    v &&
    typeof v === 'object' &&
    v.version === 1 &&
    v.files &&
    typeof v.files === 'object' &&
    v.dirs &&
    typeof v.dirs === 'object' &&
    Array.isArray(v.incidents),
  );
}

/**
 * The executable reads the index to pick the bundle it runs (src/entry/verified-bundle.ts); the bundle's
 * first reader, the check, takes that read instead of reading again. Once: every later reader reads anew.
 */
const HANDED_OVER = '__isdlcJournalRead';

export function handOverRead(root: string, read: JournalRead): void {
  (globalThis as Record<string, unknown>)[HANDED_OVER] = { root, read };
}

export function readJournal(root: string): JournalRead {
  const handed = (globalThis as Record<string, unknown>)[HANDED_OVER] as { root: string; read: JournalRead } | undefined;
  if (handed) {
    delete (globalThis as Record<string, unknown>)[HANDED_OVER];
    if (handed.root === root) return handed.read;
  }
  let text: string;
  try {
    text = readFileSync(journalPath(root, INDEX), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'broken', problem: (error as Error).message };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return isIndex(parsed) ? { kind: 'ok', index: parsed } : { kind: 'broken', problem: 'index.json is not a journal index' };
  } catch (error) {
    return { kind: 'broken', problem: `index.json is not JSON (${(error as Error).message})` };
  }
}

export function copyPath(root: string, rel: string, next = false): string {
  return journalPath(root, COPIES, `${encodeURIComponent(rel)}${next ? NEXT : ''}`);
}

/** Keeps `content` as the copy of what isdlc wrote to `rel`. */
export function writeCopy(root: string, rel: string, content: string | Buffer): void {
  writeFileAtomic(copyPath(root, rel), content, QUICK);
}

export function readCopy(root: string, rel: string, next = false): Buffer | undefined {
  try {
    return readFileSync(copyPath(root, rel, next));
  } catch {
    return undefined;
  }
}

/** `text`: the index as JSON already, when the caller has it (each stamp's numbers are costly to print). */
function writeIndex(root: string, index: JournalIndex, text?: string): void {
  const unreviewed = index.incidents.filter((incident) => !incident.review);
  if (index.incidents.length > MAX_INCIDENTS) {
    const reviewed = index.incidents.filter((incident) => incident.review).slice(-Math.max(0, MAX_INCIDENTS - unreviewed.length));
    index.incidents = [...reviewed, ...unreviewed].sort((a, b) => a.id - b.id);
    text = undefined;
  }
  writeFileAtomic(journalPath(root, INDEX), `${text ?? JSON.stringify(index)}\n`, QUICK);
}

const LOCK: LockOptions = { timeoutMs: 5000 };
/**
 * The journal's own files are not waited onto the disk: after a power cut one may be empty or old, which
 * the check then reports (and never puts back: see usableCopy in tamper-check.ts). The files it
 * describes are written durably by their writers.
 */
const QUICK = { durable: false } as const;

/**
 * Reads the journal under its lock, lets `work` change it, and writes it back. A journal that is missing
 * or broken starts empty here; whoever calls this has decided that is right (init, a person's review).
 */
let held: { root: string; index: JournalIndex } | undefined;

export function updateJournal<T>(root: string, work: (index: JournalIndex) => T): T {
  // The lock is not re-entrant: a write isdlc makes while it holds the journal (putting loop rows back)
  // records into the index already open.
  if (held && held.root === root) return work(held.index);
  mkdirSync(journalPath(root, COPIES), { recursive: true });
  return withLock(
    journalPath(root, INDEX),
    () => {
      const read = readJournal(root);
      const index = read.kind === 'ok' ? read.index : emptyIndex();
      const before = JSON.stringify(index);
      held = { root, index };
      let result: T;
      try {
        result = work(index);
      } finally {
        held = undefined;
      }
      const after = JSON.stringify(index);
      if (after !== before) writeIndex(root, index, after);
      return result;
    },
    LOCK,
  );
}

/** Whether this project keeps a journal (init made one); writers only record into one that exists. */
export function hasJournal(root: string): boolean {
  return lstatSync(journalPath(root, INDEX), { throwIfNoEntry: false }) !== undefined;
}

/**
 * isdlc writes `rel` (relative to `root`): `write` puts `content` in place (null: removes the file). The
 * copy is kept first, as `.next`, so that a crash between the write and the journal's update leaves a file
 * the check still knows as isdlc's. Without a journal in this project the write just happens.
 */
export function journaledWrite(root: string, rel: string, content: Buffer | null, write: () => void, checkWritten = false): void {
  if (!hasJournal(root)) {
    write();
    return;
  }
  updateJournal(root, (index) => {
    recordContent(root, index, rel, content, write, checkWritten);
  });
}

/** A stamp no file has: the next check reads the file and compares it with the copy. */
const UNVOUCHED: Stamp = [-1];

/**
 * The stamp of the file at `rel` when it holds `content` (read through the same open file as its stats):
 * a file swapped in between isdlc's rename and this look is not stamped as isdlc's.
 */
export function stampIfHolds(root: string, rel: string, content: Buffer): Stamp {
  let fd: number;
  try {
    fd = openSync(join(root, rel), 'r');
  } catch {
    return UNVOUCHED;
  }
  try {
    const stats = fstatSync(fd);
    return stats.isFile() && stats.size === content.length && readFileSync(fd).equals(content) ? stampOf(stats)! : UNVOUCHED;
  } finally {
    closeSync(fd);
  }
}

/**
 * The same, inside an updateJournal the caller holds. `checkWritten`: the file is read back before it is
 * stamped as isdlc's (a state file, which a writer racing isdlc could replace right after the rename).
 */
export function recordContent(root: string, index: JournalIndex, rel: string, content: Buffer | null, write: () => void, checkWritten = false): void {
  const next = copyPath(root, rel, true);
  // Written in place, not through a temporary file: until `write` has run the file is still the last copy,
  // so a `.next` cut short by a crash is never the one compared with.
  if (content !== null) writeFileSync(next, content);
  write();
  if (content !== null) renameSync(next, copyPath(root, rel));
  else rmSync(copyPath(root, rel), { force: true });
  const stamp = checkWritten && content !== null ? stampIfHolds(root, rel, content) : fileStamp(root, rel);
  index.files[rel] = { stamp, ...(content !== null ? { copy: true } : {}) };
  noteFolders(root, index, rel);
}

/**
 * The folders on the way to a file isdlc just wrote: one isdlc made is watched from now on, and a folder
 * whose every entry is known gets its new stamp. One holding an entry nobody recorded keeps its old stamp,
 * so the next check reads it and finds the newcomer.
 */
export function noteFolders(root: string, index: JournalIndex, rel: string): void {
  for (let folder = dirname(rel); folder === ISDLC_DIR || folder.startsWith(`${ISDLC_DIR}/`); folder = dirname(folder)) {
    const known = watchedChildren(root, folder).every((child) => child in index.files || child in index.dirs);
    if (known) index.dirs[folder] = lstamp(join(root, folder));
    else if (!(folder in index.dirs)) index.dirs[folder] = null;
  }
}

/**
 * Removes the copies of files the index no longer keeps a copy of (a file an earlier isdlc watched and
 * this one does not). Under the journal's lock: no `.next` is in flight then.
 */
export function pruneCopies(root: string, index: JournalIndex): void {
  let names: string[];
  try {
    names = readdirSync(journalPath(root, COPIES));
  } catch {
    return;
  }
  for (const name of names) {
    let rel: string;
    try {
      rel = decodeURIComponent(name.endsWith(NEXT) ? name.slice(0, -NEXT.length) : name);
    } catch {
      continue; // not a name isdlc gives a copy
    }
    if (!index.files[rel]?.copy) rmSync(journalPath(root, COPIES, name), { force: true });
  }
}

/** Records the file as it is now, as isdlc's (a write isdlc made by other means: SQLite, a rename). */
export function recordAsIs(root: string, index: JournalIndex, rel: string, keepCopy: boolean): void {
  const path = join(root, rel);
  const stamp = fileStamp(root, rel);
  if (stamp && keepCopy) {
    const content = readFileSync(path);
    if (!readCopy(root, rel)?.equals(content)) writeCopy(root, rel, content);
  } else rmSync(copyPath(root, rel), { force: true });
  index.files[rel] = { stamp, ...(stamp && keepCopy ? { copy: true } : {}) };
}
