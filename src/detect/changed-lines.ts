// What a workflow changed in the project's source code: the lines that differ between the commit HEAD was
// at when the workflow started and the working tree as it is now (committed since, staged or not), and every
// line of source files git does not track and does not ignore. Test files, config files, documents and
// deleted files are no source code to mutate. git is run the way all of isdlc's git runs (clean-git.ts): no
// configuration of the agent's can start a program, and no textconv or external diff driver runs.
import type { SpawnSyncReturns } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanGitArgs, cleanGitEnv, gitProgram } from './clean-git.js';

/** Lines of one file, 1-based and inclusive. */
export type LineRange = readonly [start: number, end: number];

export interface ChangedSource {
  file: string;
  ranges: LineRange[];
}

export type ChangedCode = { ok: true; files: ChangedSource[]; lines: number } | { ok: false; why: string };

const TIMEOUT_MS = 30_000;
const MAX_OUTPUT = 64 * 1024 * 1024;

/** Source code by its extension; what has none of these (documents, data, config formats) is not mutated. */
const SOURCE_EXTENSIONS = new Set([
  'js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts', 'cts', 'vue', 'svelte',
  'py', 'go', 'rs', 'java', 'kt', 'kts', 'scala', 'rb', 'php', 'cs', 'fs', 'swift', 'c', 'cc', 'cpp', 'cxx', 'h', 'hpp', 'ex', 'exs', 'dart',
]); // prettier-ignore

/** Folders that hold tests (or code that is not the project's). */
const NOT_SOURCE_FOLDERS = new Set(['test', 'tests', '__tests__', '__mocks__', 'spec', 'node_modules', '.isdlc', '.git']);

/** Whether `file` (relative, with `/`) is source code the workflow's tests are meant to test. */
export function isSourceFile(file: string): boolean {
  const parts = file.split('/');
  const name = parts.at(-1)!;
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (!extension || !SOURCE_EXTENSIONS.has(extension)) return false;
  if (parts.slice(0, -1).some((folder) => NOT_SOURCE_FOLDERS.has(folder) || folder.startsWith('.'))) return false;
  if (name.startsWith('.')) return false;
  // foo.test.js, foo.spec.ts, foo_test.go, test_foo.py, foo_test.py, conftest.py
  if (/\.(?:test|spec|e2e|bench)\.[^.]+$/i.test(name) || /_test\.[^.]+$/.test(name) || /^test_.*\.py$/.test(name) || name === 'conftest.py') return false;
  // vitest.config.ts, eslint.config.mjs, stryker.conf.js, babel.config.cjs, webpack.config.js
  if (/\.(?:config|conf|rc)\.[^.]+$/i.test(name)) return false;
  return true;
}

function run(root: string, args: string[]): SpawnSyncReturns<string> {
  const childProcess = process.getBuiltinModule('node:child_process');
  return childProcess.spawnSync(gitProgram(root), cleanGitArgs(root, args), {
    encoding: 'utf8',
    env: cleanGitEnv(process.env),
    timeout: TIMEOUT_MS,
    maxBuffer: MAX_OUTPUT,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
}

function failure(result: SpawnSyncReturns<string>): string {
  if (result.error) return result.error.message;
  return (result.stderr || `git exited ${String(result.status)}`).trim().split('\n')[0]!;
}

/** A path as `git diff` prints it after `+++ b/`: plain, or C-quoted when it holds unusual characters. */
function diffPath(text: string): string {
  if (!text.startsWith('"')) return text;
  try {
    // git's quoting escapes as JSON does for the characters it uses (\", \\, \t, \n) and octal for bytes.
    const octal = text.replace(/\\([0-7]{3})/g, (_, digits: string) => `\\u00${parseInt(digits, 8).toString(16).padStart(2, '0')}`);
    const latin = JSON.parse(octal) as string;
    return Buffer.from(latin, 'latin1').toString('utf8');
  } catch {
    return text;
  }
}

/** The added lines of each file in a `git diff -U0` output, as ranges of the new file. */
export function addedRanges(diff: string): Map<string, LineRange[]> {
  const out = new Map<string, LineRange[]>();
  let current: LineRange[] | undefined;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) {
      const target = line.slice(4);
      current = target === '/dev/null' ? undefined : [];
      if (current) out.set(diffPath(target).replace(/^b\//, ''), current);
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (!hunk || !current) continue;
    const start = Number(hunk[1]);
    const count = hunk[2] === undefined ? 1 : Number(hunk[2]);
    if (count > 0) current.push([start, start + count - 1]);
  }
  for (const [file, ranges] of out) if (ranges.length === 0) out.delete(file);
  return out;
}

function lineCount(path: string): number {
  try {
    const text = readFileSync(path, 'utf8');
    if (text === '') return 0;
    return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  } catch {
    return 0;
  }
}

/** The commit HEAD is at, or null where there is none (no git, no repository, no commit yet). */
export function headCommit(root: string): string | null {
  const result = run(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  const sha = result.status === 0 ? result.stdout.trim() : '';
  return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/** The source lines changed in `root` since the commit `base`. */
export function changedSince(root: string, base: string): ChangedCode {
  if (!/^[0-9a-f]{40,64}$/.test(base)) return { ok: false, why: `the recorded base commit ${JSON.stringify(base)} is not a commit id` };
  const exists = run(root, ['cat-file', '-e', `${base}^{commit}`]);
  if (exists.status !== 0) return { ok: false, why: `the commit the workflow started from (${base.slice(0, 12)}) is not in the repository any more` };
  // History rewritten since (a rebase, a reset to elsewhere): what changed is no longer the difference to the base.
  const ancestor = run(root, ['merge-base', '--is-ancestor', base, 'HEAD']);
  if (ancestor.status === 1)
    return { ok: false, why: `the commit the workflow started from (${base.slice(0, 12)}) is no longer an ancestor of HEAD: the history was rewritten` };
  if (ancestor.status !== 0) return { ok: false, why: `git could not compare HEAD with the base commit: ${failure(ancestor)}` };
  const diff = run(root, [
    'diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', '--relative', '-U0',
    '--src-prefix=a/', '--dst-prefix=b/', '--diff-filter=d', base, '--',
  ]); // prettier-ignore
  if (diff.status !== 0) return { ok: false, why: `git diff from the base commit failed: ${failure(diff)}` };
  const files = addedRanges(diff.stdout);
  const untracked = run(root, ['ls-files', '-z', '--others', '--exclude-standard']);
  if (untracked.status !== 0) return { ok: false, why: `git could not list the untracked files: ${failure(untracked)}` };
  for (const file of untracked.stdout.split('\0').filter(Boolean)) {
    if (!isSourceFile(file)) continue;
    const lines = lineCount(join(root, file));
    if (lines > 0) files.set(file, [[1, lines]]);
  }
  const sources = [...files]
    .filter(([file]) => isSourceFile(file))
    .map(([file, ranges]) => ({ file, ranges }))
    .sort((a, b) => a.file.localeCompare(b.file));
  return { ok: true, files: sources, lines: sources.reduce((sum, source) => sum + source.ranges.reduce((n, [from, to]) => n + to - from + 1, 0), 0) };
}
