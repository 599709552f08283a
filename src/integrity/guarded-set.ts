// isdlc's guarded files: the ones only isdlc (or the person, for config) should change, because the
// guarantees rest on them. This is the one definition; whatever watches or protects them (the text rules,
// the journal, the OS sandboxes) asks here.
//
// Guarded, relative to the project root:
//   .isdlc/**                              everything isdlc keeps: state, config, bin, loop store, logs
//                                          (except the task plan .isdlc/[projects/<id>/]tasks.md, which
//                                          agents write)
//   docs/isdlc/[projects/<id>/]constitution.md   the constitution (also under .isdlc/)
//   what each agent host adds (host-files.ts): the files where isdlc's hooks and MCP server are
//   registered, and a framework's config folder the host's projects keep
// The OS sandbox that runs commands for the agent also keeps what others run as code read-only (runAsCode).
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { HostFiles, SharedFile } from './host-files.js';

export type GuardedKind = 'state' | 'config' | 'bin' | 'loop-store' | 'log' | 'settings' | 'mcp' | 'constitution' | 'other';

/**
 * Files git runs as code with the person's rights, outside every sandbox: its configuration and hooks. Not
 * isdlc's files, but a command written by the agent must not change them either. `.git/` means the
 * repository the project is in, wherever its git folder lives. Each host adds its own (host-files.ts).
 */
const GIT_RUN_AS_CODE: readonly string[] = Object.freeze(['.git/config', '.git/hooks']);

/** isdlc's constitution, guarded wherever it is kept: `*` stands for one path segment (a project id). */
const CONSTITUTION_PATHS: readonly string[] = Object.freeze(['docs/isdlc/constitution.md', 'docs/isdlc/projects/*/constitution.md']);

/** What a guarded file is, in a few words, for messages. */
export const GUARDED_KIND_LABELS: Readonly<Record<GuardedKind, string>> = Object.freeze({
  state: "the workflow's state",
  config: "isdlc's configuration",
  bin: "isdlc's installed program",
  'loop-store': "the iteration loops' store",
  log: "isdlc's activity log",
  settings: "the agent host's project settings, where isdlc's hooks are registered",
  mcp: "the agent host's MCP server list, where isdlc's server is registered",
  constitution: "the project's constitution",
  other: 'a file isdlc keeps',
});

/** Case-insensitive file systems are the default on Windows and macOS: `.ISDLC/State.json` is the state file there. */
const FOLD_CASE = process.platform === 'win32' || process.platform === 'darwin';

// Plain string tests rather than regular expressions: this runs for each entry of isdlc's folders on every
// hook call, and a regular expression is compiled anew in each process.
/** `loop.db` and its SQLite side files. */
const LOOP_STORE_FILES = new Set(['loop.db', 'loop.db-wal', 'loop.db-shm', 'loop.db-journal']);
const ACTIVITY_LOG_NAME = 'hook-activity.log';

