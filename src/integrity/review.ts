// A person's review of changes to isdlc's files made outside isdlc: list them, keep them (accept: the
// changed versions set aside are put back and become what isdlc expects), or keep isdlc's versions
// (reject: what is still changed on disk is undone, the set-aside versions are discarded).
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { GuardedSet } from './guarded-set.js';
import { adoptAll } from './journal-adopt.js';
import { readJournal, recordAsIs, updateJournal, type Incident } from './journal.js';
import type { LoopRows } from './loop-rows.js';
import { checkGuardedFiles, noteLogFloor, pendingChanges, type PendingChange } from './tamper-check.js';
import { viewOf } from './watched-files.js';

export interface Waiting {
  incidents: Incident[];
  /** Changed on disk now, not yet found by a hook call. */
  pending: PendingChange[];
}

export function waitingForReview(root: string, guarded: GuardedSet, loopRows?: () => LoopRows): Waiting {
  const read = readJournal(root);
  const incidents = read.kind === 'ok' ? read.index.incidents.filter((incident) => !incident.review) : [];
  return { incidents, pending: pendingChanges(root, guarded, loopRows) };
}

export interface ReviewOptions {
  guarded: GuardedSet;
  /** Incident ids; none: every unreviewed one, and for accept everything on disk as it is. */
  ids?: number[];
  by: string;
  now?: Date;
  loopRows?: () => LoopRows;
}

export interface ReviewResult {
  incidents: number[];
  /** accept: the files kept as changed (versions put back in place, and what was changed on disk); reject: the changed versions discarded. */
  files: string[];
  /** reject: changes still on disk that were undone now. */
  undone: string[];
}

function chosen(incidents: Incident[], ids: number[] | undefined): Incident[] {
  const open = incidents.filter((incident) => !incident.review);
  if (!ids) return open;
  const unknown = ids.filter((id) => !open.some((incident) => incident.id === id));
  if (unknown.length > 0) throw new ReviewError(`no change waiting for review has the number ${unknown.join(', ')}; \`isdlc changes\` lists them`);
  return open.filter((incident) => ids.includes(incident.id));
}

export class ReviewError extends Error {}

export function acceptChanges(root: string, options: ReviewOptions): ReviewResult {
  const at = (options.now ?? new Date()).toISOString();
  const onDisk = options.ids ? [] : pendingChanges(root, options.guarded, options.loopRows).map((change) => change.rel);
  return updateJournal(root, (index) => {
    const picked = chosen(index.incidents, options.ids);
    const files: string[] = [];
    // Oldest first, so that of two versions of one file the newest ends up in place.
    for (const incident of [...picked].sort((a, b) => a.id - b.id)) {
      for (const file of incident.files) {
        if (!file.keptAs || !existsSync(join(root, file.keptAs))) continue;
        rmSync(join(root, file.path), { force: true, recursive: true });
        renameSync(join(root, file.keptAs), join(root, file.path));
        files.push(file.path);
      }
      incident.review = { decision: 'accepted', at, by: options.by };
    }
    if (options.ids) {
      // Folder stamps stay as they were: the next check reads those folders again and finds any other newcomer.
      for (const path of new Set(picked.flatMap((incident) => incident.files.map((file) => file.path)))) {
        if (viewOf(path, options.guarded) !== 'loop-rows' && path !== '.isdlc/journal') recordAsIs(root, index, path, true);
      }
    } else adoptAll(root, index, options.guarded, options.loopRows);
    noteLogFloor(root, index);
    return { incidents: picked.map((incident) => incident.id), files: [...new Set([...files, ...onDisk])], undone: [] };
  });
}

export function rejectChanges(root: string, options: ReviewOptions): ReviewResult {
  const at = (options.now ?? new Date()).toISOString();
  // What is changed on disk now is undone first (it becomes one more incident, reviewed with the rest).
  const check = checkGuardedFiles(root, {
    guarded: options.guarded,
    foundBy: 'isdlc changes reject',
    ...(options.loopRows ? { loopRows: options.loopRows } : {}),
  });
  const undone = check.findings.map((finding) => finding.rel);
  const ids = options.ids && check.incident ? [...options.ids, check.incident.id] : options.ids;
  return updateJournal(root, (index) => {
    const picked = chosen(index.incidents, ids);
    const files: string[] = [];
    for (const incident of picked) {
      for (const file of incident.files) {
        if (file.keptAs && existsSync(join(root, file.keptAs))) {
          rmSync(join(root, file.keptAs), { force: true, recursive: true });
          files.push(file.keptAs);
        }
      }
      incident.review = { decision: 'rejected', at, by: options.by };
    }
    return { incidents: picked.map((incident) => incident.id), files, undone };
  });
}
