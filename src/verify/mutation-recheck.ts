// The mutation tool's word that a test caught a mutant, checked by isdlc for a few of them. The tool switches
// mutants on inside the running tests, through a global of its own, so a test can notice the tool rather
// than the change: fail whenever a mutant is active, and every mutant counts as caught. isdlc makes the same
// change to a copy of the project itself, as plain source, and runs the project's test command there the
// way the gate runs it (OS sandbox, a person's environment). A suite that passes with the change in the
// file did not catch it.
import { randomInt } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { listedFiles } from '../detect/worktree-digest.js';
import type { KilledMutant } from '../testwatch/mutation-report.js';
import type { OsSandboxSupport } from '../sandbox/os-sandbox.js';
import { classifyRun } from '../testwatch/classify.js';
import { runIsolated, type RunIsolation } from './gate-run.js';

/** How many of the caught mutants are made by hand: each costs one run of the suite. */
export const RECHECKED = 3;
/** A project larger than this is not copied: the check is skipped, and says so. */
const MAX_COPY_BYTES = 256 * 1024 * 1024;

export interface Recheck {
  file: string;
  line: number;
  mutator: string;
  original?: string;
  replacement: string;
  killed_by: string[];
  /** caught: the suite failed with the change in the file; not caught: it passed; unknown: no answer (`why`). */
  result: 'caught' | 'not caught' | 'unknown';
  why?: string;
  exit_code?: number | null;
  duration_ms: number;
}

export interface RecheckInput {
  root: string;
  killed: readonly KilledMutant[];
  /** The project's test command (testing.json). */
  command: string;
  isolation: RunIsolation;
  sandbox?: OsSandboxSupport;
  timeoutMinutes: number;
  /** Picks `count` of `total` (tests pass a fixed choice); random by default, so no test can know which. */
  pick?: (total: number, count: number) => number[];
}

function randomPick(total: number, count: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(total, count)) chosen.add(randomInt(total));
  return [...chosen];
}

/** `source` with the text at `location` (lines and columns from 1, the end column exclusive) replaced. */
export function applyMutant(source: string, location: KilledMutant['location'], replacement: string): string | undefined {
  const lines = source.split('\n');
  const offset = (line: number, column: number): number | undefined => {
    if (line < 1 || line > lines.length || column < 1 || column - 1 > lines[line - 1]!.length) return undefined;
    let at = 0;
    for (let i = 0; i < line - 1; i += 1) at += lines[i]!.length + 1;
    return at + column - 1;
  };
  const start = offset(location.start.line, location.start.column);
  const end = offset(location.end.line, location.end.column);
  if (start === undefined || end === undefined || end < start) return undefined;
  return source.slice(0, start) + replacement + source.slice(end);
}

/**
 * A copy of the project's files (as git lists them) in a folder of its own inside the project: the gate's
 * sandbox makes the project writable and hides the machine's temp folders. Where the project has a
 * node_modules, the copy goes in its `.cache` (where tools keep their scratch files, ignored with it) and
 * links it; elsewhere in `.isdlc-mutant/`, removed with the copy.
 */
function copyProject(root: string): { dir: string; parent: string } | { why: string } {
  const files = listedFiles(root);
  if (!files) return { why: 'git cannot list the project’s files' };
  let bytes = 0;
  for (const file of files) {
    try {
      bytes += lstatSync(join(root, file)).size;
    } catch {
      // gone since the listing: not copied
    }
  }
  if (bytes > MAX_COPY_BYTES) return { why: `the project's files come to ${Math.round(bytes / 1024 / 1024)} MB, more than isdlc copies for it` };
  const modules = join(root, 'node_modules');
  const withModules = existsSync(modules) && lstatSync(modules).isDirectory();
  // isdlc writes here with the person's rights: a link the agent left in a folder's place could send the copy
  // anywhere, so a folder that is not a plain one of the project's is passed over.
  const parent = [...(withModules ? [join(modules, '.cache')] : []), join(root, '.isdlc-mutant')].find((folder) => plainFolder(root, folder));
  if (!parent) return { why: `neither node_modules/.cache nor .isdlc-mutant is a plain folder of the project` };
  const dir = mkdtempSync(join(parent, 'isdlc-mutant-'));
  for (const file of files) {
    const from = join(root, file);
    try {
      const stat = lstatSync(from);
      if (!stat.isFile()) continue;
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      copyFileSync(from, join(dir, file));
    } catch {
      // gone since the listing
    }
  }
  if (withModules) symlinkSync(modules, join(dir, 'node_modules'));
  return { dir, parent };
}

