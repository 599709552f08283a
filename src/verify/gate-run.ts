// The gate's own test run: the person's test command (testing.json), run by isdlc in a child process before
// a phase's gate opens, judged by the same runner parsers as the runs the hooks observe. Its output is
// never shown to the agent first, so no filter, redirect or later `echo` can stand between the runner and
// the verdict. Where the machine has an OS sandbox it runs inside it with isdlc's files read-only.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { parseCoverageReport, USUAL_REPORTS } from '../loop/rules/coverage.js';
import { sandboxFailure } from '../loop/rules/command-sandbox.js';
import { probeOsSandbox, sandboxInvocation, type OsSandboxSupport, type ProtectedPaths } from '../sandbox/os-sandbox.js';
import { classifyRun, type TestResult } from '../testwatch/classify.js';
import { readReporterFile } from '../testwatch/reporter-files.js';
import { reporterFileNames } from '../testwatch/reporter-names-junit.js';
import { runnersIn } from '../testwatch/runners.js';
import { readTestNames, wholeList, type RunNames } from '../testwatch/test-names.js';
import { worktreeDigest } from '../detect/worktree-digest.js';
import { invocation, runGroup } from '../util/process-group.js';
import { gateEnvironment, shadowedProgram } from './gate-environment.js';
import type { TestingConfig } from '../config/testing-config.js';

/** Coverage reports the gate also looks for: Go's profile, under the names people give it. */
const GATE_REPORTS: readonly string[] = [...USUAL_REPORTS, 'coverage.out', 'cover.out'];

export interface RunCounts {
  runner: string;
  /** Tests that ran: passed and failed, not skipped. */
  executed: number;
  passed: number;
  failed: number;
  skipped: number;
}

/** One run the gate made, as recorded in state. */
export interface GateRun {
  phase: string;
  /** When it started. */
  at: string;
  command: string;
  /** Whether this was the coverage command (a phase asked for a coverage figure). */
  for_coverage: boolean;
  result: TestResult;
  /** What the verdict rests on, in words. */
  basis: string;
  exit_code: number | null;
  timed_out?: boolean;
  duration_ms: number;
  counts?: RunCounts;
  coverage?: { percent: number; from: string };
  /** sha256 of everything the run printed, stdout and stderr as they came. */
  output_sha256: string;
  output_bytes: number;
  /** The lines that say what went wrong, or the last lines. */
  excerpt?: string;
  sandboxed: boolean;
  /** Why it ran without the OS sandbox. */
  unsandboxed_because?: string;
  /** The digest of the project's files after the run (detect/worktree-digest.ts). */
  tree?: string;
  /** Its tests by name, as kept in the workflow's record of names (test-names-record.ts); absent where none could be read. */
  names?: { run: number; runner: string; named: number; kept: number };
  /** In memory only, until recordGateRun keeps them in the record of names: the tests the run named, or null. */
  testNames?: RunNames | null;
}

export interface GateRunInput {
  root: string;
  phase: string;
  testing: TestingConfig;
  /** The phase asks for a coverage figure: run the coverage command when there is one. */
  wantCoverage: boolean;
  /** A reporter file the phase names (test_iteration.reporter_file), relative to the root. */
  reporterFile?: string;
  /** What keeps the run apart from the agent: the paths its OS sandbox holds read-only, the hosts' markers it drops. */
  isolation: RunIsolation;
  sandbox?: OsSandboxSupport;
  /** Told at the start, about once a second while the run goes on, and at its end: for a person waiting. */
  onProgress?: (progress: GateProgress) => void;
}

/** Where the gate's own run stands. */
export interface GateProgress {
  command: string;
  timeoutMinutes: number;
  elapsedMs: number;
  /** The last line the run printed, if any. */
  lastLine?: string;
  done: boolean;
}

/** The last non-empty line of `text`, without terminal colour codes. */
function lastLineOf(text: string): string | undefined {
  const lines = text
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.at(-1)?.slice(0, 200);
}

/** What the gate's run is kept apart from the agent with; the faces know the hosts that add to it. */
export interface RunIsolation {
  /** What the OS sandbox keeps read-only while the tests run: the project's guarded set. */
  protect: ProtectedPaths;
  /** The variables the agent hosts set in their agent's shell, which the run does not inherit. */
  hostMarkers: readonly string[];
}

const LAST_LINES = 12;

function lastLines(text: string): string {
  return text.split('\n').slice(-LAST_LINES).join('\n').slice(-800);
}

