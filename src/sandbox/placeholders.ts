// Empty folders that stand in, while sandboxed commands run, for guarded names missing directly in the
// project root (`.mcp.json`, `docs`, `.git` of a project outside git): bubblewrap needs something to mount
// on, and would otherwise make it itself and leave it behind. isdlc makes them, the sandbox mounts them
// read-only, and they go when the last run that uses them has ended. An empty folder is the mildest
// stand-in: git looks past an empty `.git`, and removing one with rmdir can never take anything a person
// put there.
//
// Runs overlap (a Stop and an MCP validation): a placeholder is removed only when no run that may have
// mounted it is left, because removing it would lift the mount inside that run's sandbox (Linux detaches a
// mount whose mount point goes away in another namespace). The runs are counted in `.isdlc/`, which the
// commands cannot write; a run whose process is gone no longer counts, and the next run takes away what it
// left behind.
import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processIsAlive } from '../state/lock.js';

export const PLACEHOLDER_REGISTRY = 'rule-sandbox.json';
const MUTEX = 'rule-sandbox.lock';
/** No holder keeps the mutex longer than a few file operations; an older one was left by a crash. */
const MUTEX_STALE_MS = 10_000;
const MUTEX_WAIT_MS = 5_000;

interface Run {
  pid: number;
  token: string;
}

export interface Registry {
  runs: Run[];
  /** Names in the root that isdlc made as placeholders and must take away. */
  placeholders: string[];
}

const sleepSync = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function withMutex<T>(isdlcDir: string, work: () => T): T {
  const file = join(isdlcDir, MUTEX);
  const until = Date.now() + MUTEX_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(file, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(file).mtimeMs > MUTEX_STALE_MS) unlinkSync(file);
      } catch {
        // gone meanwhile: try again
      }
      if (Date.now() > until) throw new Error(`${file} has been held for ${MUTEX_WAIT_MS / 1000} s by another isdlc process`, { cause: error });
      sleepSync(5);
    }
  }
  try {
    return work();
  } finally {
    try {
      unlinkSync(file);
    } catch {
      // already taken away as stale
    }
  }
}

export function parseRegistry(text: string | undefined): Registry {
  try {
    const value = JSON.parse(text ?? '') as Partial<Registry>;
    const runs = Array.isArray(value.runs) ? value.runs.filter((run): run is Run => typeof run?.pid === 'number' && typeof run.token === 'string') : [];
    const placeholders = Array.isArray(value.placeholders) ? value.placeholders.filter((name): name is string => typeof name === 'string') : [];
    return { runs, placeholders };
  } catch {
    return { runs: [], placeholders: [] };
  }
}

/** A name in the root, and only that: never a path that leads elsewhere. */
const plainName = (name: string): boolean => name !== '' && name !== '.' && name !== '..' && !/[/\\]/.test(name);

/**
 * The registry once `leaving` is gone and dead runs are dropped; when no run is left, the placeholders are
 * taken away (rmdir: only while empty) and forgotten.
 */
function settle(root: string, registry: Registry, leaving: string | undefined, alive: (pid: number) => boolean): Registry {
  const runs = registry.runs.filter((run) => run.token !== leaving && alive(run.pid));
  if (runs.length > 0) return { runs, placeholders: registry.placeholders };
  for (const name of registry.placeholders.filter(plainName)) {
    try {
      rmdirSync(join(root, name));
    } catch {
      // not empty, not a folder, or gone: not ours to remove any more
    }
  }
  return { runs, placeholders: [] };
}

function readRegistry(file: string): Registry {
  try {
    return parseRegistry(readFileSync(file, 'utf8'));
  } catch {
    return parseRegistry(undefined);
  }
}

function writeRegistry(file: string, registry: Registry): void {
  if (registry.runs.length === 0 && registry.placeholders.length === 0) {
    try {
      unlinkSync(file);
    } catch {
      // none to remove
    }
    return;
  }
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(registry)}\n`);
  renameSync(temporary, file);
}

export interface HeldPlaceholders {
  release(): void;
}

/**
 * Makes sure each of `names` exists in `root` (an empty folder where nothing was) and counts this run as
 * one that uses them, until `release`. Throws when `.isdlc/` cannot be written.
 */
export function holdPlaceholders(isdlcDir: string, root: string, names: readonly string[], alive: (pid: number) => boolean = processIsAlive): HeldPlaceholders {
  if (names.length === 0) return { release() {} };
  const file = join(isdlcDir, PLACEHOLDER_REGISTRY);
  const token = randomBytes(6).toString('hex');
  withMutex(isdlcDir, () => {
    const registry = settle(root, readRegistry(file), undefined, alive);
    for (const name of names.filter(plainName)) {
      const path = join(root, name);
      let present = true;
      try {
        lstatSync(path);
      } catch {
        present = false;
      }
      if (present) continue;
      mkdirSync(path);
      if (!registry.placeholders.includes(name)) registry.placeholders.push(name);
    }
    registry.runs.push({ pid: process.pid, token });
    writeRegistry(file, registry);
  });
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      withMutex(isdlcDir, () => writeRegistry(file, settle(root, readRegistry(file), token, alive)));
    },
  };
}
