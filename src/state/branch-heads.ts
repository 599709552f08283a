// The branch heads a shell command started from, kept from its PreToolUse to its PostToolUse. Calls can
// run side by side (a subagent's shell beside the main agent's), so each keeps its own heads, as one line
// appended to a log under the host's tool-use id: an append is one cheap write that concurrent writers
// cannot interleave, where creating and removing a file per call costs about a millisecond on ext4.
// A `watch` file lists the workflow's branch, so the PreToolUse (which never reads state) knows it.
import { appendFileSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTextQuietly } from '../util/read-text.js';

/**
 * isdlc's own folder for this, inside `.isdlc/`. `calls.log` gains a line at every shell call's
 * PreToolUse (about 200 bytes) and is moved to `calls.log.1` past ROTATE_BYTES; `watch` is rewritten
 * only when the workflow's branch changes.
 */
export const BRANCH_HEADS_DIR = 'branch-heads';
const LOG = 'calls.log';
const OLD_LOG = 'calls.log.1';
const WATCH_FILE = 'watch';
/** About 300 calls: a command running longer than the next 300 calls loses its heads (and is not compared). */
const ROTATE_BYTES = 64 * 1024;

export interface HeadsSnapshot {
  heads: Record<string, string | null>;
  /** The repository the heads were read from (its common git dir). */
  repo: string;
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function saveSnapshot(isdlcDir: string, useId: string, snapshot: HeadsSnapshot): void {
  if (!SAFE_ID.test(useId)) return;
  const line = `${useId}\t${JSON.stringify(snapshot)}\n`;
  const dir = join(isdlcDir, BRANCH_HEADS_DIR);
  try {
    appendFileSync(join(dir, LOG), line);
  } catch (error) {
    // Only the first call in a project gets here.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, LOG), line);
  }
}

function findIn(file: string, useId: string): HeadsSnapshot | null | undefined {
  const text = readTextQuietly(file);
  if (text === undefined) return undefined;
  // Only at a line's start: the id is the line's first field.
  const lines = `\n${text}`;
  const key = `\n${useId}\t`;
  const at = lines.lastIndexOf(key);
  if (at < 0) return undefined;
  const end = lines.indexOf('\n', at + key.length);
  try {
    const parsed = JSON.parse(lines.slice(at + key.length, end < 0 ? undefined : end)) as Partial<HeadsSnapshot>;
    if (typeof parsed.repo !== 'string' || typeof parsed.heads !== 'object' || parsed.heads === null) return null;
    return { repo: parsed.repo, heads: parsed.heads };
  } catch {
    return null;
  }
}

/** The heads the call's PreToolUse kept; null when there are none (no PreToolUse, or rotated out). */
export function findSnapshot(isdlcDir: string, useId: string): HeadsSnapshot | null {
  if (!SAFE_ID.test(useId)) return null;
  const dir = join(isdlcDir, BRANCH_HEADS_DIR);
  return findIn(join(dir, LOG), useId) ?? findIn(join(dir, OLD_LOG), useId) ?? null;
}

/** Starts a new log once this one is long enough; the previous one is still searched. */
export function rotateIfLong(isdlcDir: string): void {
  const file = join(isdlcDir, BRANCH_HEADS_DIR, LOG);
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size > ROTATE_BYTES) renameSync(file, join(isdlcDir, BRANCH_HEADS_DIR, OLD_LOG));
}

/** Branches to watch besides main and master (the workflow's). */
export function watchedBranches(isdlcDir: string): string[] {
  return (readTextQuietly(join(isdlcDir, BRANCH_HEADS_DIR, WATCH_FILE)) ?? '').split('\n').filter(Boolean);
}

export function setWatchedBranches(isdlcDir: string, branches: string[]): void {
  mkdirSync(join(isdlcDir, BRANCH_HEADS_DIR), { recursive: true });
  writeFileSync(join(isdlcDir, BRANCH_HEADS_DIR, WATCH_FILE), branches.map((branch) => `${branch}\n`).join(''));
}
