// Branch heads read straight from a repository's files (loose refs, `packed-refs`, a worktree's
// `gitdir:` link), because starting git costs milliseconds and this runs around every shell command.
// Git itself is asked only where its files cannot be read this way (the reftable format).
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { git } from './git-branch.js';
import { readTextQuietly } from '../util/read-text.js';

export interface GitDirs {
  /** The folder that holds the work tree's `.git` (the repository's top level). */
  top: string;
  /** This work tree's own git dir: its HEAD lives here. */
  gitDir: string;
  /** Where branches live: the main repository's git dir, shared by every work tree. */
  commonDir: string;
}

/** Heads by branch name; null for a branch that does not exist. */
export type BranchHeads = Record<string, string | null>;

/** SHA-1 or SHA-256, in full: nothing else is ever handed on to git. */
export const OBJECT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The repository holding `start`, found the way git finds it (the nearest `.git` above), or null. */
export function findGitDirs(start: string): GitDirs | null {
  let dir = resolve(start);
  for (;;) {
    const dotGit = join(dir, '.git');
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    // As git itself judges: a folder named .git without a HEAD is no repository (an agent host's sandbox
    // makes empty ones as mount points), and the search goes on above it.
    if (stat?.isDirectory() && statSync(join(dotGit, 'HEAD'), { throwIfNoEntry: false })) return { top: dir, gitDir: dotGit, commonDir: commonDirOf(dotGit) };
    if (stat?.isFile()) {
      // A linked work tree or a submodule: `.git` is a file naming the real git dir.
      const link = /^gitdir:\s*(.+?)\s*$/m.exec(readTextQuietly(dotGit) ?? '')?.[1];
      if (!link) return null;
      const gitDir = isAbsolute(link) ? link : resolve(dir, link);
      return { top: dir, gitDir, commonDir: commonDirOf(gitDir) };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function commonDirOf(gitDir: string): string {
  const common = readTextQuietly(join(gitDir, 'commondir'))?.trim();
  if (!common) return gitDir;
  return isAbsolute(common) ? common : resolve(gitDir, common);
}

/** The branch HEAD points at in this work tree; null when detached or unreadable. */
export function checkedOutBranch(dirs: GitDirs): string | null {
  let head: string | undefined;
  try {
    // Every git dir has a HEAD: read it without asking first.
    head = readFileSync(join(dirs.gitDir, 'HEAD'), 'utf8');
  } catch {
    return null;
  }
  const match = head ? /^ref:\s*refs\/heads\/(.+?)\s*$/.exec(head) : null;
  return match?.[1] ?? null;
}

/** A repository in the reftable format keeps no ref files to read. */
function usesReftable(dirs: GitDirs): boolean {
  return statSync(join(dirs.commonDir, 'reftable'), { throwIfNoEntry: false })?.isDirectory() === true;
}

function packedHeads(dirs: GitDirs): Map<string, string> {
  const heads = new Map<string, string>();
  const text = readTextQuietly(join(dirs.commonDir, 'packed-refs'));
  if (!text) return heads;
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0 || line.startsWith('#') || line.startsWith('^')) continue;
    const name = line.slice(space + 1).trim();
    const id = line.slice(0, space);
    if (name.startsWith('refs/heads/') && OBJECT_ID.test(id)) heads.set(name.slice('refs/heads/'.length), id);
  }
  return heads;
}

/** A loose ref's object id; a symbolic ref is followed a few steps. undefined: no loose file. */
function looseHead(dirs: GitDirs, branch: string, depth = 0): string | null | undefined {
  const text = readTextQuietly(join(dirs.commonDir, 'refs', 'heads', branch))?.trim();
  if (text === undefined) return undefined;
  if (OBJECT_ID.test(text)) return text;
  const target = /^ref:\s*refs\/heads\/(.+)$/.exec(text)?.[1];
  return target && depth < 3 ? (looseHead(dirs, target, depth + 1) ?? null) : null;
}

/** The heads of `branches`, as they are now. */
export function readBranchHeads(dirs: GitDirs, branches: readonly string[]): BranchHeads {
  if (usesReftable(dirs)) return headsFromGit(dirs, branches);
  const heads: BranchHeads = {};
  let packed: Map<string, string> | undefined;
  for (const branch of branches) {
    // A name that climbs out of refs/heads is not a branch; never read what it points at.
    if (!isBranchName(branch)) continue;
    const loose = looseHead(dirs, branch);
    if (loose !== undefined) heads[branch] = loose;
    else heads[branch] = (packed ??= packedHeads(dirs)).get(branch) ?? null;
  }
  return heads;
}

function headsFromGit(dirs: GitDirs, branches: readonly string[]): BranchHeads {
  const heads: BranchHeads = {};
  const names = branches.filter(isBranchName);
  const out = git(dirs.top, ['for-each-ref', '--format=%(objectname) %(refname)', ...names.map((name) => `refs/heads/${name}`)]) ?? '';
  const found = new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(line.indexOf(' ') + 1), line.slice(0, line.indexOf(' '))]),
  );
  for (const name of names) {
    const id = found.get(`refs/heads/${name}`);
    heads[name] = id && OBJECT_ID.test(id) ? id : null;
  }
  return heads;
}

export function isBranchName(name: string): boolean {
  return name !== '' && !name.startsWith('/') && !name.split('/').some((part) => part === '' || part === '.' || part === '..') && !/[\s~^:?*[\\]/.test(name);
}
