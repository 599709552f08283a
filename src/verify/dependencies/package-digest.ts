// The content of one installed package as digests: each file's sha256 under its path relative to the
// package, and one digest over all of them. A symbolic link inside the package counts as the path it
// names, never followed: what it points to outside the package is not the package's content. The package's
// own node_modules folder is left out: each package in it is an install of its own, digested as such.
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface PackageDigest {
  /** sha256 over the sorted paths and their files' digests. */
  digest: string;
  /** Each file's digest (fileDigest; a link's: of `link:` and the path it names), by its path in the package. */
  files: Record<string, string>;
  bytes: number;
}

/**
 * A file's digest: sha256, its first 128 bits in hex. Half the record's size for hundreds of packages'
 * thousands of files, and still no collision anyone can make.
 */
const FILE_DIGEST_CHARS = 32;
export const fileDigest = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, FILE_DIGEST_CHARS);

/** What one entry counts as: a file's bytes, a link's target. Null for what is neither (a socket, a fifo). */
function entryDigest(path: string, isLink: boolean): { digest: string; bytes: number } | null {
  if (isLink) return { digest: fileDigest(`link:${readlinkSync(path)}`), bytes: 0 };
  const content = readFileSync(path);
  return { digest: fileDigest(content), bytes: content.length };
}

function walk(dir: string, rel: string, files: Record<string, string>, total: { bytes: number }): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const inside = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (rel === '' && entry.name === 'node_modules') continue;
      walk(path, inside, files, total);
      continue;
    }
    if (!entry.isFile() && !entry.isSymbolicLink()) continue;
    const digest = entryDigest(path, entry.isSymbolicLink());
    if (!digest) continue;
    files[inside] = digest.digest;
    total.bytes += digest.bytes;
  }
}

/** The digest of `files` (path → digest), in the order of their paths. */
export function digestOfFiles(files: Record<string, string>): string {
  const hash = createHash('sha256');
  for (const path of Object.keys(files).sort()) hash.update(`${path}\0${files[path]}\n`);
  return hash.digest('hex');
}

/** The package installed in `dir` (a real folder: the caller does not pass a link to one). */
export function digestPackage(dir: string): PackageDigest {
  const files: Record<string, string> = {};
  const total = { bytes: 0 };
  if (lstatSync(dir).isDirectory()) walk(dir, '', files, total);
  return { digest: digestOfFiles(files), files, bytes: total.bytes };
}

/** The paths whose digests differ between two packages' files, added and removed ones included. */
export function differingFiles(before: Record<string, string>, after: Record<string, string>): { changed: string[]; added: string[]; removed: string[] } {
  const changed: string[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  for (const path of Object.keys(after).sort()) {
    if (!(path in before)) added.push(path);
    else if (before[path] !== after[path]) changed.push(path);
  }
  for (const path of Object.keys(before).sort()) if (!(path in after)) removed.push(path);
  return { changed, added, removed };
}
