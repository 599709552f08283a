// isdlc's guarded files: the ones only isdlc (or the person, for config) should change, because the
// guarantees rest on them. This is the one definition; whatever watches or protects them (the text rules,
// the bashEditDiff signal, later the journal and the sandbox settings) asks here.
//
// Guarded, relative to the project root:
//   .isdlc/**                              everything isdlc keeps: state, config, bin, loop store, logs
//                                          (except the task plan .isdlc/[projects/<id>/]tasks.md, which
//                                          agents write)
//   .claude/settings.json, settings.local.json   where isdlc's hooks are registered
//   .mcp.json                              where isdlc's MCP server is registered
//   docs/isdlc/[projects/<id>/]constitution.md   the constitution (also under .isdlc/)
//   .claude/hooks/config/**                the JavaScript framework's config folder, which isdlc reads
// Not guarded: the `.claude/commands/isdlc.md` and `.claude/agents/*.md` that init installed (users edit them).
// The OS sandbox that runs commands for the agent also keeps what others run as code read-only (RUN_AS_CODE_PATHS).
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export type GuardedKind = 'state' | 'config' | 'bin' | 'loop-store' | 'log' | 'settings' | 'mcp' | 'constitution' | 'other';

/**
 * Files others run as code with the person's rights, outside every sandbox: git's configuration and hooks,
 * and Claude Code's agent, skill and command definitions (the `hooks:` in their frontmatter run from the
 * next session on). Not isdlc's files, but a command written by the agent must not change them either.
 * `.git/` means the repository the project is in, wherever its git folder lives.
 */
export const RUN_AS_CODE_PATHS: readonly string[] = Object.freeze(['.git/config', '.git/hooks', '.claude/agents', '.claude/skills', '.claude/commands']);

/**
 * The guarded set as paths to protect, relative to the project root, for whatever keeps them read-only as
 * a whole (an OS sandbox): a folder stands for everything in it, `*` for one path segment (a project id of
 * a monorepo). Besides isdlc's own files it names RUN_AS_CODE_PATHS.
 */
export const GUARDED_PATHS: readonly string[] = Object.freeze([
  '.isdlc',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.mcp.json',
  'docs/isdlc/constitution.md',
  'docs/isdlc/projects/*/constitution.md',
  '.claude/hooks/config',
  ...RUN_AS_CODE_PATHS,
]);

/** What a guarded file is, in a few words, for messages. */
export const GUARDED_KIND_LABELS: Readonly<Record<GuardedKind, string>> = Object.freeze({
  state: "the workflow's state",
  config: "isdlc's configuration",
  bin: "isdlc's installed program",
  'loop-store': "the iteration loops' store",
  log: "isdlc's activity log",
  settings: "Claude Code's project settings, where isdlc's hooks are registered",
  mcp: 'the MCP server registry, where isdlc\'s server is registered',
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

/** The kind of a path relative to the project root, `/`-separated and normalised. */
export function guardedKindOfRelative(relativePath: string): GuardedKind | undefined {
  const rel = FOLD_CASE ? relativePath.toLowerCase() : relativePath;
  const parts = rel.split('/');
  const [top, second] = parts;
  if (top === '.isdlc') {
    const rest = parts.slice(1);
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
  if (rel === '.claude/settings.json' || rel === '.claude/settings.local.json') return 'settings';
  if (rel === '.mcp.json') return 'mcp';
  if (rel === 'docs/isdlc/constitution.md') return 'constitution';
  if (top === 'docs' && second === 'isdlc' && parts[2] === 'projects' && parts.length === 5 && parts[4] === 'constitution.md') return 'constitution';
  if (top === '.claude' && second === 'hooks' && parts[2] === 'config' && parts.length > 3) return 'config';
  return undefined;
}

/** `path` relative to `root`, `/`-separated, or undefined when it is the root itself or outside it. */
export function relativeToRoot(root: string, path: string): string | undefined {
  const rel = relative(resolve(root), resolve(root, path));
  if (rel === '' || isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`)) return undefined;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/**
 * What kind of guarded file `path` is (absolute, or relative to `root`), or undefined when it is not one.
 * Pure: `./`, `//` and `x/..` are resolved by reading the path, never the disk.
 */
export function guardedFileKind(root: string, path: string): GuardedKind | undefined {
  const rel = relativeToRoot(root, path);
  return rel === undefined ? undefined : guardedKindOfRelative(rel);
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
 * guardedFileKind, and when that finds nothing, the same with symlinks resolved: a project reached through
 * a linked folder (`/tmp` → `/private/tmp`), a file in the project that links into `.isdlc/`, or a folder
 * that does. Only the project's own files count: `.isdlc/` folders below the root (a test fixture) or in
 * another project are not guarded here.
 */
export function guardedFileOnDisk(root: string, path: string): GuardedFile | undefined {
  const lexical = relativeToRoot(root, path);
  const lexicalKind = lexical === undefined ? undefined : guardedKindOfRelative(lexical);
  if (lexical !== undefined && lexicalKind) return { kind: lexicalKind, relative: lexical };
  const realRoot = realPathOf(resolve(root));
  const realPath = realPathOf(resolve(root, path));
  const relative = realRoot && realPath ? relativeToRoot(realRoot, realPath) : undefined;
  const kind = relative === undefined ? undefined : guardedKindOfRelative(relative);
  return relative !== undefined && kind ? { kind, relative } : undefined;
}

export function guardedFileKindOnDisk(root: string, path: string): GuardedKind | undefined {
  return guardedFileOnDisk(root, path)?.kind;
}
