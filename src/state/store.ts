// The only code that reads or writes a state file. Writes are read-modify-write transactions under an
// inter-process lock, with a compare-and-swap on `state_version` and an atomic rename, so parallel hooks
// and commands never lose an update and a crash never leaves a torn file. Where the project keeps a
// journal of isdlc's writes, the trust layer above passes it in (StoreOptions.journal): every process
// opens the state through src/integrity/journaled-state.ts.
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { withLock, type LockOptions } from './lock.js';
import type { IsdlcState } from './schema.js';

/** How a write reaches a state file whose project keeps a journal of isdlc's writes. */
export interface StateJournal {
  /**
   * Under the state lock, before the state a write builds on is read: a state file someone else wrote is
   * put back first, so that no write builds on a forged state.
   */
  verify(file: string): unknown;
  /**
   * Whether the file as it was read (the stats of the open file; undefined when there was none) is the one
   * isdlc last wrote: false when someone replaced it between the check and the read. `expected`: what
   * verify returned (what the journal expects of the file, so that it is not read twice).
   */
  confirm(file: string, stats: Stats | undefined, expected: unknown): boolean;
  /** Writes `bytes` to `file` with `write`, recorded as isdlc's own. */
  record(file: string, bytes: Buffer, write: () => void): void;
}

export interface StoreOptions extends LockOptions {
  /** Without one, writes go straight to the file (a project with no journal, a test's bare file). */
  journal?: StateJournal;
}

export interface CorruptStateReport {
  file: string;
  keptAs: string;
  problem: string;
}

export interface StateSnapshot {
  /** null when there is no state file (or it was corrupt and has been set aside). */
  state: IsdlcState | null;
  version: number;
  corrupt?: CorruptStateReport;
  /** Identifies the file as read: every write replaces it with a new file (a new inode). */
  stamp?: string;
}

export class StateConflictError extends Error {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`state changed underneath: expected state_version ${expected}, found ${actual}; read it again`);
    this.name = 'StateConflictError';
  }
}

export interface UpdateOptions {
  /** Compare-and-swap: refuse the write unless the file is still at this version. */
  expectedVersion?: number;
  /**
   * A snapshot this process read moments ago: when the file has not changed since, it is used as the
   * draft instead of reading the file again (the snapshot object is changed in place).
   */
  basedOn?: StateSnapshot;
  /** Write even if the mutation changed nothing (skips the comparison, for callers that always change). */
  alwaysWrite?: boolean;
  lock?: LockOptions;
}

export interface UpdateResult<T> {
  written: boolean;
  state: IsdlcState;
  version: number;
  result: T;
  corrupt?: CorruptStateReport;
}

export function versionOf(state: IsdlcState | null): number {
  const version = state?.state_version;
  return typeof version === 'number' && Number.isFinite(version) && version >= 0 ? version : 0;
}

/** `stats`: of the file as read; undefined when it changed while it was read (a write in place). */
type RawRead = { kind: 'missing' } | { kind: 'ok'; state: IsdlcState; stamp: string; stats: Stats | undefined } | { kind: 'corrupt'; problem: string };

function stampOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

