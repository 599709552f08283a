// What the project's lockfile says is installed, as the gate compares it with node_modules. Only npm's
// lockfile (package-lock.json or npm-shrinkwrap.json, version 2 or 3: the `packages` map keyed by install
// path) is read; yarn's, pnpm's and bun's are named so that the gate can say they are not verified.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asRecord, isRecord } from '../../util/json.js';

/** One installed package the lockfile names, under its install path (`node_modules/chai`). */
export interface LockedPackage {
  name: string;
  version: string;
  /** The tarball's Subresource Integrity (`sha512-…`), when the lockfile has one. */
  integrity?: string;
  /** A link to a folder of the project (a workspace, a `file:` folder): `resolved` is that folder. */
  link?: string;
  /** It runs an install script (which may add or change files after npm unpacks it). */
  installScript?: boolean;
}

export type Lockfile =
  | { kind: 'npm'; file: string; packages: ReadonlyMap<string, LockedPackage>; workspaces: readonly string[] }
  | { kind: 'unverified'; file: string; why: string }
  | { kind: 'broken'; file: string; problem: string }
  | { kind: 'none' };

/** npm reads a shrinkwrap first when both exist. */
const NPM_LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json'];
const OTHER_LOCKFILES: readonly [string, string][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
];

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `node_modules/@scope/name` or `a/node_modules/b/node_modules/c` → the name its last `node_modules/` holds. */
export function nameFromPath(path: string): string {
  return path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

function lockedPackage(path: string, entry: Record<string, unknown>): LockedPackage {
  const name = typeof entry['name'] === 'string' ? entry['name'] : nameFromPath(path);
  return {
    name,
    version: typeof entry['version'] === 'string' ? entry['version'] : '',
    ...(typeof entry['integrity'] === 'string' ? { integrity: entry['integrity'] } : {}),
    ...(entry['link'] === true && typeof entry['resolved'] === 'string' ? { link: entry['resolved'] } : {}),
    ...(entry['hasInstallScript'] === true ? { installScript: true } : {}),
  };
}

/** The project's lockfile, read: npm's in detail, the others only named. */
export function readLockfile(root: string): Lockfile {
  for (const file of NPM_LOCKFILES) {
    const text = readIfThere(join(root, file));
    if (text === undefined) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return { kind: 'broken', file, problem: `it is not JSON (${(error as Error).message})` };
    }
    const packages = asRecord(parsed)['packages'];
    if (!isRecord(packages)) {
      return { kind: 'unverified', file, why: `${file} has no \`packages\` map (lockfile version 1, written by npm 6 or older)` };
    }
    const installed = new Map<string, LockedPackage>();
    const workspaces: string[] = [];
    for (const [path, entry] of Object.entries(packages)) {
      if (!isRecord(entry)) continue;
      if (path.startsWith('node_modules/') || path.includes('/node_modules/')) installed.set(path, lockedPackage(path, entry));
      else if (path !== '') workspaces.push(path);
    }
    return { kind: 'npm', file, packages: installed, workspaces };
  }
  for (const [file, manager] of OTHER_LOCKFILES) {
    if (readIfThere(join(root, file)) !== undefined) {
      return { kind: 'unverified', file, why: `the project installs with ${manager} (${file}), whose installs isdlc does not verify yet` };
    }
  }
  return { kind: 'none' };
}
