// Inside Claude Code's sandbox, a name the sandbox keeps read-only but which does not exist yet shows up in
// the agent's shell as a mount: a placeholder (a character device) where its folder exists, else an empty
// read-only folder at the first folder on the way that does not (`.claude/hooks` for `.claude/hooks/config`).
// `git add -A` stops at a placeholder ("can only add regular files"), and `git stash -u` / `git clean -d`
// cannot remove such a folder ("Device or resource busy"): the stash is saved, the work tree is not
// cleaned and the stash is never popped. So init lists those names, anchored to the project's folder, in
// the repository's `.git/info/exclude` (never in a tracked file), inside a block of its own that uninstall
// takes out again. Only names that do not exist are listed: a real file is not hidden from git.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { cleanGitArgs, cleanGitEnv, gitProgram } from '../../detect/clean-git.js';
import type { Original } from '../../install/originals.js';
import { writeFileAtomic } from '../../state/atomic-write.js';

/**
 * Names Claude Code 2.1.332 shows as placeholders at the project root and in `.claude/` when they are
 * missing (seen by listing them from a sandboxed Bash call: docs/sandbox.md).
 */
export const CLAUDE_PLACEHOLDERS: readonly string[] = Object.freeze([
  '.bash_profile',
  '.bashrc',
  '.gitconfig',
  '.gitmodules',
  '.idea',
  '.profile',
  '.ripgreprc',
  '.vscode',
  '.zprofile',
  '.zshrc',
  '.mcp.json',
  '.claude/launch.json',
  '.claude/loop.md',
  '.claude/output-styles',
  '.claude/routines',
  '.claude/scheduled_tasks.json',
  '.claude/settings.local.json',
  '.claude/skills',
  '.claude/workflows',
  '.claude/agents',
  '.claude/commands',
]);

/**
 * Claude Code's own staging folder for its settings writes: an empty folder it makes outside the sandbox and
 * binds read-only inside, never anyone's work. Claude Code asks git to ignore it in the user's global
 * gitignore, which not every setup reads; listed whether it exists or not.
 */
export const CLAUDE_SCRATCH: readonly string[] = Object.freeze(['.claude/.cc-writes']);

const BEGIN = "# isdlc: names that only exist as read-only placeholders inside Claude Code's sandbox (git cannot add them).";
const NOTE = '# Delete a line if you create that file and want it in git; `isdlc uninstall` removes this block.';
const END = '# isdlc: end';

/** The repository's exclude file, and where the project is in the work tree (`''` at its top, else `sub/dir/`). */
export interface GitExclude {
  file: string;
  prefix: string;
}

/** The repository's exclude file for a project root, or undefined when the project is not in a git repository. */
export function gitExcludeFile(root: string): GitExclude | undefined {
  const run = spawnSync(gitProgram(root), cleanGitArgs(root, ['rev-parse', '--git-path', 'info/exclude', '--show-prefix']), {
    cwd: root,
    env: cleanGitEnv(process.env),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 10_000,
  });
  const [path, prefix = ''] = run.status === 0 ? run.stdout.split('\n') : [];
  if (path) return { file: isAbsolute(path) ? path : join(root, path), prefix };
  // No git on PATH: a plain `.git` folder is still found.
  return existsSync(join(root, '.git', 'HEAD')) ? { file: join(root, '.git', 'info', 'exclude'), prefix: '' } : undefined;
}

/** `text` without isdlc's block. */
export function withoutOurBlock(text: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(BEGIN);
  if (start < 0) return text;
  const end = lines.indexOf(END, start);
  if (end < 0) return text;
  return [...lines.slice(0, start), ...lines.slice(end + 1)].join('\n');
}

/** `text` with isdlc's block listing `names` (none: no block). */
export function withOurBlock(text: string, names: readonly string[]): string {
  const base = withoutOurBlock(text);
  if (names.length === 0) return base;
  const block = [BEGIN, NOTE, ...names.map((name) => `/${name}`), END].join('\n');
  const sep = base === '' || base.endsWith('\n') ? '' : '\n';
  return `${base}${sep}${block}\n`;
}

/**
 * Where the sandbox mounts something for a protected path that does not exist: the path itself where its
 * folder exists, else the first folder on the way that does not. Undefined when the path exists.
 */
export function mountPointFor(root: string, path: string): string | undefined {
  const parts = path.split('/');
  for (let end = 1; end <= parts.length; end++) {
    const prefix = parts.slice(0, end).join('/');
    if (!existsSync(join(root, prefix))) return prefix;
  }
  return undefined;
}

/**
 * The names to list for a project: the placeholders Claude Code makes whose folder exists, its staging
 * folder, and the mount point of each protected path that does not exist (git's own folder aside: it is no
 * part of the work tree).
 */
export function sandboxMountNames(root: string, protectedPaths: readonly string[]): string[] {
  const placeholders = CLAUDE_PLACEHOLDERS.filter((name) => existsSync(join(root, dirname(name))) && !existsSync(join(root, name)));
  const mounts = protectedPaths
    .filter((path) => path !== '.git' && !path.startsWith('.git/'))
    .map((path) => mountPointFor(root, path))
    .filter((name): name is string => name !== undefined);
  return [...new Set([...placeholders, ...CLAUDE_SCRATCH, ...mounts])];
}

export type ExcludeChange = 'created' | 'updated' | 'unchanged' | 'removed' | 'deleted' | 'no-repository';

/**
 * Writes isdlc's block into the exclude file (an empty list takes it out); `names` are relative to the
 * project root. `keep` is told what the file held (undefined: no file) before a block goes into a file that
 * has none. Taking the block out gives back `original` byte for byte (a missing final line end, no file at
 * all) when the rest is what it held.
 */
export function updateGitExclude(
  root: string,
  names: readonly string[],
  options: { keep?: (before: string | undefined) => void; original?: Original } = {},
): { change: ExcludeChange; file?: string } {
  const target = gitExcludeFile(root);
  if (!target) return { change: 'no-repository' };
  const { file, prefix } = target;
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  let after: string | undefined = withOurBlock(
    before ?? '',
    names.map((name) => `${prefix}${name}`),
  );
  if (names.length === 0 && options.original) {
    const original = options.original;
    // The block was put after a line end of its own where the file had none.
    if ('absent' in original && after === '') after = undefined;
    else if (
      'text' in original &&
      (after === original.text ||
        after ===
          `${original.text}
`)
    )
      after = original.text;
  }
  if (after === before || (after === '' && before === undefined)) return { change: 'unchanged', file };
  if (after === undefined) {
    rmSync(file);
    return { change: 'deleted', file };
  }
  if (names.length > 0 && withoutOurBlock(before ?? '') === (before ?? '')) options.keep?.(before);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, after);
  if (before === undefined) return { change: 'created', file };
  return { change: names.length === 0 ? 'removed' : 'updated', file };
}
