// Which Codex isdlc goes by: `--codex-version`, else what `codex --version` prints, else the newest isdlc
// knows. Hooks run from 0.124; permission profiles, which make isdlc's files read-only to the agent, from 0.145.
import { spawnSync } from 'node:child_process';
import { InstallError } from '../../install/host-setup.js';

export const CODEX_VERSIONS = { hooksFrom: '0.124.0', wallFrom: '0.145.0', newest: '0.171.0' } as const;

const VERSION = /(\d+)\.(\d+)\.(\d+)/;

export function isCodexVersion(text: string): boolean {
  return /^\d+\.\d+\.\d+$/.test(text.trim());
}

export function compareVersions(a: string, b: string): number {
  const pa = VERSION.exec(a)!.slice(1).map(Number);
  const pb = VERSION.exec(b)!.slice(1).map(Number);
  for (let i = 0; i < 3; i += 1) if (pa[i]! !== pb[i]!) return pa[i]! - pb[i]!;
  return 0;
}

/** What `codex --version` prints ("codex-cli 0.171.0"), as a version; undefined when no codex answers. */
export function installedCodexVersion(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const run = spawnSync('codex', ['--version'], { encoding: 'utf8', env, timeout: 10_000 });
  if (run.status !== 0) return undefined;
  return VERSION.exec(run.stdout)?.[0];
}

export interface CodexTarget {
  version: string;
  from: 'flag' | 'installed' | 'assumed';
  /** The version's sandbox can hold isdlc's files read-only (permission profiles). */
  wall: boolean;
}

/** The version init registers for; refuses one that runs no hooks. */
export function codexTarget(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): CodexTarget {
  const installed = flag ? undefined : installedCodexVersion(env);
  const version = flag?.trim() ?? installed ?? CODEX_VERSIONS.newest;
  const from = flag ? 'flag' : installed ? 'installed' : 'assumed';
  if (compareVersions(version, CODEX_VERSIONS.hooksFrom) < 0) {
    throw new InstallError(
      `Codex ${version} runs no project hooks (they came in ${CODEX_VERSIONS.hooksFrom}): upgrade Codex (npm i -g @openai/codex), then run init again; isdlc changed nothing`,
    );
  }
  return { version, from, wall: compareVersions(version, CODEX_VERSIONS.wallFrom) >= 0 };
}
