// What an OS sandbox must hold still so that a command cannot change the paths it is told to protect (the
// guarded set, src/integrity/guarded-set.ts, passed in as data), worked out from one project's disk.
// Read-only mounts of the guarded paths are not enough on their own:
//   - a folder that holds a guarded file can be renamed away and made again with a forged file in it, so
//     every folder on the way to a guarded path (the root and the root's ancestors too) is pinned: bound
//     onto itself, and a mount point cannot be renamed or removed;
//   - a guarded path that does not exist yet has nothing to mount on. Below the root its nearest existing
//     folder is sealed: read-only, with each entry in it bound back writable, so nothing new appears there
//     and everything already there works as before. Directly in the root a seal would refuse every new
//     top-level file (a first `coverage/`, an atomic rewrite of package-lock.json), so there an empty folder
//     stands in for the missing name while the command runs (placeholders.ts), and an empty folder found
//     there is treated as one;
//   - a symbolic link on the way can be replaced whatever it points to: the folder holding it is sealed, and
//     what it points to is protected as well.
// macOS's sandbox matches path names instead of mounts and needs only `targets` and `pinned`.
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { ISDLC_DIR, readMonorepoConfig } from '../state/locate.js';

/**
 * What a sandbox keeps read-only: data, so that it crosses into the process that validates a loop's rules.
 * `paths` are relative to the project root (a folder stands for everything in it, `*` for one path segment,
 * `.git/<x>` for that part of the repository the project is in); `outside` are absolute paths of files
 * outside the project that decide what runs with the person's rights (the agent host's settings).
 */
export interface ProtectedPaths {
  paths: readonly string[];
  outside: readonly string[];
}

export interface ProtectionPlan {
  /** The project root, symbolic links resolved. */
  root: string;
  /** Every guarded path, absolute, whether it exists or not. */
  targets: string[];
  /** Existing guarded files and folders: mounted read-only. */
  readOnly: string[];
  /** Existing folders on the way to something guarded: bound onto themselves so they stay where they are. */
  pinned: string[];
  /** Existing folders that must get no new entry: read-only, each entry in them bound back writable. */
  sealed: string[];
  /** Names directly in the root that must not appear: an empty folder stands in while the command runs. */
  placeholders: string[];
}

const lstatIfPresent = (path: string): Stats | undefined => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

const isEmptyFolder = (path: string): boolean => {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
};

/** The project ids of a monorepo: the ones its config names and the ones that have folders already. */
function projectIds(root: string): string[] {
  const ids = new Set<string>();
  try {
    for (const id of Object.keys(readMonorepoConfig(root)?.projects ?? {})) ids.add(id);
  } catch {
    // A broken monorepo.json is doctor's to report; the folders below still count.
  }
  for (const folder of ['docs/isdlc/projects', '.isdlc/projects']) {
    try {
      for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) if (entry.isDirectory()) ids.add(entry.name);
    } catch {
      // no such folder
    }
  }
  return [...ids].filter((id) => id !== '' && !id.includes('/') && !id.includes(sep) && id !== '.' && id !== '..');
}

/** `gitdir: <path>` in a `.git` file (a worktree or a submodule), resolved from the folder holding it. */
function gitdirOfFile(file: string): string | undefined {
  try {
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(file, 'utf8'));
    return match ? resolve(dirname(file), match[1]!) : undefined;
  } catch {
    return undefined;
  }
}

/** Where a git folder keeps what its worktrees share (config, hooks): its `commondir`, else itself. */
function commonDirOf(gitdir: string): string {
  try {
    return resolve(gitdir, readFileSync(join(gitdir, 'commondir'), 'utf8').trim());
  } catch {
    return gitdir;
  }
}

/**
 * `.git/<rest>` of the protected paths as absolute paths: in the repository git would find from the root (the
 * nearest `.git` at or above it), and `.git` in the root itself, so that no nested repository can be made
 * there either. A `.git` file (worktree, submodule) is guarded too: rewritten, it would point elsewhere.
 */
