// Puts a pinned OpenAI Codex CLI in the suite's cache, straight from the npm registry, so a clean clone
// needs nothing installed by hand. `@openai/codex` itself is a small Node launcher; the native binary
// comes in the platform package its `optionalDependencies` name (`@openai/codex-linux-x64`, an alias of
// `@openai/codex@<version>-linux-x64`), with the bubblewrap and ripgrep it bundles. Only that package is
// unpacked (without its voice runtime, some 50 MB nothing here uses), and the binary is run directly.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fetchPackage, installOnce, suiteCache } from './pinned-cache.js';

export interface CodexBinary {
  version: string;
  /** The native `codex` executable. */
  command: string;
}

/** Each version is some 400 MB unpacked: kept across `npm ci`, fetched once. */
export const CODEX_CACHE = suiteCache('codex', process.env['ISDLC_E2E_CODEX_CACHE']);

/** The name `@openai/codex`'s launcher looks the binary's package up by, for this machine. */
function platformAlias(): string {
  const os = process.platform === 'linux' || process.platform === 'darwin' || process.platform === 'win32' ? process.platform : undefined;
  const arch = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : undefined;
  if (!os || !arch) throw new Error(`no Codex build for ${process.platform}-${process.arch}`);
  return `@openai/codex-${os}-${arch}`;
}

/** `npm:@openai/codex@0.171.0-linux-x64` → `@openai/codex@0.171.0-linux-x64`. */
function platformSpec(version: string, main: string): string {
  const manifest = JSON.parse(readFileSync(join(main, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
  const target = manifest.optionalDependencies?.[platformAlias()];
  if (!target) throw new Error(`@openai/codex@${version} names no ${platformAlias()}`);
  return target.replace(/^npm:/, '');
}

/** The one `vendor/<target triple>/` folder of a platform package, and its entry point. */
function binaryIn(pkg: string): string {
  const vendor = join(pkg, 'vendor');
  for (const triple of existsSync(vendor) ? readdirSync(vendor) : []) {
    const layout = join(vendor, triple, 'codex-package.json');
    const entry = existsSync(layout) ? (JSON.parse(readFileSync(layout, 'utf8')) as { entrypoint?: string }).entrypoint : undefined;
    const binary = join(vendor, triple, entry ?? join('bin', process.platform === 'win32' ? 'codex.exe' : 'codex'));
    if (existsSync(binary)) return binary;
  }
  throw new Error(`no codex binary under ${vendor}`);
}

const recordFile = (version: string): string => join(CODEX_CACHE, version, 'binary.json');

function readBinary(version: string): CodexBinary | undefined {
  try {
    const { file } = JSON.parse(readFileSync(recordFile(version), 'utf8')) as { file?: unknown };
    if (typeof file !== 'string') return undefined;
    const command = join(CODEX_CACHE, version, file);
    return existsSync(command) ? { version, command } : undefined;
  } catch {
    return undefined;
  }
}

function install(version: string): CodexBinary {
  const staging = mkdtempSync(join(CODEX_CACHE, `.staging-${version}-`));
  try {
    const main = fetchPackage(`@openai/codex@${version}`, join(staging, 'main'));
    const native = fetchPackage(platformSpec(version, main), join(staging, 'native'), ['*/codex-resources/voice/*']);
    // Relative to the version's folder, so the cache can move.
    const file = binaryIn(native).slice(staging.length + 1);
    rmSync(join(staging, 'main'), { recursive: true, force: true });
    writeFileSync(join(staging, 'binary.json'), JSON.stringify({ file }));
    rmSync(join(CODEX_CACHE, version), { recursive: true, force: true });
    renameSync(staging, join(CODEX_CACHE, version));
    return { version, command: join(CODEX_CACHE, version, file) };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** The binary of a pinned Codex version, installing it first if the cache lacks it. */
export function ensureCodex(version: string): CodexBinary {
  return installOnce(
    CODEX_CACHE,
    version,
    () => readBinary(version),
    () => {
      const binary = install(version);
      const check = spawnSync(binary.command, ['--version'], { encoding: 'utf8', timeout: 60_000 });
      if (check.stdout.trim() !== `codex-cli ${version}`)
        throw new Error(`Codex ${version} does not run here: ${check.stdout}${check.stderr}${check.error?.message ?? ''}`);
      return binary;
    },
  );
}
