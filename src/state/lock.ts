// An inter-process lock beside a file: `<file>.lock`, created exclusively. A holder that died (its pid
// is gone on this host) or that held it far too long is set aside at once, so a writer killed with
// SIGKILL never wedges the others; so is a lock whose content cannot be a real holder's (unreadable, or
// dated in the future), so that a lock file someone wrote by hand cannot keep every writer out. Every
// such takeover is reported: a lock set aside is either a crash or someone jamming the workflow, and
// either is worth a line in the log.
import { closeSync, fstatSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeSync } from 'node:fs';

export interface LockOptions {
  /** How long to wait for a live holder before giving up. */
  timeoutMs?: number;
  /** A lock older than this is abandoned whoever holds it (a hung process, another host). */
  staleMs?: number;
  /** Told of every lock this acquisition set aside, and why. */
  onTakeover?: (takeover: LockTakeover) => void;
}

/** A lock file set aside as abandoned. */
export interface LockTakeover {
  file: string;
  /** `dead holder pid N`, `dated in the future`, `older than the stale bound` or `unreadable`. */
  why: string;
  /** Who the lock said held it (as it said it: an agent may have written it), when it said so readably. */
  holder?: { pid: number; host: string; at: number };
}

/** The takeover in one line, for a person. */
export function describeLockTakeover(takeover: LockTakeover): string {
  const holder = takeover.holder ? `; it named pid ${takeover.holder.pid}${takeover.holder.host ? ` on ${takeover.holder.host}` : ''}` : '';
  return `set aside the lock ${takeover.file} (${takeover.why}${holder}) and went on`;
}

let processReporter: ((takeover: LockTakeover) => void) | undefined;

/**
 * Tells `report` of every takeover in this process, whichever caller's lock it was: for a command-line
 * process, which says it on stderr. The hook does not set one; it logs what its own state store saw.
 */
export function reportLockTakeovers(report: ((takeover: LockTakeover) => void) | undefined): void {
  processReporter = report;
}

interface Holder {
  pid: number;
  host: string;
  nonce: string;
  at: number;
}

export class LockTimeoutError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: Holder | null,
  ) {
    super(`could not lock ${lockFile} in time` + (holder ? `: held by pid ${holder.pid} on ${holder.host} since ${new Date(holder.at).toISOString()}` : ''));
    this.name = 'LockTimeoutError';
  }
}

let sleeper: Int32Array | undefined;
function sleepMs(ms: number): void {
  sleeper ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(sleeper, 0, 0, ms);
}

let cachedHost: string | undefined;
function thisHost(): string {
  // node:os on first use: the hook bundles load it for nothing else (about 1.8 million instructions).
  cachedHost ??= process.getBuiltinModule('node:os').hostname();
  return cachedHost;
}

function readHolder(file: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.nonce !== 'string') return null;
    return { pid: parsed.pid, host: String(parsed.host ?? ''), nonce: parsed.nonce, at: Number(parsed.at ?? 0) };
  } catch {
    return null;
  }
}

/** Whether a process with this pid exists on this host (one we may not signal counts). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A clock skew between hosts sharing a folder that still counts as "now". */
const SKEW_MS = 60_000;

/**
 * Why a lock someone holds may be set aside, or undefined when it may not: too old (by the time it names,
 * or by the file's own age, which the content cannot vouch for), dated in the future (no honest holder
 * writes that), or held by a process that is gone on this host. A lock file is something an agent can
 * write too: what it says about itself must not keep every writer out.
 */
function abandonedBecause(holder: Holder, staleMs: number, fileAgeMs: number | undefined): string | undefined {
  const now = Date.now();
  if (!Number.isFinite(holder.at)) return 'unreadable';
  if (holder.at > now + SKEW_MS) return 'dated in the future';
  if (now - holder.at > staleMs || (fileAgeMs !== undefined && fileAgeMs > staleMs)) return 'older than the stale bound';
  return holder.host === thisHost() && !processIsAlive(holder.pid) ? `dead holder pid ${holder.pid}` : undefined;
}

/** How long ago the lock file was last written, or undefined when it is gone. */
function fileAge(file: string): number | undefined {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * A lock file without a readable holder: empty (its creator died between create and write) or holding
 * something that is not a holder record. Given a second for a creator still writing it, it is stale.
 */
function isUnreadableAndOld(file: string): boolean {
  const age = fileAge(file);
  return age !== undefined && age > 1000;
}

/** Sets the lock aside; false when there was nothing of the one judged to set aside after all. */
function breakLock(lockFile: string, seen: Holder | null, myNonce: string): boolean {
  const aside = `${lockFile}.${myNonce}.abandoned`;
  try {
    renameSync(lockFile, aside);
  } catch {
    return false; // someone else cleared it first
  }
  const moved = readHolder(aside);
  const replaced = seen !== null && moved !== null && moved.nonce !== seen.nonce;
  if (replaced) {
    // Between our look and our rename a live process took the lock: give it back unless it is taken again.
    try {
      linkSync(aside, lockFile);
    } catch {
      /* taken again already */
    }
  }
  rmSync(aside, { force: true });
  return !replaced;
}

export interface HeldLock {
  release(): void;
}

export function acquireLock(target: string, options: LockOptions = {}): HeldLock {
  const lockFile = `${target}.lock`;
  const timeoutMs = options.timeoutMs ?? 5000;
  const staleMs = options.staleMs ?? 30_000;
  // Not node:crypto: loading it costs more than a whole hook call should (measured ~20 ms).
  const nonce = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const deadline = Date.now() + timeoutMs;
  let pause = 1;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx', 0o644);
      let ino: number;
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: thisHost(), nonce, at: Date.now() }));
        ino = fstatSync(fd).ino;
      } finally {
        closeSync(fd);
      }
      return { release: () => releaseLock(lockFile, ino) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(lockFile);
    const why = holder ? abandonedBecause(holder, staleMs, fileAge(lockFile)) : isUnreadableAndOld(lockFile) ? 'unreadable' : undefined;
    if (why) {
      if (breakLock(lockFile, holder, nonce)) {
        const takeover: LockTakeover = { file: lockFile, why, ...(holder ? { holder: { pid: holder.pid, host: holder.host, at: holder.at } } : {}) };
        options.onTakeover?.(takeover);
        processReporter?.(takeover);
      }
      continue;
    }
    if (Date.now() >= deadline) throw new LockTimeoutError(lockFile, holder);
    sleepMs(pause + Math.random() * pause);
    pause = Math.min(pause * 2, 25);
  }
}

function releaseLock(lockFile: string, ino: number): void {
  // Only remove the lock if it is still the file we created; if it was judged abandoned and taken, leave
  // the new one.
  if (statSync(lockFile, { throwIfNoEntry: false })?.ino !== ino) return;
  try {
    unlinkSync(lockFile); // not rmSync: that one walks a directory-removal path first
  } catch {
    // already gone
  }
}

export function withLock<T>(target: string, work: () => T, options?: LockOptions): T {
  const lock = acquireLock(target, options);
  try {
    return work();
  } finally {
    lock.release();
  }
}