/**
 * The coverage report this run wrote, if any. A report from before the run is an earlier run's, and one
 * dated after it was made to look new.
 */
function reportCoverage(root: string, candidates: readonly string[], since: number, until: number): { percent: number; from: string } | undefined {
  for (const candidate of candidates) {
    const path = isAbsolute(candidate) ? candidate : join(root, candidate);
    try {
      const written = statSync(path).mtimeMs;
      if (written + 1000 < since || written > until + 1000) continue;
      const parsed = parseCoverageReport(readFileSync(path, 'utf8'));
      if (parsed.ok) return { percent: parsed.percent, from: relative(root, path) || candidate };
    } catch {
      // absent or unreadable: try the next
    }
  }
  return undefined;
}

/** One command run the way the gate runs a project's command: its own process group, the OS sandbox, a person's environment. */
export interface IsolatedRunInput {
  root: string;
  /** Where the command starts, inside `root`; the root itself by default. */
  cwd?: string;
  command: string;
  isolation: RunIsolation;
  timeoutMinutes: number;
  sandbox?: OsSandboxSupport;
  onProgress?: (progress: GateProgress) => void;
  /** Everything the command prints, as it comes. */
  onOutput?: (chunk: Buffer) => void;
}

export interface IsolatedRun {
  outcome: Awaited<ReturnType<typeof runGroup>>;
  sandboxed: boolean;
  unsandboxedBecause?: string;
}

/**
 * Runs `command` in the project as the gate runs the tests: in the OS sandbox where the machine has one
 * (isdlc's files read-only), with the environment a person's terminal would give it, stopped with all it
 * started at the timeout. The caller checks shadowedProgram() first.
 */
export async function runIsolated(input: IsolatedRunInput): Promise<IsolatedRun> {
  const { root, command } = input;
  const started = Date.now();
  const { file, args, verbatim } = invocation(command);
  let run = { file, args, cwd: input.cwd ?? root };
  let release = (): void => {};
  let sandboxed = false;
  let unsandboxedBecause: string | undefined;
  // Not ruleSandbox(): its switch comes from the environment, and here that may be the agent's.
  const support = input.sandbox ?? probeOsSandbox();
  if (support.ok) {
    try {
      const prepared = sandboxInvocation(support.kind, run, root, input.isolation.protect);
      run = { ...prepared.invocation, cwd: prepared.invocation.cwd ?? root };
      release = prepared.release;
      sandboxed = true;
    } catch (error) {
      unsandboxedBecause = `the OS sandbox could not be prepared (${(error as Error).message})`;
    }
  } else unsandboxedBecause = support.why;

  let outcome;
  let lastLine: string | undefined;
  const progress = (done: boolean): void =>
    input.onProgress?.({ command, timeoutMinutes: input.timeoutMinutes, elapsedMs: Date.now() - started, ...(lastLine ? { lastLine } : {}), done });
  progress(false);
  const ticking = input.onProgress ? setInterval(() => progress(false), 1000) : undefined;
  try {
    outcome = await runGroup(run, verbatim, input.timeoutMinutes * 60_000, {
      env: gateEnvironment(root, input.isolation.hostMarkers),
      keep: 64_000,
      render: { lines: 600, chars: 48_000 },
      onOutput: (chunk) => {
        input.onOutput?.(chunk);
        if (input.onProgress) lastLine = lastLineOf(chunk.toString('utf8')) ?? lastLine;
      },
    });
  } finally {
    if (ticking) clearInterval(ticking);
    release();
  }
  progress(true);
  return { outcome, sandboxed, ...(unsandboxedBecause ? { unsandboxedBecause } : {}) };
}

