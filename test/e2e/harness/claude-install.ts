// Puts a pinned Claude Code version in a cache folder the suite owns, straight from the npm registry, so
// a clean clone needs nothing installed by hand. Recent versions ship a native binary in a platform
// package (`@anthropic-ai/claude-code-linux-x64`); older ones are one JavaScript file run by Node.
// Nothing of the package's own install scripts runs: the tarballs are fetched with `npm pack` (which
// checks them against the registry's integrity) and unpacked here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchPackage, installOnce, suiteCache } from './pinned-cache.js';

export interface ClaudeLauncher {
  version: string;
  /** What to start: the native binary, or node with the JavaScript CLI as its first argument. */
  command: string;
  args: string[];
}

/** The three versions are some 650 MB: kept across `npm ci`, fetched once. */
const CACHE = suiteCache('claude-code', process.env['ISDLC_E2E_CACHE']);

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

/** The launcher of a pinned version, installing it first if the cache lacks it. */
export function ensureClaudeCode(version: string): ClaudeLauncher {
  return installOnce(
    CACHE,
    version,
    () => readLauncher(version),
    () => {
      const launcher = install(version);
      const check = spawnSync(launcher.command, [...launcher.args, '--version'], { encoding: 'utf8', timeout: 60_000 });
      if (!check.stdout.startsWith(version))
        throw new Error(`Claude Code ${version} does not run here: ${check.stdout}${check.stderr}${check.error?.message ?? ''}`);
      return launcher;
    },
  );
}
