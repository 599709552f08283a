// What the installers of pinned hosts (Claude Code, Codex) share: a cache folder the suite owns, outside
// node_modules (which `npm ci` deletes), tarballs fetched with `npm pack` (which checks them against the
// registry's integrity, and runs none of the package's scripts), and a lock so parallel test files
// install a version once.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const LOCK_STALE_MS = 10 * 60_000;

/** `$XDG_CACHE_HOME/isdlc/<name>` (`~/.cache/isdlc/<name>`), or the folder `override` names. */
export function suiteCache(name: string, override?: string): string {
  return override || join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'isdlc', name);
}

/** `npm pack SPEC` into `dir`, unpacked into `dir/package` (but what `exclude` names); returns that folder. */
export function fetchPackage(spec: string, dir: string, exclude: string[] = []): string {
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', spec, '--pack-destination', dir, '--json', '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 5 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(out) as { filename: string }[];
  if (!packed) throw new Error(`npm pack ${spec} printed no file`);
  execFileSync('tar', ['xzf', join(dir, packed.filename), '-C', dir, ...exclude.map((pattern) => `--exclude=${pattern}`)]);
  rmSync(join(dir, packed.filename));
  return join(dir, 'package');
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * What `ready()` finds, else what `install()` makes, run by one worker at a time: test files run in
 * parallel workers, one installs under a lock folder in `cache`, the others wait for it. A lock older
 * than ten minutes is taken for a crashed worker's.
 */
export function installOnce<T>(cache: string, key: string, ready: () => T | undefined, install: () => T): T {
  const done = ready();
  if (done) return done;
  mkdirSync(cache, { recursive: true });
  const lock = join(cache, `.lock-${key}`);
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const installed = ready();
      if (installed) return installed;
      let age: number;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`waited too long for another worker to install ${key}`);
      else sleep(500);
    }
  }
  try {
    return ready() ?? install();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