export async function runGateTests(input: GateRunInput): Promise<GateRun> {
  const { root, testing } = input;
  const forCoverage = input.wantCoverage && testing.coverage_command !== undefined;
  const command = (forCoverage ? testing.coverage_command : testing.command) ?? '';
  const startedAt = new Date();
  const started = startedAt.getTime();
  const digest = createHash('sha256');
  let bytes = 0;

  const shadow = shadowedProgram(root, command);
  if (shadow) {
    const basis = `\`${command}\` was not run: ${shadow}; a person removes it, or names the program's full path in testing.json`;
    return {
      phase: input.phase,
      at: startedAt.toISOString(),
      command,
      for_coverage: forCoverage,
      result: 'inconclusive',
      basis,
      exit_code: null,
      duration_ms: 0,
      output_sha256: digest.digest('hex'),
      output_bytes: 0,
      sandboxed: false,
    };
  }

  const isolated = await runIsolated({
    root,
    command,
    isolation: input.isolation,
    timeoutMinutes: testing.timeout_minutes,
    ...(input.sandbox ? { sandbox: input.sandbox } : {}),
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    onOutput: (chunk) => {
      digest.update(chunk);
      bytes += chunk.length;
    },
  });
  const { outcome, sandboxed, unsandboxedBecause } = isolated;
  const durationMs = Date.now() - started;
  const base = {
    phase: input.phase,
    at: startedAt.toISOString(),
    command,
    for_coverage: forCoverage,
    exit_code: outcome.code,
    duration_ms: durationMs,
    output_sha256: digest.digest('hex'),
    output_bytes: bytes,
    sandboxed,
    ...(unsandboxedBecause ? { unsandboxed_because: unsandboxedBecause } : {}),
  };
  const inconclusive = (basis: string): GateRun => ({
    ...base,
    result: 'inconclusive',
    basis,
    ...(outcome.outputTail ? { excerpt: lastLines(outcome.outputTail) } : {}),
  });

  if (outcome.spawnError && !outcome.started) return inconclusive(`\`${command}\` could not be started: ${outcome.spawnError.message}`);
  if (outcome.timedOut)
    return {
      ...inconclusive(
        `\`${command}\` was still running after ${testing.timeout_minutes} min (timeout_minutes in testing.json) and was stopped with everything it started`,
      ),
      timed_out: true,
    };
  if (outcome.code === null) return inconclusive(`\`${command}\` was killed by ${outcome.signal ?? 'a signal'}`);
  const notStarted = sandboxed ? sandboxFailure(outcome.code, outcome.outputTail) : undefined;
  if (notStarted) return inconclusive(`\`${command}\` could not be started: ${notStarted}`);

  const reporter = input.reporterFile ? readReporterFile(join(root, input.reporterFile), started) : null;
  const judged = classifyRun({
    outcome: { failed: outcome.code !== 0, text: outcome.outputTail, exitCode: outcome.code, interrupted: false, backgrounded: false },
    command,
    exitStatus: 'own',
    reporter,
  });
  const runners = runnersIn(outcome.outputTail);
  if (judged.result === 'passed' && runners.length > 1) {
    return inconclusive(
      `the output holds the summaries of ${runners.join(' and ')}: something besides the runner wrote into it, and isdlc does not choose between them`,
    );
  }
  const summary = judged.summary;
  const counts: RunCounts | undefined = summary
    ? { runner: summary.runner, executed: summary.passed + summary.failed, passed: summary.passed, failed: summary.failed, skipped: summary.skipped }
    : undefined;
  // The coverage tool's own last word first: the report the person named (the tool writes it at the end,
  // over anything a test wrote), then the last figure it printed, then a report in the usual places.
  const ended = Date.now();
  const printed = judged.coverage !== undefined ? { percent: judged.coverage, from: "the run's output" } : undefined;
  const coverage = testing.coverage_report
    ? (reportCoverage(root, [testing.coverage_report], started, ended) ?? printed)
    : (printed ?? reportCoverage(root, GATE_REPORTS, started, ended));
  // Names only from a run that was judged: a test list the output holds in full (only its tail is kept).
  const named = judged.result === 'inconclusive' ? null : input.reporterFile ? reporterFileNames(join(root, input.reporterFile), started) : null;
  const testNames = judged.result === 'inconclusive' ? null : wholeList(named ?? readTestNames(outcome.outputTail, command), judged.summary);
  const tree = worktreeDigest(root);
  const recorded: GateRun = {
    ...base,
    ...(tree ? { tree } : {}),
    testNames,
    result: judged.result,
    basis: judged.basis,
    ...(counts ? { counts } : {}),
    ...(coverage ? { coverage } : {}),
    ...(judged.result === 'failed'
      ? { excerpt: judged.excerpt ?? lastLines(outcome.outputTail) }
      : outcome.outputTail
        ? { excerpt: lastLines(outcome.outputTail) }
        : {}),
  };
  if (recorded.result === 'passed' && !counts && testing.require_counts) {
    return {
      ...recorded,
      result: 'inconclusive',
      basis: `\`${command}\` exited 0, but its output names no test count, so isdlc cannot tell that any test ran (a person can set require_counts: false in testing.json to accept the exit status alone)`,
    };
  }
  return recorded;
}