/** `folder` exists (made where it was not) as a folder of the project's, not a link out of it. */
function plainFolder(root: string, folder: string): boolean {
  try {
    mkdirSync(folder, { recursive: true });
    return lstatSync(folder).isDirectory() && realpathSync(folder) === join(realpathSync(root), relative(root, folder));
  } catch {
    return false;
  }
}

async function recheckOne(input: RecheckInput, mutant: KilledMutant): Promise<Recheck> {
  const started = Date.now();
  const said = {
    file: mutant.file,
    line: mutant.line,
    mutator: mutant.mutator,
    ...(mutant.original !== undefined ? { original: mutant.original } : {}),
    replacement: mutant.replacement.slice(0, 60),
    killed_by: mutant.killed_by.slice(0, 3),
  };
  const unknown = (why: string): Recheck => ({ ...said, result: 'unknown', why, duration_ms: Date.now() - started });
  let current: string;
  try {
    current = readFileSync(join(input.root, mutant.file), 'utf8');
  } catch (error) {
    return unknown(`${mutant.file} cannot be read (${(error as Error).message})`);
  }
  if (current !== mutant.source) return unknown(`${mutant.file} changed while the mutation tool ran`);
  const mutated = applyMutant(current, mutant.location, mutant.replacement);
  if (mutated === undefined) return unknown(`the mutant's place is not in ${mutant.file}`);
  const copy = copyProject(input.root);
  if ('why' in copy) return unknown(copy.why);
  try {
    writeFileSync(join(copy.dir, mutant.file), mutated);
    // The sandbox is the project's, as for the gate's test run; the suite starts in the copy inside it.
    const run = await runIsolated({
      root: input.root,
      cwd: copy.dir,
      command: input.command,
      isolation: input.isolation,
      timeoutMinutes: input.timeoutMinutes,
      ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    });
    const { outcome } = run;
    if (outcome.timedOut) return unknown(`the suite was still running after ${input.timeoutMinutes} min with the change`);
    if (outcome.spawnError && !outcome.started) return unknown(`\`${input.command}\` could not be started: ${outcome.spawnError.message}`);
    if (outcome.code === null) return unknown(`\`${input.command}\` was killed by ${outcome.signal ?? 'a signal'}`);
    // Judged as the gate judges its own run: a failure is a failing test the runner reports, not a suite that
    // could not start (a missing program, a broken copy), which proves nothing either way.
    const judged = classifyRun({
      outcome: { failed: outcome.code !== 0, text: outcome.outputTail, exitCode: outcome.code, interrupted: false, backgrounded: false },
      command: input.command,
      exitStatus: 'own',
      reporter: null,
    });
    if (judged.result === 'inconclusive' || (judged.result === 'failed' && !judged.summary))
      return { ...unknown(`the suite with the change proved nothing: ${judged.basis}`), exit_code: outcome.code };
    return { ...said, result: judged.result === 'passed' ? 'not caught' : 'caught', exit_code: outcome.code, duration_ms: Date.now() - started };
  } finally {
    rmSync(copy.dir, { recursive: true, force: true });
    try {
      rmdirSync(copy.parent);
    } catch {
      // not empty (another copy, or the tools' own cache): left as it is
    }
  }
}

/** Makes up to RECHECKED of the caught mutants by hand, one at a time, and says what the suite did with each. */
export async function recheckKills(input: RecheckInput): Promise<Recheck[]> {
  const picked = (input.pick ?? randomPick)(input.killed.length, RECHECKED).map((index) => input.killed[index]!);
  const out: Recheck[] = [];
  for (const mutant of picked) {
    const checked = await recheckOne(input, mutant);
    out.push(checked);
    // One is enough to refuse; the rest would only cost time.
    if (checked.result === 'not caught') break;
  }
  return out;
}
