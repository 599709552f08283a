// What the project's files hold, as one digest: the tree git would commit if everything were added, made
// with a copy of the index so that the person's staging is left as it was. Two test runs with the same
// digest ran on the same files. isdlc's own folder is left out: the hooks write it at every call.
import type * as ChildProcess from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { cleanGitArgs, cleanGitEnv, gitProgram } from './clean-git.js';

const TIMEOUT_MS = 10_000;

function childProcess(): typeof ChildProcess {
  return process.getBuiltinModule('node:child_process');
}

/** The digest of the files under `root` (git's tree id), or undefined where git cannot say (no repository, no git). */
export function worktreeDigest(root: string): string | undefined {
  const run = (args: string[], env: NodeJS.ProcessEnv): string | undefined => {
    const result = childProcess().spawnSync(gitProgram(root), cleanGitArgs(root, args), {
      encoding: 'utf8',
      env,
      timeout: TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
    });
    return result.status === 0 ? result.stdout.trim() : undefined;
  };
  const env = cleanGitEnv(process.env);
  const indexPath = run(['rev-parse', '--git-path', 'index'], env);
  if (!indexPath) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-tree-'));
  try {
    const index = join(dir, 'index');
    try {
      // A copy keeps git's record of what it already hashed: only changed files are read again.
      copyFileSync(isAbsolute(indexPath) ? indexPath : join(root, indexPath), index);
    } catch {
      // a repository with nothing staged yet has no index: git makes one
    }
    const own = { ...env, GIT_INDEX_FILE: index };
    if (run(['add', '--all', '--', '.', ':(exclude).isdlc'], own) === undefined) return undefined;
    return run(['write-tree'], own);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