function readRaw(file: string): RawRead {
  let text: string;
  let stats: Stats;
  let settled = true;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    stats = fstatSync(fd);
    text = readFileSync(fd, 'utf8');
    const after = fstatSync(fd);
    if (after.ctimeMs !== stats.ctimeMs || after.size !== stats.size || after.mtimeMs !== stats.mtimeMs) settled = false;
  } finally {
    closeSync(fd);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { kind: 'corrupt', problem: `not valid JSON (${(error as Error).message})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { kind: 'corrupt', problem: `holds ${Array.isArray(parsed) ? 'an array' : String(parsed)}, not an object` };
  }
  return { kind: 'ok', state: parsed as IsdlcState, stamp: stampOf(stats), stats: settled ? stats : undefined };
}

/** How often a write looks again for a state file that is replaced while it reads, before it gives up. */
const READ_ATTEMPTS = 5;

/** The state file was replaced every time a write read it: someone outside isdlc is writing it. */
export class StateUnsettledError extends Error {
  constructor(file: string) {
    super(`${file} was replaced ${READ_ATTEMPTS} times while isdlc read it under its lock: something outside isdlc keeps writing it; nothing was written`);
    this.name = 'StateUnsettledError';
  }
}

function timestampForFileName(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

export class StateStore {
  private readonly lockOptions: LockOptions;
  private readonly journal: StateJournal | undefined;

  constructor(
    readonly file: string,
    options: StoreOptions = {},
  ) {
    const { journal, ...lockOptions } = options;
    this.journal = journal;
    this.lockOptions = lockOptions;
  }

  /**
   * One read, no lock. A corrupt file is set aside (under the lock) and reported; with `readOnly` it is
   * only reported.
   */
  read(options: { readOnly?: boolean } = {}): StateSnapshot {
    const raw = readRaw(this.file);
    if (raw.kind === 'missing') return { state: null, version: 0 };
    if (raw.kind === 'ok') return { state: raw.state, version: versionOf(raw.state), stamp: raw.stamp };
    if (options.readOnly) return { state: null, version: 0, corrupt: { file: this.file, keptAs: this.file, problem: raw.problem } };
    return withLock(this.file, () => this.readLocked(), this.lockOptions);
  }

  /**
   * Applies `mutate` to the newest state on disk and writes it back with `state_version` + 1, all under
   * the lock. Nothing is written when the mutation changes nothing.
   */
  update<T>(mutate: (draft: IsdlcState) => T, options: UpdateOptions = {}): UpdateResult<T> {
    mkdirSync(dirname(this.file), { recursive: true });
    return withLock(
      this.file,
      () => {
        const current = this.verifiedRead(options.basedOn);
        if (options.expectedVersion !== undefined && options.expectedVersion !== current.version) {
          throw new StateConflictError(options.expectedVersion, current.version);
        }
        const draft = current.state ?? {};
        const before = options.alwaysWrite ? undefined : JSON.stringify(draft);
        const result = mutate(draft);
        const extra = current.corrupt ? { corrupt: current.corrupt } : {};
        if (before !== undefined && JSON.stringify(draft) === before) {
          return { written: false, state: draft, version: current.version, result, ...extra };
        }
        const version = current.version + 1;
        draft.state_version = version;
        const bytes = Buffer.from(`${JSON.stringify(draft, null, 2)}\n`);
        if (this.journal) this.journal.record(this.file, bytes, () => writeFileAtomic(this.file, bytes));
        else writeFileAtomic(this.file, bytes);
        return { written: true, state: draft, version, result, ...extra };
      },
      options.lock ?? this.lockOptions,
    );
  }

  /**
   * Under the lock: the state to build on. A state someone else wrote is put back first (src/integrity/
   * tamper-check.ts); then what was read must be the file the journal vouches for, or a writer that swapped
   * the file between that check and the read would have its content built on and recorded as isdlc's.
   */
  private verifiedRead(basedOn: StateSnapshot | undefined): StateSnapshot {
    let reuse = basedOn;
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt += 1) {
      const expected = this.journal?.verify(this.file);
      const read = this.unchangedSince(reuse) ?? this.readLockedWithStats();
      if (!this.journal || this.journal.confirm(this.file, read.stats, expected)) return read.snapshot;
      reuse = undefined;
    }
    throw new StateUnsettledError(this.file);
  }

  /** The snapshot, when (under the lock) the file is still the one it was read from. */
  private unchangedSince(snapshot: StateSnapshot | undefined): { snapshot: StateSnapshot; stats: Stats } | undefined {
    if (!snapshot?.stamp || !snapshot.state) return undefined;
    try {
      const stats = statSync(this.file);
      return stampOf(stats) === snapshot.stamp ? { snapshot, stats } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Must run under the lock: setting a corrupt file aside must not race a writer replacing it. */
  private readLocked(): StateSnapshot {
    return this.readLockedWithStats().snapshot;
  }

  /** readLocked, with the stats of the file it read (none when it found none or set a corrupt one aside). */
  private readLockedWithStats(): { snapshot: StateSnapshot; stats?: Stats } {
    const raw = readRaw(this.file);
    if (raw.kind === 'missing') return { snapshot: { state: null, version: 0 } };
    if (raw.kind === 'ok') return { snapshot: { state: raw.state, version: versionOf(raw.state), stamp: raw.stamp }, stats: raw.stats };
    const keptAs = join(dirname(this.file), `${basename(this.file, '.json')}.corrupt-${timestampForFileName()}.json`);
    renameSync(this.file, keptAs);
    return { snapshot: { state: null, version: 0, corrupt: { file: this.file, keptAs, problem: raw.problem } } };
  }
}
