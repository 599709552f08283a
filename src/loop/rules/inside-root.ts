// Paths a rule names are relative to the project root and must stay under it, by name and, where the path
// (or its nearest existing parent) exists, after symbolic links are followed.
import { realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

export type InsideRoot = { ok: true; path: string } | { ok: false; reason: string };

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor when it does not exist. */
function realOfNearest(path: string): string {
  for (let current = path; ; current = dirname(current)) {
    try {
      return realpathSync(current);
    } catch {
      if (dirname(current) === current) return current;
    }
  }
}

/** `path` (relative to `root`) as an absolute path, or why it is refused. */
export function resolveInsideRoot(root: string, path: string): InsideRoot {
  const absolute = resolve(root, path);
  if (!within(root, absolute)) return { ok: false, reason: `${JSON.stringify(path)} is outside the project root` };
  if (!within(realOfNearest(root), realOfNearest(absolute))) {
    return { ok: false, reason: `${JSON.stringify(path)} leads outside the project root through a symbolic link` };
  }
  return { ok: true, path: absolute };
}

/** What is at `path`, or undefined when nothing is (a missing parent or a file used as a directory too). */
export function statIfPresent(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}
