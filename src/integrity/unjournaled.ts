// What under `.isdlc/` the journal leaves alone: what isdlc writes too often to journal, what is not its to
// keep, and the journal itself.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BRANCH_HEADS_DIR } from '../state/branch-heads.js';
import { ISDLC_DIR } from '../state/locate.js';
import { isdlcKindOf } from './guarded-set.js';

/** The journal's own folder inside `.isdlc/`. */
export const JOURNAL_DIR = 'journal';

/** Names directly in `.isdlc/` that isdlc writes without the journal. */
const UNJOURNALED_AT_TOP = new Set(['hook-activity.log', 'hook-activity.log.1', 'loop.db-wal', 'loop.db-shm', 'loop.db-journal', 'rule-sandbox.json']);

/**
 * Names under `.isdlc/` isdlc writes without the journal, or that are not its to keep: the journal itself,
 * the activity log (checked on its own terms), the branch heads kept at each shell call, locks and temporary
 * files, the code caches of the hook bundles, the loop store's SQLite side files, the rule sandbox's
 * registry, files kept aside for the person, and the task plan.
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
  return isdlcKindOf(relInside) === undefined; // tasks.md
}

/** `.isdlc/<x>` relative to the root is journaled. */
export const journaledInIsdlc = (child: string): boolean => !unjournaled(child.slice(ISDLC_DIR.length + 1));

/** The entries of a folder, relative to the root; in `.isdlc/` only those the journal keeps. */
export function watchedChildren(root: string, dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    return [];
  }
  const children = names.map((name) => `${dir}/${name}`);
  return dir === ISDLC_DIR || dir.startsWith(`${ISDLC_DIR}/`) ? children.filter(journaledInIsdlc) : children;
}