/** `hook-activity.log`, or it rotated: `hook-activity.log.<digits>`. */
function isActivityLogName(name: string): boolean {
  if (!name.startsWith(ACTIVITY_LOG_NAME)) return false;
  if (name.length === ACTIVITY_LOG_NAME.length) return true;
  if (name.length === ACTIVITY_LOG_NAME.length + 1 || name[ACTIVITY_LOG_NAME.length] !== '.') return false;
  for (let i = ACTIVITY_LOG_NAME.length + 1; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** The kind of a path inside `.isdlc/` (`relInside` relative to it), or undefined for the agents' own files. */
export function isdlcKindOf(relInside: string): GuardedKind | undefined {
  const rest = (FOLD_CASE ? relInside.toLowerCase() : relInside).split('/');
  const inProject = rest[0] === 'projects' && rest.length === 3 ? rest[2]! : undefined;
  const file = inProject ?? (rest.length === 1 ? rest[0]! : undefined);
  if (file === 'tasks.md') return undefined; // the task plan is the agents' work
  if (file === 'state.json') return 'state';
  if (file === 'constitution.md') return 'constitution';
  if (rest.length === 1 && LOOP_STORE_FILES.has(rest[0]!)) return 'loop-store';
  if (rest.length === 1 && isActivityLogName(rest[0]!)) return 'log';
  if (rest[0] === 'bin') return 'bin';
  if (rest[0] === 'config' || (rest.length === 1 && ['monorepo.json', 'install.json', '.gitignore'].includes(rest[0]!))) return 'config';
  return 'other';
}

/** The kind of a path relative to the project root among isdlc's own files, or undefined. */
function ownKindOfRelative(rel: string): GuardedKind | undefined {
  const parts = rel.split('/');
  const [top, second] = parts;
  if (top === '.isdlc') return isdlcKindOf(parts.slice(1).join('/'));
  if (rel === 'docs/isdlc/constitution.md') return 'constitution';
  if (top === 'docs' && second === 'isdlc' && parts[2] === 'projects' && parts.length === 5 && parts[4] === 'constitution.md') return 'constitution';
  return undefined;
}

/** `path` relative to `root`, `/`-separated, or undefined when it is the root itself or outside it. */
export function relativeToRoot(root: string, path: string): string | undefined {
  const rel = relative(resolve(root), resolve(root, path));
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** How many symlinks a path may pass through before it is given up on (Linux's own limit is 40). */
const MAX_LINKS = 40;

/**
 * The real path of a file, also when it does not exist yet: a Write through a dangling symlink creates the
 * file the link names, and one into a folder not made yet lands under that folder's nearest real ancestor.
 */
export function realPathOf(path: string, links = 0): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    // not there (yet), or a link whose target is not there: followed below by hand
  }
  try {
    if (links < MAX_LINKS && lstatSync(path).isSymbolicLink()) return realPathOf(resolve(dirname(path), readlinkSync(path)), links + 1);
  } catch {
    // not there at all: its folder decides
  }
  const parent = dirname(path);
  if (parent === path) return undefined;
  const realParent = realPathOf(parent, links);
  return realParent === undefined ? undefined : join(realParent, basename(path));
}

/** A guarded file of the project: its kind, and where it is relative to the root (`/`-separated). */
export interface GuardedFile {
  kind: GuardedKind;
  relative: string;
}

/**
 * The guarded set of a project: isdlc's own files and what the agent hosts add. One value for the whole
 * process, built where the hosts are known (src/hosts/) and passed to whatever asks.
 */
export class GuardedSet {
  /**
   * Every guarded path, relative to the root, for whatever keeps them read-only as a whole (an OS sandbox): a
   * folder stands for everything in it, `*` for one path segment (a project id of a monorepo).
   */
  readonly paths: readonly string[];
  /** What others run as code with the person's rights, among `paths`. */
  readonly runAsCode: readonly string[];
  /** Which of `paths` are folders (protected with everything in them); the others are files. */
  readonly folders: ReadonlySet<string>;
  readonly sharedFiles: readonly SharedFile[];
  readonly configFolders: readonly string[];
  private readonly shared: ReadonlyMap<string, SharedFile>;
  private readonly namedText: RegExp;

  constructor(private readonly hosts: readonly HostFiles[]) {
    this.sharedFiles = Object.freeze(hosts.flatMap((host) => host.shared));
    this.shared = new Map(this.sharedFiles.map((file) => [FOLD_CASE ? file.path.toLowerCase() : file.path, file]));
    this.configFolders = Object.freeze(unique(hosts.flatMap((host) => host.configFolders)));
    this.runAsCode = Object.freeze(unique([...GIT_RUN_AS_CODE, ...hosts.flatMap((host) => host.runAsCode)]));
    this.folders = new Set(['.isdlc', '.git/hooks', ...this.configFolders, ...hosts.flatMap((host) => host.runAsCode)]);
    this.paths = Object.freeze(
      unique(['.isdlc', ...this.sharedFiles.map((file) => file.path), ...CONSTITUTION_PATHS, ...this.configFolders, ...this.runAsCode]),
    );
    const asText = (path: string): string =>
      path
        .split('/')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('[\\\\/]');
    this.namedText = new RegExp(
      ['\\.isdlc(?:[\\\\/]|$)', 'constitution\\.md', ...this.sharedFiles.map((file) => asText(file.path)), ...this.configFolders.map(asText)].join('|'),
    );
  }

  /** The host's files outside the project that decide whether isdlc runs (those that exist). */
  outside(env: NodeJS.ProcessEnv = process.env): string[] {
    return unique(this.hosts.flatMap((host) => host.outside(env)));
  }

  /** Whether a path's text names a guarded file, for words the hook cannot resolve (`$DIR/.isdlc/state.json`). */
  namedIn(word: string): boolean {
    return this.namedText.test(word);
  }

  /** The guarded set as data, for an OS sandbox that keeps it read-only (src/sandbox/). */
  protectedPaths(env: NodeJS.ProcessEnv = process.env): { paths: readonly string[]; outside: readonly string[] } {
    return { paths: this.paths, outside: this.outside(env) };
  }

  /** The shared file at `rel` (relative to the root, `/`-separated), if it is one. */
  sharedFile(rel: string): SharedFile | undefined {
    return this.shared.get(FOLD_CASE ? rel.toLowerCase() : rel);
  }

  /** The kind of a path relative to the project root, `/`-separated and normalised. */
  kindOfRelative(relativePath: string): GuardedKind | undefined {
    const rel = FOLD_CASE ? relativePath.toLowerCase() : relativePath;
    const own = ownKindOfRelative(rel);
    if (own) return own;
    const shared = this.shared.get(rel);
    if (shared) return shared.kind;
    for (const folder of this.configFolders) if (rel.startsWith(`${FOLD_CASE ? folder.toLowerCase() : folder}/`)) return 'config';
    return undefined;
  }

  /**
   * What kind of guarded file `path` is (absolute, or relative to `root`), or undefined when it is not one.
   * Pure: `./`, `//` and `x/..` are resolved by reading the path, never the disk.
   */
  fileKind(root: string, path: string): GuardedKind | undefined {
    const rel = relativeToRoot(root, path);
    return rel === undefined ? undefined : this.kindOfRelative(rel);
  }

  /**
   * fileKind, and when that finds nothing, the same with symlinks resolved: a project reached through a
   * linked folder (`/tmp` → `/private/tmp`), a file in the project that links into `.isdlc/`, or a folder
   * that does. Only the project's own files count: `.isdlc/` folders below the root (a test fixture) or in
   * another project are not guarded here.
   */
  fileOnDisk(root: string, path: string): GuardedFile | undefined {
    const lexical = relativeToRoot(root, path);
    const lexicalKind = lexical === undefined ? undefined : this.kindOfRelative(lexical);
    if (lexical !== undefined && lexicalKind) return { kind: lexicalKind, relative: lexical };
    const realRoot = realPathOf(resolve(root));
    const realPath = realPathOf(resolve(root, path));
    const relative = realRoot && realPath ? relativeToRoot(realRoot, realPath) : undefined;
    const kind = relative === undefined ? undefined : this.kindOfRelative(relative);
    return relative !== undefined && kind ? { kind, relative } : undefined;
  }

  fileKindOnDisk(root: string, path: string): GuardedKind | undefined {
    return this.fileOnDisk(root, path)?.kind;
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
