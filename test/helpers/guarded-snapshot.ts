// Everything about a project's guarded files that a forger could change, so tests can say "byte for byte
// unchanged": for each file its content's digest, mode and modification time; for each folder (walked
// whole) its entries; for each link where it points; for a missing path that it is missing.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The guarded paths of a project, and the project root's own listing (no placeholder may stay behind). */
export const SNAPSHOT_PATHS = [
  '.isdlc',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/hooks/config',
  '.mcp.json',
  'docs/isdlc/constitution.md',
  '.git/config',
  '.git/hooks',
] as const;

/**
 * The code caches isdlc's own hook calls write beside its bundles (docs/hot-path.md): the first call of
 * each kind makes one where init did not, so they are not part of what a forger could have changed.
 */
const OWN_CODE_CACHE = /\.cjs\.(?:[a-z]+\.)?v\d+\.\d+\.\d+-[a-z0-9]+-\d+-\d+\.cache$/;

function describePath(path: string, into: Record<string, string>, rel: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    into[rel] = 'absent';
    return;
  }
  if (stat.isSymbolicLink()) {
    into[rel] = `link -> ${readlinkSync(path)}`;
  } else if (stat.isDirectory()) {
    const names = readdirSync(path)
      .filter((name) => !OWN_CODE_CACHE.test(name))
      .sort();
    into[rel] = `folder ${(stat.mode & 0o7777).toString(8)} [${names.join(', ')}]`;
    for (const name of names) describePath(join(path, name), into, `${rel}/${name}`);
  } else if (stat.isFile()) {
    const digest = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
    into[rel] = `file ${(stat.mode & 0o7777).toString(8)} ${stat.size} ${digest} ${stat.mtimeMs}`;
  } else {
    into[rel] = `special ${stat.mode.toString(8)}`;
  }
}

export function guardedSnapshot(project: string, paths: readonly string[] = SNAPSHOT_PATHS): Record<string, string> {
  const snapshot: Record<string, string> = { '(root)': readdirSync(project).sort().join(', ') };
  for (const path of paths) describePath(join(project, path), snapshot, path);
  return snapshot;
}
