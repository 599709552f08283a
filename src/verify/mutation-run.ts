// The gate's mutation run: after the gate's own test run passed, isdlc mutates the code the workflow changed
// (the changed line ranges, nothing else) and reads the tool's report to see whether the tests notice. It
// runs the way the test run does (verify/gate-run.ts runIsolated: the OS sandbox, a person's environment,
// its own process group and time budget). The report must be written by this run; one that is missing,
// older, not the shape of a mutation-testing report, or from a run that timed out or crashed measures
// nothing.
import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { journaledWrite } from '../integrity/journal.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { MutationTool } from '../config/detect-mutation.js';
import type { ChangedSource } from '../detect/changed-lines.js';
import { killedOnChanged, measureChanged, readMutationReport, type MutantCounts, type Survivor } from '../testwatch/mutation-report.js';
import { shadowedProgram } from './gate-environment.js';
import { runIsolated, type GateProgress, type RunIsolation } from './gate-run.js';
import { recheckKills, type Recheck, type RecheckInput } from './mutation-recheck.js';
import type { OsSandboxSupport } from '../sandbox/os-sandbox.js';

/** Kept in state: enough to name what to fix, not the whole report. */
export const SURVIVORS_KEPT = 20;
const EXCERPT_LINES = 12;

/** One mutation run the gate made, as recorded in state (`active_workflow.mutation_runs`). */
export interface MutationRun {
  phase: string;
  /** When it started. */
  at: string;
  command: string;
  /** The commit the changed code is measured from. */
  base_commit: string;
  changed: { files: number; lines: number };
  /** The score the phase required. */
  threshold: number;
  /** measured: this run's report was read; unknown: it measured nothing (`why`). */
  result: 'measured' | 'unknown';
  why?: string;
  timed_out?: boolean;
  /** Tests that passed in the gate's test run failed in the mutation tool's unmutated run. */
  behaves_differently?: boolean;
  /** Caught over counted, on the changed lines; null where no mutant there counts. */
  score?: number | null;
  counts?: MutantCounts;
  /** Mutants on the changed lines, counted or not. */
  mutants?: number;
  /** The first of them (SURVIVORS_KEPT), and how many there were. */
  survivors?: Survivor[];
  survivors_total?: number;
  /** The report read, relative to the root. */
  report: string;
  exit_code: number | null;
  duration_ms: number;
  sandboxed: boolean;
  unsandboxed_because?: string;
  /** The last lines the run printed, where it measured nothing. */
  excerpt?: string;
  /** Caught mutants isdlc made by hand in a copy of the project, and what the test command did with each. */
  rechecked?: Recheck[];
}

export interface MutationRunInput {
  root: string;
  phase: string;
  threshold: number;
  tool: MutationTool;
  baseCommit: string;
  changed: readonly ChangedSource[];
  timeoutMinutes: number;
  isolation: RunIsolation;
  sandbox?: OsSandboxSupport;
  onProgress?: (progress: GateProgress) => void;
  /** false: every mutant runs, whatever isdlc kept from the last run. */
  incremental?: boolean;
  /** The project's test command, to make a few of the caught mutants by hand with (mutation-recheck.ts). */
  recheck?: { command: string; timeoutMinutes: number; pick?: RecheckInput['pick'] };
}

/**
 * Stryker's incremental file, the results of the last run isdlc judged: kept in isdlc's own folder (guarded,
 * written through the journal), and handed to each run as a fresh copy in the project, which the sandboxed
 * run can read and write (it cannot write `.isdlc/`). A file the agent left at the handed path is replaced
 * first, so Stryker reuses only results isdlc kept.
 */
export const KEPT_INCREMENTAL = '.isdlc/mutation/stryker-incremental.json';
export const HANDED_INCREMENTAL = 'reports/mutation/isdlc-incremental.json';

