// Puts a pinned Claude Code version in a cache folder the suite owns, straight from the npm registry, so
// a clean clone needs nothing installed by hand. Recent versions ship a native binary in a platform
// package (`@anthropic-ai/claude-code-linux-x64`); older ones are one JavaScript file run by Node.
// Nothing of the package's own install scripts runs: the tarballs are fetched with `npm pack` (which
// checks them against the registry's integrity) and unpacked here.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ClaudeLauncher {
  version: string;
  /** What to start: the native binary, or node with the JavaScript CLI as its first argument. */
  command: string;
  args: string[];
}

/** Outside node_modules, which `npm ci` deletes: each run would download Claude Code again (some 650 MB). */
const CACHE = process.env['ISDLC_E2E_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'isdlc', 'claude-code');
const LOCK_STALE_MS = 10 * 60_000;

function platformPackage(): string {
  const arch = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : undefined;
  if (!arch) throw new Error(`no Claude Code build for ${process.platform}-${process.arch}`);
  if (process.platform === 'linux') {
    const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
    return `@anthropic-ai/claude-code-linux-${arch}${glibc ? '' : '-musl'}`;
  }
  if (process.platform === 'darwin') return `@anthropic-ai/claude-code-darwin-${arch}`;
  if (process.platform === 'win32') return `@anthropic-ai/claude-code-win32-${arch}`;
  throw new Error(`no Claude Code build for ${process.platform}`);
}

/** `npm pack SPEC` into `dir`, unpacked into `dir/package`; returns that folder. */
function fetchPackage(spec: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', spec, '--pack-destination', dir, '--json', '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 5 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const [packed] = JSON.parse(out) as { filename: string }[];
  if (!packed) throw new Error(`npm pack ${spec} printed no file`);
  execFileSync('tar', ['xzf', join(dir, packed.filename), '-C', dir]);
  rmSync(join(dir, packed.filename));
  return join(dir, 'package');
}

function launcherFile(version: string): string {
  return join(CACHE, version, 'launcher.json');
}

/** What launcher.json records: the program inside the version's folder, so the cache can move. */
interface Recorded {
  /** A JavaScript CLI run by the Node running the suite, or a native binary. */
  kind: 'js' | 'native';
  /** Relative to the version's folder. */
  file: string;
}

function launcherOf(version: string, recorded: Recorded): ClaudeLauncher {
  const file = join(CACHE, version, recorded.file);
  return recorded.kind === 'js' ? { version, command: process.execPath, args: [file] } : { version, command: file, args: [] };
}

function readLauncher(version: string): ClaudeLauncher | undefined {
  try {
    const recorded = JSON.parse(readFileSync(launcherFile(version), 'utf8')) as Partial<Recorded>;
    if ((recorded.kind !== 'js' && recorded.kind !== 'native') || typeof recorded.file !== 'string') return undefined; // an older record: install again
    const launcher = launcherOf(version, recorded as Recorded);
    return existsSync(recorded.kind === 'js' ? launcher.args[0]! : launcher.command) ? launcher : undefined;
  } catch {
    return undefined;
  }
}

function install(version: string): ClaudeLauncher {
  const staging = mkdtempSync(join(CACHE, `.staging-${version}-`));
  try {
    const main = fetchPackage(`@anthropic-ai/claude-code@${version}`, join(staging, 'main'));
    let recorded: Recorded;
    if (existsSync(join(main, 'cli.js'))) {
      recorded = { kind: 'js', file: join('main', 'package', 'cli.js') };
    } else {
      const native = fetchPackage(`${platformPackage()}@${version}`, join(staging, 'native'));
      const binary = process.platform === 'win32' ? 'claude.exe' : 'claude';
      if (!existsSync(join(native, binary))) throw new Error(`${platformPackage()}@${version} holds no ${binary}`);
      recorded = { kind: 'native', file: join('native', 'package', binary) };
    }
    writeFileSync(join(staging, 'launcher.json'), JSON.stringify(recorded));
    rmSync(join(CACHE, version), { recursive: true, force: true });
    renameSync(staging, join(CACHE, version));
    return launcherOf(version, recorded);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The launcher of a pinned version, installing it first if the cache lacks it. Test files run in
 * parallel workers: one installs under a lock folder, the others wait for it.
 */
export function ensureClaudeCode(version: string): ClaudeLauncher {
  const ready = readLauncher(version);
  if (ready) return ready;
  mkdirSync(CACHE, { recursive: true });
  const lock = join(CACHE, `.lock-${version}`);
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const done = readLauncher(version);
      if (done) return done;
      let age: number;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`waited too long for another worker to install Claude Code ${version}`);
      else sleep(500);
    }
  }
  try {
    const done = readLauncher(version);
    if (done) return done;
    const launcher = install(version);
    const check = spawnSync(launcher.command, [...launcher.args, '--version'], { encoding: 'utf8', timeout: 60_000 });
    if (!check.stdout.startsWith(version))
      throw new Error(`Claude Code ${version} does not run here: ${check.stdout}${check.stderr}${check.error?.message ?? ''}`);
    return launcher;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
