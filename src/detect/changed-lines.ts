// What a workflow changed in the project's source code: the lines that differ between the commit HEAD was
// at when the workflow started and the working tree as it is now (committed since, staged or not), and every
// line of source files git does not track and does not ignore. Test files, config files, documents and
// deleted files are no source code to mutate. git is run the way all of isdlc's git runs (clean-git.ts): no
// configuration of the agent's can start a program; it lists files and reads the base commit's, and isdlc
// reads and compares the working tree itself.
import type { SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
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

/** The commit HEAD is at, or null where there is none (no git, no repository, no commit yet). */
export function headCommit(root: string): string | null {
  const result = run(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  const sha = result.status === 0 ? result.stdout.trim() : '';
  return /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/** The object format of the repository's ids: git hashes a blob as `blob <size>\0<content>` with it. */
function objectFormat(root: string): 'sha1' | 'sha256' | undefined {
  const result = run(root, ['rev-parse', '--show-object-format']);
  const format = result.status === 0 ? result.stdout.trim() : '';
  return format === 'sha1' || format === 'sha256' ? format : undefined;
}

/** The blob ids of the files under `root` at commit `base` (paths relative to `root`). */
function filesAt(root: string, base: string): Map<string, string> | string {
  const listed = run(root, ['ls-tree', '-r', '-z', base]);
  if (listed.status !== 0) return `git could not list the files of the base commit: ${failure(listed)}`;
  const out = new Map<string, string>();
  for (const entry of listed.stdout.split('\0')) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (match) out.set(match[2]!, match[1]!);
  }
  return out;
}

/** The contents of blobs by id, read in one `git cat-file --batch` (which applies no filter). */
function blobs(root: string, ids: readonly string[]): Map<string, string> | string {
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const childProcess = process.getBuiltinModule('node:child_process');
  const result = childProcess.spawnSync(gitProgram(root), cleanGitArgs(root, ['cat-file', '--batch']), {
    input: `${ids.join('\n')}\n`,
    env: cleanGitEnv(process.env),
    timeout: TIMEOUT_MS,
    maxBuffer: MAX_OUTPUT,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  if (result.status !== 0) return `git could not read the base commit's files: ${result.error?.message ?? String(result.stderr).trim()}`;
  const data = result.stdout;
  let at = 0;
  for (const id of ids) {
    const end = data.indexOf(10, at);
    const header = data.subarray(at, end).toString('utf8').split(' ');
    const size = Number(header[2]);
    if (header[0] !== id || header[1] !== 'blob' || !Number.isFinite(size)) return `git answered for ${header[0] ?? 'nothing'} where it was asked for ${id}`;
    out.set(id, data.subarray(end + 1, end + 1 + size).toString('utf8'));
    at = end + 1 + size + 1;
  }
  return out;
}

/** The lines of `now` that are not in `then` (changed or added), as ranges of `now`. */
function addedLines(then: string, now: string): LineRange[] {
  const ranges: LineRange[] = [];
  let line = 0;
  for (const part of diffLines(then, now, { stripTrailingCr: true })) {
    const count = part.count;
    if (part.removed) continue;
    if (part.added && count > 0) ranges.push([line + 1, line + count]);
    line += count;
  }
  return ranges;
}

/**
 * The source lines changed in `root` since the commit `base`. git lists the files and gives the base
 * commit's contents; isdlc reads the working tree itself and compares. A `git diff` of the working tree would
 * run the clean filters the repository's config and attributes name, which the agent can write, and this
 * runs outside every sandbox.
 */
export function changedSince(root: string, base: string): ChangedCode {
  if (!/^[0-9a-f]{40,64}$/.test(base)) return { ok: false, why: `the recorded base commit ${JSON.stringify(base)} is not a commit id` };
  const exists = run(root, ['cat-file', '-e', `${base}^{commit}`]);
  if (exists.status !== 0) return { ok: false, why: `the commit the workflow started from (${base.slice(0, 12)}) is not in the repository any more` };
  // History rewritten since (a rebase, a reset to elsewhere): what changed is no longer the difference to the base.
  const ancestor = run(root, ['merge-base', '--is-ancestor', base, 'HEAD']);
  if (ancestor.status === 1)
    return { ok: false, why: `the commit the workflow started from (${base.slice(0, 12)}) is no longer an ancestor of HEAD: the history was rewritten` };
  if (ancestor.status !== 0) return { ok: false, why: `git could not compare HEAD with the base commit: ${failure(ancestor)}` };
  const format = objectFormat(root);
  if (!format) return { ok: false, why: "git could not say how the repository's objects are named" };
  const before = filesAt(root, base);
  if (typeof before === 'string') return { ok: false, why: before };
  const listed = run(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  if (listed.status !== 0) return { ok: false, why: `git could not list the project's files: ${failure(listed)}` };
  const candidates = [...new Set(listed.stdout.split('\0').filter((file) => file && isSourceFile(file)))];
  const changed: { file: string; text: string; was?: string }[] = [];
  for (const file of candidates) {
    const path = join(root, file);
    let bytes: Buffer;
    try {
      if (!lstatSync(path).isFile()) continue;
      bytes = readFileSync(path);
    } catch {
      continue; // deleted: nothing to mutate
    }
    const was = before.get(file);
    const id = createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    if (id !== was) changed.push({ file, text: bytes.toString('utf8'), ...(was ? { was } : {}) });
  }
  const old = blobs(root, [...new Set(changed.flatMap((entry) => (entry.was ? [entry.was] : [])))]);
  if (typeof old === 'string') return { ok: false, why: old };
  const files: ChangedSource[] = [];
  for (const entry of changed) {
    const ranges = entry.was === undefined ? wholeFile(entry.text) : addedLines(old.get(entry.was) ?? '', entry.text);
    if (ranges.length > 0) files.push({ file: entry.file, ranges });
  }
  files.sort((a, b) => a.file.localeCompare(b.file));
  return { ok: true, files, lines: files.reduce((sum, source) => sum + source.ranges.reduce((n, [from, to]) => n + to - from + 1, 0), 0) };
}

/** Every line of a file that is new since the base. */
function wholeFile(text: string): LineRange[] {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return lines > 0 ? [[1, lines]] : [];
}