/** The handed copy in place (or none, for a first run), false where its folder is not a plain one of the project's. */
function handIncremental(root: string): boolean {
  for (let dir = dirname(HANDED_INCREMENTAL); dir !== '.'; dir = dirname(dir)) {
    const stats = lstatSync(join(root, dir), { throwIfNoEntry: false });
    if (stats && !stats.isDirectory()) return false; // a link: isdlc writes nowhere it leads
  }
  const handed = join(root, HANDED_INCREMENTAL);
  try {
    mkdirSync(dirname(handed), { recursive: true });
    rmSync(handed, { force: true });
    let kept: Buffer | undefined;
    try {
      kept = readFileSync(join(root, KEPT_INCREMENTAL));
    } catch {
      kept = undefined; // none yet: Stryker runs every mutant and writes the file
    }
    // Exclusive: never through a link made between the removal and the write.
    if (kept) writeFileSync(handed, kept, { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/** After a run isdlc measured: Stryker's incremental file, when this run wrote it and it is a report, kept for the next. */
function keepIncremental(root: string, since: number, until: number): void {
  const written = freshReport(join(root, HANDED_INCREMENTAL), since, until);
  if ('why' in written || !readMutationReport(written.text).ok) return;
  const content = Buffer.from(written.text);
  const path = join(root, KEPT_INCREMENTAL);
  journaledWrite(root, KEPT_INCREMENTAL, content, () => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, content);
  });
}

/** One word for the shell the command runs in: as it is where it is plain, else single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const quote = (words: readonly string[]): string => words.map(shellWord).join(' ');

/** Stryker's `--mutate` patterns for the changed ranges: `src/a.js:3-7,src/b.ts:1-40`. */
export function strykerRanges(changed: readonly ChangedSource[]): string {
  return changed.flatMap((source) => source.ranges.map(([from, to]) => `${source.file}:${from}-${to}`)).join(',');
}

/**
 * The command line the gate runs: for Stryker, the configured command with the changed ranges, the json
 * reporter and (detected, without a config file) the runner plugin; for another tool, `{files}` replaced by
 * the changed files, shell-quoted.
 */
export function mutationCommandLine(tool: MutationTool, changed: readonly ChangedSource[], incremental = false): string {
  const files = changed.map((source) => source.file);
  if (tool.command.includes('{files}')) return tool.command.split('{files}').join(quote(files));
  if (!tool.stryker) return tool.command;
  const flags = [
    '--mutate',
    strykerRanges(changed),
    '--reporters',
    'json',
    ...(tool.testRunner ? ['--testRunner', tool.testRunner] : []),
    ...(incremental ? ['--incremental', '--incrementalFile', HANDED_INCREMENTAL] : []),
  ];
  return `${tool.command} ${quote(flags)}`;
}

/** What the run said about why it ended: from its first error line where it printed one, else its last lines; npm's notices left out. */
function excerptOf(text: string): string {
  const lines = text
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .split('\n')
    .filter((line) => line.trim() && !/^npm (notice|warn)\b/.test(line));
  const error = lines.findIndex((line) => /\bERROR\b/.test(line));
  return (error >= 0 ? lines.slice(error, error + EXCERPT_LINES) : lines.slice(-EXCERPT_LINES)).join('\n').slice(0, 800);
}

/**
 * The tests Stryker saw failing in its first, unmutated run, where that is why it stopped. They passed in
 * the gate's own test run just before, so they fail only where Stryker runs them: in its copy of the
 * project, where isdlc's files are writable again.
 */
export function failedInitialRun(text: string): string[] | undefined {
  const plain = text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
  const at = plain.indexOf('One or more tests failed in the initial test run:');
  if (at < 0) return undefined;
  const names: string[] = [];
  for (const line of plain.slice(at).split('\n').slice(1)) {
    if (!line.startsWith('\t')) break;
    // A test's name is indented once, the reason under it twice.
    if (!line.startsWith('\t\t')) names.push(line.trim());
  }
  return names;
}

/** The report, when this run wrote it: one dated before the run is an earlier run's, one after it was made to look new. */
function freshReport(path: string, since: number, until: number): { text: string } | { why: string } {
  let written: number;
  try {
    written = statSync(path).mtimeMs;
  } catch {
    return { why: 'it wrote no report there' };
  }
  if (written + 1000 < since) return { why: 'the report there is older than this run (an earlier run wrote it)' };
  if (written > until + 1000) return { why: 'the report there is dated after the run ended' };
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    return { why: `the report cannot be read (${(error as Error).message})` };
  }
}

export async function runMutation(input: MutationRunInput): Promise<MutationRun> {
  const { root, tool } = input;
  const incremental = tool.stryker && !tool.command.includes('{files}') && input.incremental !== false && handIncremental(root);
  const command = mutationCommandLine(tool, input.changed, incremental);
  const startedAt = new Date();
  const started = startedAt.getTime();
  const base = {
    phase: input.phase,
    at: startedAt.toISOString(),
    command,
    base_commit: input.baseCommit,
    changed: {
      files: input.changed.length,
      lines: input.changed.reduce((sum, source) => sum + source.ranges.reduce((n, [from, to]) => n + to - from + 1, 0), 0),
    },
    threshold: input.threshold,
    report: tool.report,
  };
  const shadow = shadowedProgram(root, command);
  if (shadow) {
    return {
      ...base,
      result: 'unknown',
      why: `\`${tool.command}\` was not run: ${shadow}; a person removes it`,
      exit_code: null,
      duration_ms: 0,
      sandboxed: false,
    };
  }
  const isolated = await runIsolated({
    root,
    command,
    isolation: input.isolation,
    timeoutMinutes: input.timeoutMinutes,
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
  });
  const { outcome } = isolated;
  const ended = Date.now();
  const ran = {
    ...base,
    exit_code: outcome.code,
    duration_ms: ended - started,
    sandboxed: isolated.sandboxed,
    ...(isolated.unsandboxedBecause ? { unsandboxed_because: isolated.unsandboxedBecause } : {}),
  };
  const unknown = (why: string, extra: Partial<MutationRun> = {}): MutationRun => ({
    ...ran,
    result: 'unknown',
    why,
    ...(outcome.outputTail ? { excerpt: excerptOf(outcome.outputTail) } : {}),
    ...extra,
  });
  if (outcome.spawnError && !outcome.started) return unknown(`it could not be started: ${outcome.spawnError.message}`);
  if (outcome.timedOut)
    return unknown(
      `it was still running after ${input.timeoutMinutes} min (mutation_timeout_minutes in testing.json) and was stopped with everything it started`,
      {
        timed_out: true,
      },
    );
  if (outcome.code === null) return unknown(`it was killed by ${outcome.signal ?? 'a signal'}`);
  const path = isAbsolute(tool.report) ? tool.report : join(root, tool.report);
  const report = freshReport(path, started, ended);
  const exited = outcome.code === 0 ? '' : ` (it exited ${outcome.code})`;
  const failing = failedInitialRun(outcome.outputTail);
  if (failing && failing.length > 0) {
    return unknown(
      `the tests that passed in the gate's test run failed when ${tool.stryker ? 'Stryker' : 'the mutation tool'} ran them without any mutant (${failing
        .slice(0, 5)
        .map((name) => `\`${name}\``)
        .join(', ')}${failing.length > 5 ? `, and ${failing.length - 5} more` : ''}): a test that behaves differently depending on where it runs`,
      { behaves_differently: true },
    );
  }
  if ('why' in report) return unknown(`${tool.report}: ${report.why}${exited}`);
  const read = readMutationReport(report.text);
  if (!read.ok) return unknown(`${tool.report} is not a mutation-testing report: ${read.why}`);
  const measure = measureChanged(read.report, input.changed, root);
  const killed = input.recheck ? killedOnChanged(read.report, input.changed, root) : [];
  const rechecked =
    input.recheck && killed.length > 0
      ? await recheckKills({
          root,
          killed,
          command: input.recheck.command,
          isolation: input.isolation,
          timeoutMinutes: input.recheck.timeoutMinutes,
          ...(input.sandbox ? { sandbox: input.sandbox } : {}),
          ...(input.recheck.pick ? { pick: input.recheck.pick } : {}),
        })
      : [];
  // Results a test faked are not kept for the next run to reuse.
  if (incremental && !rechecked.some((check) => check.result === 'not caught')) keepIncremental(root, started, ended);
  return {
    ...ran,
    ...(rechecked.length > 0 ? { rechecked } : {}),
    result: 'measured',
    score: measure.score,
    counts: measure.counts,
    mutants: measure.mutants,
    survivors: measure.survivors.slice(0, SURVIVORS_KEPT),
    survivors_total: measure.survivors.length,
  };
}
