// The check every hook call makes first: are isdlc's guarded files as isdlc left them (the journal)? Cheap
// when nothing changed: one small read and a stat per file; a file is read only when its stat moved. A
// change isdlc did not make is undone (state, config, bin, the loop rows, isdlc's part of the settings),
// the changed content kept beside the file as `<name>.rejected-<time>`, and recorded as an incident.
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ACTIVITY_LOG } from '../state/activity-log.js';
import type { InstallRecord } from '../state/install-record.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withLock } from '../state/lock.js';
import { ISDLC_DIR } from '../state/locate.js';
import type { GuardedKind, GuardedSet } from './guarded-set.js';
import {
  copyPath,
  fileStamp,
  journalPath,
  lstamp,
  readCopy,
  readJournal,
  recordAsIs,
  sameStamp,
  stampIfHolds,
  updateJournal,
  type Incident,
  type IncidentChange,
  type JournalIndex,
} from './journal.js';
import { adoptAll, installRecordOf, journalExpected, markJournalExpected } from './journal-adopt.js';
import type { LoopRows } from './loop-rows.js';
import { anySuspect, logProblem, notAFolder, noteLogFloor, suspects } from './suspects.js';
import { displacedIsdlc, DisplacedIsdlcError } from './displaced.js';
import { watchedChildren } from './unjournaled.js';
import { kindOf, viewOf } from './watched-files.js';
import { workflowKeyOf } from './workflow-key.js';
import type { IsdlcState } from '../state/schema.js';

export { noteLogFloor };
export type { LoopRows };

export interface Finding {
  rel: string;
  kind: GuardedKind;
  change: IncidentChange;
  outcome: 'reverted' | 'reported';
  keptAs?: string;
}

export interface CheckOptions {
  /** What is guarded in this project: isdlc's files and what its agent hosts add. */
  guarded: GuardedSet;
  /** The event that runs the check, for the incident record. */
  foundBy: string;
  /** The workflow in progress (`<type>@<started_at>`), asked only when something changed. */
  workflow?: () => string | undefined;
  loopRows?: () => LoopRows;
  now?: Date;
}

export interface CheckResult {
  findings: Finding[];
  /** ok: compared; adopted: a project from before the journal, whose files were taken as they are. */
  journal: 'ok' | 'adopted' | 'lost' | 'displaced';
  /** What was wrong with the journal itself. */
  problem?: string;
  incident?: Incident;
  /** Unreviewed incidents of the workflow in progress (or of none), this one included. */
  unreviewed: number;
}

const NOTHING: CheckResult = { findings: [], journal: 'ok', unreviewed: 0 };

function timeTag(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

function readIfFile(path: string): Buffer | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return undefined;
  if (stats.isSymbolicLink()) return Buffer.from(`symlink -> ${readlinkSync(path)}`);
  if (stats.isDirectory()) return Buffer.from('a folder');
  if (!stats.isFile()) return Buffer.from('a special file');
  return readFileSync(path);
}

/**
 * What a sandbox mounts on, where a name it keeps read-only does not exist: an empty file or folder, or a
 * character device. Such a stand-in at a name that should be absent is left alone: taking it away would
 * lift the read-only mount inside a running sandbox (Linux detaches a mount whose mount point goes), and
 * it holds nothing anyone reads.
 */
function isPlaceholder(path: string): boolean {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return false;
  if (stats.isCharacterDevice() || (stats.isFile() && stats.size === 0)) return true;
  if (!stats.isDirectory()) return false;
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

interface Judge {
  root: string;
  guarded: GuardedSet;
  index: JournalIndex;
  install: InstallRecord | undefined;
  tag: string;
  loopRows?: () => LoopRows;
}

/**
 * Keeps what is at `rel` for the person, beside it; returns the name it is kept under. A file about to be
 * put back is copied, so that the good one replaces it in one rename and no reader finds the name empty;
 * anything else (a newcomer, a folder, a link) is moved.
 */
function keepAside(judge: Judge, rel: string, replacing = false): string | undefined {
  const path = join(judge.root, rel);
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return undefined;
  const aside = `${rel}.rejected-${judge.tag}`;
  if (replacing && stats.isFile()) copyFileSync(path, join(judge.root, aside));
  else renameSync(path, join(judge.root, aside));
  return aside;
}

function putBack(judge: Judge, rel: string, content: Buffer | undefined): void {
  const path = join(judge.root, rel);
  if (content === undefined) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, content);
}

