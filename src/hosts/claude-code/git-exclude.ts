// Inside Claude Code's sandbox, a file the sandbox keeps read-only but which does not exist yet shows up
// as a placeholder (a character device) in the agent's shell, and `git add -A` stops at the first one
// ("can only add regular files"). So init lists those names, anchored to the project root, in the
// repository's `.git/info/exclude` (never in a tracked file), inside a block of its own that uninstall
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

const BEGIN = "# isdlc: names that only exist as read-only placeholders inside Claude Code's sandbox (git cannot add them).";
const NOTE = '# Delete a line if you create that file and want it in git; `isdlc uninstall` removes this block.';
const END = '# isdlc: end';

/** The repository's exclude file for a project root, or undefined when the project is not in a git repository. */
export function gitExcludeFile(root: string): string | undefined {
  const run = spawnSync(gitProgram(root), cleanGitArgs(root, ['rev-parse', '--git-path', 'info/exclude']), {
    cwd: root,
    env: cleanGitEnv(process.env),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 10_000,
  });
  if (run.status === 0 && run.stdout.trim()) {
    const path = run.stdout.trim();
    return isAbsolute(path) ? path : join(root, path);
  }
  // No git on PATH: a plain `.git` folder is still found.
  return existsSync(join(root, '.git', 'HEAD')) ? join(root, '.git', 'info', 'exclude') : undefined;
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

/** The names to list for a project: the placeholders and protected files that do not exist there. */
export function missingPlaceholders(root: string, protectedFiles: readonly string[]): string[] {
  const names = [...new Set([...CLAUDE_PLACEHOLDERS, ...protectedFiles])];
  return names.filter((name) => existsSync(join(root, dirname(name))) && !existsSync(join(root, name)));
}

export type ExcludeChange = 'created' | 'updated' | 'unchanged' | 'removed' | 'deleted' | 'no-repository';

/**
 * Writes isdlc's block into the exclude file (an empty list takes it out). `keep` is told what the file
 * held (undefined: no file) before a block goes into a file that has none. Taking the block out gives back
 * `original` byte for byte (a missing final line end, no file at all) when the rest is what it held.
 */
export function updateGitExclude(
  root: string,
  names: readonly string[],
  options: { keep?: (before: string | undefined) => void; original?: Original } = {},
): { change: ExcludeChange; file?: string } {
  const file = gitExcludeFile(root);
  if (!file) return { change: 'no-repository' };
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  let after: string | undefined = withOurBlock(before ?? '', names);
  if (names.length === 0 && options.original) {
    const original = options.original;
    // The block was put after a line end of its own where the file had none.
    if ('absent' in original && after === '') after = undefined;
    else if ('text' in original && (after === original.text || after === `${original.text}\n`)) after = original.text;
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
