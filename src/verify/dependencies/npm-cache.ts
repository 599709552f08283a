// A package's tarball as npm downloaded it, read from npm's content-addressed cache (cacache) by the
// integrity the lockfile names: the file at `_cacache/content-v2/sha512/<hex>` holds exactly the bytes
// whose sha512 that is. The bytes are hashed again here before anything is believed: a cache entry is a
// file anyone with the person's rights can write. The cache is looked for where npm keeps it by default,
// not where an npm config names: such a config may be the agent's, and no config can change what a
// verified sha512 proves.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type * as Tar from 'tar';
import type { ReadEntry } from 'tar';

/** npm's cache folder's content store, where npm puts it when no config says otherwise. */
export function defaultCacache(env: NodeJS.ProcessEnv = process.env): string {
  if (process.platform === 'win32') return join(env['LOCALAPPDATA'] ?? join(homedir(), 'AppData', 'Local'), 'npm-cache', '_cacache');
  return join(homedir(), '.npm', '_cacache');
}

/** The sha512 an SRI string names, in hex; undefined when it names none (an older sha1 alone). */
export function sha512Of(integrity: string): string | undefined {
  for (const part of integrity.trim().split(/\s+/)) {
    const match = /^sha512-([A-Za-z0-9+/]+={0,2})(?:\?.*)?$/.exec(part);
    if (match) return Buffer.from(match[1]!, 'base64').toString('hex');
  }
  return undefined;
}

export type Tarball =
  | { kind: 'ok'; files: Map<string, Buffer> }
  /** Not in the cache (or not a sha512 the cache can be asked by). */
  | { kind: 'missing'; why: string }
  /** In the cache, and not what the integrity names, or not a tarball. */
  | { kind: 'bad'; why: string };

// The tar reader is a file of its own in a build (dist/tar.cjs), loaded here on first use: only a package
// that differs from the record is compared with its tarball.
let tar: typeof Tar | undefined;

/** The regular files of a package tarball, by their path with the first folder (`package/`) taken off, as npm unpacks them. */
function unpack(bytes: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let problem: Error | undefined;
  tar ??= require('tar') as typeof Tar;
  const parser = new tar.Parser({
    onwarn: (_code, message) => {
      problem ??= new Error(String(message));
    },
    onReadEntry: (entry: ReadEntry) => {
      // npm's unpacking keeps files and folders only; links in a tarball are dropped.
      if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile') return entry.resume();
      const path = entry.path.replace(/\\/g, '/').split('/').slice(1).join('/');
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => {
        if (path) files.set(path, Buffer.concat(chunks));
      });
    },
  });
  // Written whole and synchronously: the parser (gunzip included) has delivered every entry when end returns.
  parser.end(bytes);
  if (problem && files.size === 0) throw problem;
  return files;
}

/** The tarball the integrity names, from the cache, its sha512 checked. */
export function cachedTarball(integrity: string, cacache = defaultCacache()): Tarball {
  const hex = sha512Of(integrity);
  if (!hex) return { kind: 'missing', why: `its integrity (${integrity.slice(0, 20)}…) is not a sha512` };
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(cacache, 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4)));
  } catch {
    return { kind: 'missing', why: "its tarball is not in npm's cache" };
  }
  if (createHash('sha512').update(bytes).digest('hex') !== hex) return { kind: 'bad', why: "npm's cache holds other bytes under its integrity" };
  try {
    return { kind: 'ok', files: unpack(bytes) };
  } catch (error) {
    return { kind: 'bad', why: `its cached tarball does not unpack (${(error as Error).message})` };
  }
}
