// What is installed in the project's node_modules folders, as Node would find it: every package folder
// (`node_modules/x`, `node_modules/@scope/x`, nested `node_modules/x/node_modules/y`, and those of the
// workspaces the lockfile names), whether or not the lockfile names it, and the programs in each `.bin`.
// Files are only read: nothing of a package is run, and npm's config is not consulted.
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface InstalledFolder {
  /** Relative to the root, `/`-separated, as the lockfile keys it: `node_modules/chai`. */
  path: string;
  /** The folder is a symbolic link (npm links workspaces and `file:` folders): the path it names. */
  link?: string;
}

export interface InstalledProgram {
  /** `node_modules/.bin/mocha`. */
  path: string;
  /** A link: the path it names, as written. */
  link?: string;
  /** A link's target resolved, relative to the root; absent for a file or a link out of the project. */
  target?: string;
}

export interface Installed {
  folders: InstalledFolder[];
  programs: InstalledProgram[];
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

const isDir = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

function relativeTo(root: string, path: string): string | undefined {
  const absolute = resolve(root);
  return path.startsWith(`${absolute}/`) ? path.slice(absolute.length + 1) : undefined;
}

function programs(root: string, bin: string, out: Installed): void {
  for (const name of entries(join(root, bin))) {
    const path = `${bin}/${name}`;
    const stats = lstatSync(join(root, path), { throwIfNoEntry: false });
    if (!stats) continue;
    if (!stats.isSymbolicLink()) {
      out.programs.push({ path });
      continue;
    }
    const link = readlinkSync(join(root, path));
    const target = relativeTo(root, resolve(root, dirname(path), link));
    out.programs.push({ path, link, ...(target ? { target } : {}) });
  }
}

function modulesFolder(root: string, modules: string, out: Installed, depth: number): void {
  if (depth > 32 || !isDir(join(root, modules))) return;
  for (const name of entries(join(root, modules))) {
    if (name === '.bin') programs(root, `${modules}/.bin`, out);
    // Others starting with a dot are npm's and the tools' own (.package-lock.json, .cache, .vite): no
    // package name starts with one, so nothing resolves into them.
    if (name.startsWith('.')) continue;
    const names = name.startsWith('@') && isDir(join(root, modules, name)) ? entries(join(root, modules, name)).map((inner) => `${name}/${inner}`) : [name];
    for (const packageName of names) packageFolder(root, `${modules}/${packageName}`, out, depth);
  }
}

function packageFolder(root: string, path: string, out: Installed, depth: number): void {
  const stats = lstatSync(join(root, path), { throwIfNoEntry: false });
  if (!stats) return;
  if (stats.isSymbolicLink()) {
    out.folders.push({ path, link: readlinkSync(join(root, path)) });
    return;
  }
  if (!stats.isDirectory()) return;
  out.folders.push({ path });
  modulesFolder(root, `${path}/node_modules`, out, depth + 1);
}

/** The packages and programs installed under the root's node_modules and each workspace's. */
export function installedPackages(root: string, workspaces: readonly string[] = []): Installed {
  const out: Installed = { folders: [], programs: [] };
  modulesFolder(root, 'node_modules', out, 0);
  for (const workspace of workspaces) if (!workspace.split('/').includes('..')) modulesFolder(root, `${workspace}/node_modules`, out, 0);
  return out;
}

/** The name and version an installed package's package.json gives, or why it gives none. */
export function manifestOf(dir: string): { name: string; version: string } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'it has no package.json' : 'its package.json does not parse' };
  }
  const manifest = parsed as { name?: unknown; version?: unknown } | null;
  return {
    name: typeof manifest?.name === 'string' ? manifest.name : '',
    version: typeof manifest?.version === 'string' ? manifest.version : '',
  };
}
