// Asking git which branch is checked out: an argument vector (no shell), a timeout, null for any
// failure (no git, not a repository, a detached HEAD), so a git problem never blocks a tool call, and no
// program of the configuration's choosing run (clean-git.ts).
import type * as ChildProcess from 'node:child_process';
import { cleanGitArgs, cleanGitEnv, gitProgram } from './clean-git.js';

const TIMEOUT_MS = 3000;

/** Loaded on first use: node:child_process costs about 2 ms to load, and most tool calls never need git. */
function childProcess(): typeof ChildProcess {
  return process.getBuiltinModule('node:child_process');
}

/** git's answer, trimmed, or null for any failure. */
export function git(dir: string, args: string[]): string | null {
  try {
    return childProcess()
      .execFileSync(gitProgram(dir), cleanGitArgs(dir, args), {
        encoding: 'utf8',
        env: cleanGitEnv(process.env),
        timeout: TIMEOUT_MS,
        stdio: ['ignore', 'pipe', 'ignore'],
        windowsHide: true,
      })
      .trim();
  } catch {
    return null;
  }
}

/** The checked-out branch; works in a repository with no commit yet. */
export function currentBranch(dir: string): string | null {
  return git(dir, ['symbolic-ref', '--short', '-q', 'HEAD']) || null;
}

export function branchExists(dir: string, name: string): boolean {
  return git(dir, ['rev-parse', '--verify', '-q', `refs/heads/${name}`]) !== null;
}