export function gitTargets(root: string, rests: readonly string[]): string[] {
  const own = join(root, '.git');
  for (let folder = root; ; folder = dirname(folder)) {
    const dotGit = join(folder, '.git');
    const found = lstatIfPresent(dotGit);
    // An empty `.git` folder is no repository (an agent host's sandbox makes them as mount points), as for git.
    const stat = found?.isDirectory() && !lstatIfPresent(join(dotGit, 'HEAD')) ? undefined : found;
    if (stat) {
      const targets = folder === root ? [] : [own];
      // A link is followed by planProtection like any other link on the way.
      let common: string | undefined = dotGit;
      if (stat.isFile()) {
        targets.push(dotGit);
        const gitdir = gitdirOfFile(dotGit);
        common = gitdir === undefined ? undefined : commonDirOf(gitdir);
      } else if (stat.isDirectory()) {
        common = commonDirOf(dotGit);
      }
      if (common !== undefined) targets.push(...rests.map((rest) => join(common, rest)));
      return targets;
    }
    if (dirname(folder) === folder) return rests.map((rest) => join(own, rest));
  }
}

/** The protected paths for this project, absolute: wildcards made into the project ids it has, git found. */
export function guardedTargets(root: string, protect: ProtectedPaths): string[] {
  const targets: string[] = [];
  const gitRests: string[] = [];
  for (const path of protect.paths) {
    if (path.startsWith('.git/')) gitRests.push(path.slice('.git/'.length));
    else if (path.includes('*')) targets.push(...projectIds(root).map((id) => join(root, path.replace('*', id))));
    else targets.push(join(root, path));
  }
  if (gitRests.length > 0) targets.push(...gitTargets(root, gitRests));
  targets.push(...protect.outside);
  return [...new Set(targets)];
}

/** How deep symbolic links are followed from one guarded path before giving up (a loop of links). */
const MAX_LINKS = 8;

export function planProtection(projectRoot: string, protect: ProtectedPaths): ProtectionPlan {
  const root = realpathSync(projectRoot);
  const targets = guardedTargets(root, protect);
  const readOnly = new Set<string>();
  const pinned = new Set<string>();
  const sealed = new Set<string>();
  const placeholders = new Set<string>();

  const hold = (target: string, links: number): void => {
    const parts = target.split(sep).filter(Boolean);
    let folder: string = sep;
    for (const [index, part] of parts.entries()) {
      const path = join(folder, part);
      const last = index === parts.length - 1;
      const stat = lstatIfPresent(path);
      // An empty folder directly in the root may be another run's placeholder: held like one. Not
      // `.isdlc`, where placeholders are counted.
      const standIn = folder === root && part !== ISDLC_DIR && stat?.isDirectory() === true && isEmptyFolder(path);
      if (!stat || standIn) {
        if (folder === root) placeholders.add(part);
        else sealed.add(folder);
        return;
      }
      if (stat.isSymbolicLink()) {
        sealed.add(folder);
        if (links >= MAX_LINKS) return;
        let pointsTo: string;
        try {
          pointsTo = readlinkSync(path);
        } catch {
          return;
        }
        const resolved = isAbsolute(pointsTo) ? pointsTo : resolve(folder, pointsTo);
        hold(join(resolved, ...parts.slice(index + 1)), links + 1);
        return;
      }
      // A file where a folder was expected is held too: removed, a folder could take its place.
      if (last || !stat.isDirectory()) {
        readOnly.add(path);
        return;
      }
      pinned.add(path);
      folder = path;
    }
  };
  for (const target of targets) hold(target, 0);

  // Placeholders are counted in `.isdlc/` (placeholders.ts); a project without it gets its root sealed
  // instead. A sealed root refuses new names anyway.
  if (placeholders.has(ISDLC_DIR)) sealed.add(root);
  if (sealed.has(root)) placeholders.clear();
  for (const name of placeholders) readOnly.add(join(root, name));
  return {
    root,
    targets,
    readOnly: [...readOnly],
    pinned: [...pinned].filter((path) => !readOnly.has(path)),
    sealed: [...sealed],
    placeholders: [...placeholders],
  };
}
