// Which of the guarded files the journal watches, and how a change to each is judged. Everything under
// `.isdlc/` is watched whole except what isdlc writes too often to journal (unjournaled.ts); the files an
// agent host shares with the person (its settings, its MCP server list) are watched for isdlc's part only,
// the rest of them being the person's; a host's config folder is watched whole.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ISDLC_DIR } from '../state/locate.js';
import type { GuardedKind, GuardedSet } from './guarded-set.js';
import type { SharedFile } from './host-files.js';
import { journaledInIsdlc } from './unjournaled.js';

/** How a change is judged: the whole content, the loop rows of the store, or isdlc's part of a shared file. */
export type View = 'bytes' | 'loop-rows' | SharedFile;

/** isdlc's own files outside `.isdlc/` that the journal watches whole, whether or not they exist. */
const OWN_FILES_OUTSIDE = ['docs/isdlc/constitution.md'];

export function viewOf(rel: string, guarded: GuardedSet): View {
  const shared = guarded.sharedFile(rel);
  if (shared) return shared;
  if (rel === `${ISDLC_DIR}/loop.db`) return 'loop-rows';
  return 'bytes';
}

export function kindOf(rel: string, guarded: GuardedSet): GuardedKind {
  return guarded.kindOfRelative(rel) ?? 'other';
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

/** The files and folders the journal watches in this project, as they are on disk now. */
export function scanWatched(root: string, guarded: GuardedSet): WatchedSet {
  const out: WatchedSet = { files: [], dirs: [] };
  if (isDir(join(root, ISDLC_DIR))) walk(root, ISDLC_DIR, journaledInIsdlc, out);
  out.files.push(...guarded.sharedFiles.map((file) => file.path), ...OWN_FILES_OUTSIDE);
  // A folder that does not exist is watched as a name that must stay absent (an override someone adds).
  for (const folder of guarded.configFolders) {
    if (isDir(join(root, folder))) walk(root, folder, () => true, out);
    else out.files.push(folder);
  }
  return out;
}
