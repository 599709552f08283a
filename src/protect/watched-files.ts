// Which of the guarded files the journal watches, and how a change to each is judged. Everything under
// `.isdlc/` is watched whole except what isdlc writes too often to journal (its log, locks, temporary
// files, code caches) and what is the agents' own (the task plan); the settings files and `.mcp.json` are
// watched for isdlc's part only, the rest of them being the person's.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ISDLC_DIR } from '../state/locate.js';
import { guardedKindOfRelative, type GuardedKind } from './guarded-set.js';
import { BRANCH_HEADS_DIR } from './branch-heads.js';
import { JOURNAL_DIR } from './journal.js';

/** How a change is judged: the whole content, isdlc's part of a settings file, or the loop rows of the store. */
export type View = 'bytes' | 'settings' | 'mcp' | 'loop-rows';

/** Files outside `.isdlc/` that the journal watches for isdlc's part, whether or not they exist. */
export const WATCHED_OUTSIDE: Readonly<Record<string, View>> = Object.freeze({
  '.claude/settings.json': 'settings',
  '.claude/settings.local.json': 'settings',
  '.mcp.json': 'mcp',
  'docs/isdlc/constitution.md': 'bytes',
});

/** Folders outside `.isdlc/` whose whole content is guarded (the JavaScript framework's config). */
const WATCHED_FOLDERS_OUTSIDE = ['.claude/hooks/config'];

/** Names directly in `.isdlc/` that isdlc writes without the journal. */
const UNJOURNALED_AT_TOP = new Set(['hook-activity.log', 'hook-activity.log.1', 'loop.db-wal', 'loop.db-shm', 'loop.db-journal', 'rule-sandbox.json']);

/**
 * Names under `.isdlc/` isdlc writes without the journal, or that are not its to keep: the journal itself,
 * the activity log (checked on its own terms), the branch heads kept at each shell call, locks and temporary files, the code caches of the hook
 * bundles, the loop store's SQLite side files, the rule sandbox's registry, files kept aside for the
 * person, and the task plan.
 */
export function unjournaled(relInside: string): boolean {
  const parts = relInside.split('/');
  const name = parts[parts.length - 1]!;
  if (parts[0] === JOURNAL_DIR || parts[0] === BRANCH_HEADS_DIR) return true;
  // String tests, not regular expressions (compiled anew in each process): this runs for each entry of
  // isdlc's folders on every hook call. `name` holds no `/`.
  if (name.endsWith('.lock') || name.endsWith('.tmp') || name.endsWith('.abandoned') || name.includes('.rejected-') || name.includes('.corrupt-')) return true;
  if (parts.length === 1 && UNJOURNALED_AT_TOP.has(name)) return true;
  if (parts[0] === 'bin' && name.endsWith('.cache')) return true;
  return guardedKindOfRelative(`${ISDLC_DIR}/${relInside}`) === undefined; // tasks.md
}

export function viewOf(rel: string): View {
  const outside = WATCHED_OUTSIDE[rel];
  if (outside) return outside;
  if (rel === `${ISDLC_DIR}/loop.db`) return 'loop-rows';
  return 'bytes';
}

export function kindOf(rel: string): GuardedKind {
  return guardedKindOfRelative(rel) ?? 'other';
}

export interface WatchedSet {
  files: string[];
  dirs: string[];
}

function isDir(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function walk(root: string, rel: string, inside: (relInside: string) => boolean, out: WatchedSet): void {
  out.dirs.push(rel);
  let names: string[];
  try {
    names = readdirSync(join(root, rel));
  } catch {
    return;
  }
  for (const name of names.sort()) {
    const child = `${rel}/${name}`;
    if (!inside(child)) continue;
    if (isDir(join(root, child))) walk(root, child, inside, out);
    else out.files.push(child);
  }
}

const insideIsdlc = (child: string): boolean => !unjournaled(child.slice(ISDLC_DIR.length + 1));

/** The files and folders the journal watches in this project, as they are on disk now. */
export function scanWatched(root: string): WatchedSet {
  const out: WatchedSet = { files: [], dirs: [] };
  if (isDir(join(root, ISDLC_DIR))) walk(root, ISDLC_DIR, insideIsdlc, out);
  out.files.push(...Object.keys(WATCHED_OUTSIDE));
  // A folder that does not exist is watched as a name that must stay absent (an override someone adds).
  for (const folder of WATCHED_FOLDERS_OUTSIDE) {
    if (isDir(join(root, folder))) walk(root, folder, () => true, out);
    else out.files.push(folder);
  }
  return out;
}

/** Entries of a watched folder that a check must look at: new names isdlc did not write. */
export function watchedChildren(root: string, dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return [];
  }
  const children = names.map((name) => `${dir}/${name}`);
  return dir === ISDLC_DIR || dir.startsWith(`${ISDLC_DIR}/`) ? children.filter(insideIsdlc) : children;
}