/** What a watched file whose stat moved turned out to be, and what to do about it. */
type Assessment =
  | { same: true; /** Records the file as it is (its stamp moved, its content did not). */ accept: () => void }
  | { same: false; change: IncidentChange; /** Undoes the change, or reports it where nothing can be undone. */ undo: () => Finding };

function assessFile(judge: Judge, rel: string): Assessment | undefined {
  const { root, index } = judge;
  const entry = index.files[rel]!;
  if (sameStamp(fileStamp(root, rel), entry.stamp)) return undefined;
  const view = viewOf(rel, judge.guarded);
  if (view === 'loop-rows' && !judge.loopRows) return undefined; // judged only where SQLite may be loaded
  // Not recorded: once the stand-in goes, the name is absent again, as isdlc left it.
  if (entry.stamp === null && isPlaceholder(join(root, rel))) return { same: true, accept: () => undefined };
  const current = readIfFile(join(root, rel));
  const good = entry.copy ? readCopy(root, rel) : undefined;
  const change: IncidentChange = current === undefined ? 'deleted' : entry.stamp === null ? 'created' : 'modified';
  const finding = (outcome: Finding['outcome'], keptAs?: string): Finding => ({
    rel,
    kind: kindOf(rel, judge.guarded),
    change,
    outcome,
    ...(keptAs ? { keptAs } : {}),
  });
  // `holds`: the bytes the file was just found or made to hold; the stamp is taken only if it still holds
  // them, so that a file swapped in right after is never stamped as isdlc's.
  const record = (copy: boolean, holds?: Buffer): void => {
    index.files[rel] = { stamp: holds ? stampIfHolds(root, rel, holds) : fileStamp(root, rel), ...(copy ? { copy: true } : {}) };
  };

  if (typeof view === 'object') {
    const now = current?.toString('utf8');
    const before = good?.toString('utf8');
    const part = view.isdlcPart(now, judge.install);
    // The person's part changed (or nothing did): that is the new baseline.
    if (part !== undefined && part === view.isdlcPart(before, judge.install))
      return { same: true, accept: () => recordAsIs(root, index, rel, current !== undefined) };
    return {
      same: false,
      change,
      undo: () => {
        const keptAs = keepAside(judge, rel, good !== undefined);
        putBack(judge, rel, good);
        record(good !== undefined, good);
        return finding('reverted', keptAs);
      },
    };
  }

  if (view === 'loop-rows') {
    const rows = judge.loopRows!();
    const dbFile = join(root, rel);
    const now = current === undefined ? undefined : safeSnapshot(rows, dbFile);
    if (now !== undefined && good !== undefined && rows.same(now, good.toString('utf8'))) return { same: true, accept: () => record(true) };
    return {
      same: false,
      change,
      undo: () => {
        if (good === undefined) return finding('reported');
        // A store SQLite cannot read is set aside whole; the loop rows go into a new one.
        const keptAs = current !== undefined && now === undefined ? keepAside(judge, rel) : undefined;
        if (keptAs) for (const side of ['-wal', '-shm']) keepAside(judge, `${rel}${side}`);
        rows.restore(dbFile, good.toString('utf8'));
        record(true);
        return finding('reverted', keptAs);
      },
    };
  }

  if (current !== undefined && good !== undefined && current.equals(good)) return { same: true, accept: () => record(true, current) };
  const next = readCopy(root, rel, true);
  if (current !== undefined && next !== undefined && current.equals(next)) {
    // isdlc was replacing this file when it stopped (a crash): the new content is its own.
    return {
      same: true,
      accept: () => {
        renameSync(copyPath(root, rel, true), copyPath(root, rel));
        record(true, next);
      },
    };
  }
  return {
    same: false,
    change,
    undo: () => {
      // Nothing to put back: no copy was kept, the copy is gone (the journal was damaged), or it cannot be
      // isdlc's. Reported once: the file as it is now is what the next call compares with.
      if ((entry.stamp !== null && !entry.copy) || (entry.copy && good === undefined) || (good !== undefined && !usableCopy(judge, rel, good))) {
        index.files[rel] = { stamp: fileStamp(root, rel), ...(good !== undefined ? { copy: true } : {}) };
        return finding('reported');
      }
      const keptAs = keepAside(judge, rel, good !== undefined);
      putBack(judge, rel, good);
      record(good !== undefined, good);
      return finding('reverted', keptAs);
    },
  };
}

/** One watched file whose stat moved: isdlc's after all (recorded again), or a change undone or reported. */
function judgeFile(judge: Judge, rel: string): Finding | undefined {
  const assessment = assessFile(judge, rel);
  if (!assessment) return undefined;
  if (assessment.same) {
    assessment.accept();
    return undefined;
  }
  return assessment.undo();
}

