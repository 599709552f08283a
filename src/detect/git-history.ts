// What a branch gained between two heads, asked of git only once a head is known to have moved.
import { git } from './git-branch.js';
import { OBJECT_ID } from './git-refs.js';

export interface GainedCommit {
  sha: string;
  subject: string;
}

export interface Gain {
  /** The newest first, at most LISTED of them. */
  commits: GainedCommit[];
  total: number;
}

const LISTED = 10;

/**
 * The commits reachable from `to` but not from `from`: none for a branch moved back (a reset), null when
 * git cannot tell (no git, an object it does not have).
 */
export function commitsGained(repoTop: string, from: string, to: string): Gain | null {
  // Both come from files an agent could write: only object ids reach git's command line, never an option.
  if (!OBJECT_ID.test(from) || !OBJECT_ID.test(to)) return null;
  const range = `${from}..${to}`;
  const log = git(repoTop, ['log', '--no-color', `--max-count=${LISTED}`, '--format=%H%x09%s', range, '--']);
  if (log === null) return null;
  const commits = log
    .split('\n')
    .filter(Boolean)
    .map((line) => ({ sha: line.slice(0, line.indexOf('\t')), subject: line.slice(line.indexOf('\t') + 1) }));
  if (commits.length < LISTED) return { commits, total: commits.length };
  const count = Number(git(repoTop, ['rev-list', '--count', range, '--']));
  return { commits, total: Number.isFinite(count) && count > 0 ? count : commits.length };
}

/**
 * Whether `sha` is already on a remote-tracking branch: commits fetched from elsewhere (a `git pull` of
 * main), not made in this working copy.
 */
export function onRemoteBranch(repoTop: string, sha: string): boolean {
  if (!OBJECT_ID.test(sha)) return false;
  const found = git(repoTop, ['for-each-ref', '--count=1', `--contains=${sha}`, '--format=%(refname)', 'refs/remotes/']);
  return found !== null && found.trim() !== '';
}
