// The branch heads a shell command started from, kept from its PreToolUse to its PostToolUse. One small
// file per call, named by the host's tool-use id, so calls running side by side (a subagent's shell
// beside the main agent's) never share a file or a lock; the PostToolUse takes its file away.
// A `watch` file lists the workflow's branch, so the PreToolUse (which never reads state) knows it.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BranchHeads } from '../detect/git-refs.js';

/**
 * isdlc's own folder for this, inside `.isdlc/`: written at every shell call that carries a tool-use id
 * (one file created at PreToolUse, removed at PostToolUse), and `watch` whenever the workflow's branch
 * changes.
 */
export const BRANCH_HEADS_DIR = 'branch-heads';
const WATCH_FILE = 'watch';

/** A call whose PostToolUse never came (the person refused the command, the session ended): kept this long. */
const ORPHAN_MS = 24 * 60 * 60 * 1000;

export interface HeadsSnapshot {
  heads: BranchHeads;
  /** The repository the heads were read from (its common git dir). */
  repo: string;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

function callFile(isdlcDir: string, useId: string): string | null {
  return SAFE_ID.test(useId) ? join(isdlcDir, BRANCH_HEADS_DIR, `${useId}.json`) : null;
}

export function saveSnapshot(isdlcDir: string, useId: string, snapshot: HeadsSnapshot): void {
  const file = callFile(isdlcDir, useId);
  if (!file) return;
  const text = JSON.stringify(snapshot);
  try {
    writeFileSync(file, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(join(isdlcDir, BRANCH_HEADS_DIR), { recursive: true });
    writeFileSync(file, text);
  }
}

/** The snapshot the call's PreToolUse kept, removed as it is read; null when there is none. */
export function takeSnapshot(isdlcDir: string, useId: string, options: { keep?: boolean } = {}): HeadsSnapshot | null {
  const file = callFile(isdlcDir, useId);
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  if (!options.keep) rmSync(file, { force: true });
  try {
    const parsed = JSON.parse(text) as Partial<HeadsSnapshot>;
    if (typeof parsed.repo !== 'string' || typeof parsed.heads !== 'object' || parsed.heads === null) return null;
    return { repo: parsed.repo, heads: parsed.heads };
  } catch {
    return null;
  }
}

/** Branches to watch besides main and master (the workflow's). */
export function watchedBranches(isdlcDir: string): string[] {
  try {
    return readFileSync(join(isdlcDir, BRANCH_HEADS_DIR, WATCH_FILE), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

export function setWatchedBranches(isdlcDir: string, branches: string[]): void {
  mkdirSync(join(isdlcDir, BRANCH_HEADS_DIR), { recursive: true });
  writeFileSync(join(isdlcDir, BRANCH_HEADS_DIR, WATCH_FILE), branches.map((branch) => `${branch}\n`).join(''));
}

/** Removes the snapshots of calls that never finished; a session's start is often enough. */
export function pruneOrphans(isdlcDir: string, now: number): number {
  const dir = join(isdlcDir, BRANCH_HEADS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const stat = statSync(join(dir, name), { throwIfNoEntry: false });
    if (stat && now - stat.mtimeMs > ORPHAN_MS) {
      rmSync(join(dir, name), { force: true });
      removed += 1;
    }
  }
  return removed;
}