/**
 * Whether a copy can be what isdlc wrote: the journal's files are not waited onto the disk, so after a
 * power cut one may be empty; such a copy is never put back over anything.
 */
function usableCopy(judge: Judge, rel: string, copy: Buffer): boolean {
  if (copy.length === 0) return false;
  if (kindOf(rel, judge.guarded) !== 'state') return true;
  try {
    JSON.parse(copy.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

function safeSnapshot(rows: LoopRows, dbFile: string): string | undefined {
  try {
    return rows.snapshot(dbFile);
  } catch {
    return undefined;
  }
}

/** New entries in a watched folder that isdlc did not write: set aside. */
function judgeFolder(judge: Judge, dir: string): Finding[] {
  const { root, index } = judge;
  if (!existsSync(join(root, dir))) return [];
  const found: Finding[] = [];
  for (const child of watchedChildren(root, dir)) {
    if (child in index.files || child in index.dirs || isPlaceholder(join(root, child))) continue;
    const keptAs = keepAside(judge, child);
    found.push({ rel: child, kind: kindOf(child, judge.guarded), change: 'created', outcome: 'reverted', ...(keptAs ? { keptAs } : {}) });
  }
  return found;
}

function refreshFolders(root: string, index: JournalIndex): void {
  for (const dir of Object.keys(index.dirs)) {
    if (!existsSync(join(root, dir))) mkdirSync(join(root, dir), { recursive: true });
    index.dirs[dir] = lstamp(join(root, dir));
  }
}

function recordIncident(index: JournalIndex, findings: Finding[], options: CheckOptions, now: Date): Incident {
  const workflow = options.workflow?.();
  const incident: Incident = {
    id: index.nextIncident,
    at: now.toISOString(),
    foundBy: options.foundBy,
    ...(workflow ? { workflow } : {}),
    files: findings.map((f) => ({ path: f.rel, kind: f.kind, change: f.change, outcome: f.outcome, ...(f.keptAs ? { keptAs: f.keptAs } : {}) })),
  };
  index.nextIncident += 1;
  index.incidents.push(incident);
  return incident;
}

export function unreviewedIn(index: JournalIndex, workflow: string | undefined): number {
  return index.incidents.filter((incident) => !incident.review && incident.workflow === workflow).length;
}

/** State files are put back under their own lock, so no state writer works from the forged content. */
function withStateLocks<T>(root: string, guarded: GuardedSet, rels: string[], work: () => T): T {
  const states = rels.filter((rel) => kindOf(rel, guarded) === 'state').sort();
  const run = (i: number): T => (i === states.length ? work() : withLock(join(root, states[i]!), () => run(i + 1)));
  return run(0);
}

/** The journal is gone or unreadable where init made one: nothing can be compared; start again from what is there. */
function journalLost(root: string, problem: string, options: CheckOptions, now: Date): CheckResult {
  const broken = journalPath(root, 'index.json');
  if (existsSync(broken)) renameSync(broken, `${broken}.rejected-${timeTag(now)}`);
  return updateJournal(root, (index) => {
    adoptAll(root, index, options.guarded);
    const incident = recordIncident(
      index,
      [{ rel: `${ISDLC_DIR}/journal`, kind: 'other', change: problem.startsWith('missing') ? 'deleted' : 'modified', outcome: 'reported' }],
      options,
      now,
    );
    return { findings: [], journal: 'lost', problem, incident, unreviewed: unreviewedIn(index, incident.workflow) };
  });
}

export interface PendingChange {
  rel: string;
  kind: GuardedKind;
  change: IncidentChange;
}

/** What differs from the journal now, without changing anything (for a person's review and for init). */
export function pendingChanges(root: string, guarded: GuardedSet, loopRows?: () => LoopRows): PendingChange[] {
  const read = readJournal(root);
  if (read.kind !== 'ok') return [];
  const index = read.index;
  const judge: Judge = { root, guarded, index, install: installRecordOf(root, index), tag: '', ...(loopRows ? { loopRows } : {}) };
  const found: PendingChange[] = [];
  const first = suspects(root, index);
  for (const rel of first.files) {
    const assessment = assessFile(judge, rel);
    if (assessment && !assessment.same) found.push({ rel, kind: kindOf(rel, guarded), change: assessment.change });
  }
  for (const dir of first.dirs) {
    for (const child of existsSync(join(root, dir)) ? watchedChildren(root, dir) : []) {
      if (!(child in index.files) && !(child in index.dirs) && !isPlaceholder(join(root, child)))
        found.push({ rel: child, kind: kindOf(child, guarded), change: 'created' });
    }
  }
  return found;
}

/** `<type>@<started_at>` of the workflow in the state as isdlc last wrote it (never the file as it is now). */
export function workflowKeyFromCopy(root: string, stateRel: string): string | undefined {
  try {
    return workflowKeyOf(JSON.parse(readCopy(root, stateRel)?.toString('utf8') ?? 'null') as IsdlcState | null);
  } catch {
    return undefined;
  }
}

/**
 * For a writer about to build on one file (the state store, holding the state lock): when the file is not
 * as isdlc left it, it is put back first and the change recorded as an incident, so that no isdlc command
 * completes a phase on a forged state. A lost journal is left to the hook's check.
 */
export function verifyBeforeWrite(root: string, rel: string, options: CheckOptions): Finding | undefined {
  const displaced = displacedIsdlc(root);
  if (displaced) throw new DisplacedIsdlcError(displaced);
  const read = readJournal(root);
  if (read.kind !== 'ok') return undefined;
  const entry = read.index.files[rel];
  if (!entry || sameStamp(fileStamp(root, rel), entry.stamp)) return undefined;
  const now = options.now ?? new Date();
  return updateJournal(root, (index) => {
    if (!index.files[rel]) return undefined;
    const finding = judgeFile({ root, guarded: options.guarded, index, install: installRecordOf(root, index), tag: timeTag(now) }, rel);
    if (finding) recordIncident(index, [finding], options, now);
    return finding;
  });
}

export function checkGuardedFiles(root: string, options: CheckOptions): CheckResult {
  // Nothing in a displaced folder can be judged or put back (displaced.ts); the install check reports it.
  const displaced = displacedIsdlc(root);
  if (displaced) return { ...NOTHING, journal: 'displaced', problem: displaced };
  const read = readJournal(root);
  const now = options.now ?? new Date();
  if (read.kind === 'missing') {
    if (journalExpected(root)) return journalLost(root, 'missing: .isdlc/journal/index.json is gone', options, now);
    // A project set up before the journal existed: what is there now becomes the baseline.
    updateJournal(root, (index) => adoptAll(root, index, options.guarded));
    markJournalExpected(root);
    return { ...NOTHING, journal: 'adopted' };
  }
  if (read.kind === 'broken') return journalLost(root, read.problem, options, now);
  const first = suspects(root, read.index);
  if (!anySuspect(first)) return NOTHING;

  return withStateLocks(root, options.guarded, first.files, () =>
    updateJournal(root, (index) => {
      const judge: Judge = {
        root,
        guarded: options.guarded,
        index,
        install: installRecordOf(root, index),
        tag: timeTag(now),
        ...(options.loopRows ? { loopRows: options.loopRows } : {}),
      };
      const findings: Finding[] = [];
      // A watched folder swapped for a link (to a folder of the agent's) or a file goes first: the files in
      // it are then judged, and put back, in a real folder again.
      for (const dir of Object.keys(index.dirs).sort()) {
        if (!notAFolder(join(root, dir))) continue;
        const keptAs = keepAside(judge, dir);
        mkdirSync(join(root, dir), { recursive: true });
        findings.push({ rel: dir, kind: kindOf(dir, options.guarded), change: 'modified', outcome: 'reverted', ...(keptAs ? { keptAs } : {}) });
      }
      // install.json first: the settings are judged by what it records as isdlc's.
      const files = Object.keys(index.files).sort((a, b) => Number(b.endsWith('install.json')) - Number(a.endsWith('install.json')));
      for (const rel of files) {
        const finding = judgeFile(judge, rel);
        if (finding) {
          findings.push(finding);
          if (rel.endsWith('install.json')) judge.install = installRecordOf(root, index);
        }
      }
      for (const dir of Object.keys(index.dirs)) findings.push(...judgeFolder(judge, dir));
      const log = logProblem(root, index);
      if (log) findings.push({ rel: `${ISDLC_DIR}/${ACTIVITY_LOG}`, kind: 'log', change: log, outcome: 'reported' });
      noteLogFloor(root, index);
      refreshFolders(root, index);
      if (findings.length === 0) return NOTHING;
      const incident = recordIncident(index, findings, options, now);
      return { findings, journal: 'ok' as const, incident, unreviewed: unreviewedIn(index, incident.workflow) };
    }),
  );
}
