// Outside the project, a sandboxed command changes nothing: the machine is mounted read-only, the temp
// folders are its own (empty, thrown away when it ends), and only the project root is writable (its guarded
// paths read-only again on top). A rule or a test run is the agent's code; what it could otherwise write
// outside the project is read later by programs that run with the person's rights and no sandbox: git's
// global config (a `gpg.program` isdlc's own `git log` would start), npm's user and global config, a
// program put into a PATH folder ahead of the system's, the agent host's managed settings in a folder that
// does not exist yet. Read-only mounts refuse a new name as firmly as a changed file, so nothing has to
// be listed. Toolchains keep working because their caches are sent into the private temp folder.
import { existsSync } from 'node:fs';
import { isAbsolute, sep } from 'node:path';

/** A path bound into the sandbox onto itself. */
export interface Mount {
  path: string;
  mode: 'ro' | 'rw';
}

/** Folders the command gets as its own, empty and writable, in place of the machine's. */
export const PRIVATE_TEMP: readonly string[] = ['/tmp', '/var/tmp'];

const CACHE = '/tmp/.isdlc-sandbox-cache';

/**
 * Where toolchains keep caches inside the sandbox: their usual places are in the home folder, read-only
 * there. XDG_CACHE_HOME covers Go's build cache, pip, corepack and most others; npm and Go are named too in
 * case the person's environment points them elsewhere.
 */
export const SANDBOX_VARIABLES: Readonly<Record<string, string>> = {
  TMPDIR: '/tmp',
  XDG_CACHE_HOME: CACHE,
  npm_config_cache: `${CACHE}/npm`,
  GOCACHE: `${CACHE}/go-build`,
  PIP_CACHE_DIR: `${CACHE}/pip`,
};

const within = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);

/**
 * Folders under a private temp folder that the command must still see (read-only): the home folder, the
 * PATH folders, Node's own folder and the work tree the project is part of (a monorepo's top, whose
 * node_modules its packages resolve), where a machine keeps them in /tmp. Elsewhere they are part of the
 * read-only machine already.
 */
export function keptVisible(env: NodeJS.ProcessEnv, nodeFolder: string, workTree?: string): string[] {
  const candidates = [env['HOME'], ...(env['PATH'] ?? '').split(':'), nodeFolder, workTree];
  return [
    ...new Set(
      candidates.filter(
        (path): path is string =>
          typeof path === 'string' && isAbsolute(path) && PRIVATE_TEMP.some((temp) => path !== temp && within(path, temp)) && existsSync(path),
      ),
    ),
  ];
}

/**
 * The plan's mounts (mountsFor) for a read-only machine with a writable `root`. Inside the root they stand
 * as planned. Outside it everything is read-only already, so only what lies in a private temp folder is
 * bound, read-only, to be seen there at all. Mounts go parents first, so the root's own comes after any
 * folder that holds it.
 */
export function worldMounts(planned: readonly Mount[], root: string, visible: readonly string[]): Mount[] {
  const inTemp = (path: string): boolean => PRIVATE_TEMP.some((temp) => path !== temp && within(path, temp));
  const mounts = new Map<string, Mount['mode']>([[root, 'rw']]);
  // What must be seen may hold the root (a monorepo's top with its hoisted node_modules): bound first, the
  // root over it. A planned folder on the way to the root is only a pin, and would cover the root.
  for (const path of visible) if (inTemp(path) && !within(path, root)) mounts.set(path, 'ro');
  for (const { path } of planned) if (inTemp(path) && !within(path, root) && !within(root, path)) mounts.set(path, 'ro');
  for (const mount of planned) if (within(mount.path, root)) mounts.set(mount.path, mount.mode);
  const depth = (path: string): number => path.split(sep).filter(Boolean).length;
  return [...mounts].map(([path, mode]) => ({ path, mode })).sort((a, b) => depth(a.path) - depth(b.path));
}
