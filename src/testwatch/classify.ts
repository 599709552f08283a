// Did a test run pass? From what the host reported: the exit status (a failed shell command arrives as
// PostToolUseFailure with `Exit code N`), the runner's own summary or reporter file, then generic
// patterns. When none of it can be trusted the run is inconclusive, never guessed. An exit status the
// host did not give (the legacy `tool_result`) is unknown, never taken for 0.
import type { ToolOutcome } from '../events/hook-event.js';
import { parseCoverage } from './coverage.js';
import { parseRunnerSummary, type RunSummary } from './runners.js';
import type { ExitStatusMeaning } from './test-commands.js';
import { cleanOutput, normaliseFailure, tailOf } from './text.js';

export type TestResult = 'passed' | 'failed' | 'inconclusive';

export interface Classification {
  result: TestResult;
  /** What the verdict rests on, in words. */
  basis: string;
  summary?: RunSummary;
  /** A failed run that could not even start its tests. */
  couldNotRun?: string;
  /** The failure reduced for comparison with earlier ones (circuit breaker). */
  signature?: string;
  /** The first lines that say what failed, for the model. */
  excerpt?: string;
  coverage?: number;
}

export interface ClassifyInput {
  outcome: ToolOutcome;
  command: string;
  exitStatus: ExitStatusMeaning;
  /** Counts from a reporter file this run wrote, if the phase names one. */
  reporter?: RunSummary | null;
  /** Why the command line keeps its output from proving a pass (test-commands.ts); a failure still counts. */
  distrust?: string;
}

const SUCCESS = [/All tests passed/i, /\b\d+ passing\b/, /\bPASSED\b/, /\b0 failures\b/];
const FAILURE = [/\b[1-9]\d* failed\b/, /\bFAIL\b/, /\bError:/, /\bTypeError:/, /npm ERR!/];

/** Success and failure patterns; when both appear, the failure counts decide. */
function genericVerdict(text: string): TestResult | null {
  const success = SUCCESS.some((pattern) => pattern.test(text));
  const failure = FAILURE.some((pattern) => pattern.test(text));
  if (success && failure) {
    const counts = [...text.matchAll(/\b(\d+) (?:failed|failures?|failing)\b/g)].map((match) => Number(match[1]));
    return counts.length > 0 && counts.every((count) => count === 0) ? 'passed' : 'failed';
  }
  if (success) return 'passed';
  if (failure) return 'failed';
  return null;
}

/** Signs that the command as a whole failed though its runner counted passes (npm, pnpm, yarn, make). */
const COMMAND_FAILED = /npm ERR!|^npm error\b|\bELIFECYCLE\b|\bERR_PNPM_|^error Command failed|^make(?:\[\d+\])?: \*\*\*/m;

/** Signs that a failed command never got to run its tests. */
const COULD_NOT_RUN: readonly [RegExp, string][] = [
  [/^\s*(?:Error: )?No tests? (?:found|files found|executed)/im, 'no tests found'],
  [/^error: could not compile/m, 'the code does not compile'],
  [/\berror TS\d+:/, 'the code does not type-check'],
  [/^Build FAILED\./m, 'the project does not build'],
  [/\[(?:build|setup) failed\]/, 'the package does not build'],
  [/errors? during collection/, 'tests could not be collected'],
  [/Exception during run:|\bSyntaxError\b|\bParseError\b|\bsyntax error\b/i, 'a test file has a syntax error'],
  [/Cannot find module|\bModuleNotFoundError\b|\bImportError\b|\bLoadError\b|cannot load such file/, 'a test file cannot load what it imports'],
];

function couldNotRunReason(text: string): string | undefined {
  return COULD_NOT_RUN.find(([pattern]) => pattern.test(text))?.[1];
}

const INTERESTING = /\b(?:Error|AssertionError|assert|Expected|FAIL|panicked|failed)\b/;

/** Up to six lines from the first one that says what went wrong (one search, not a split of the text). */
function excerptOf(text: string): string {
  const found = INTERESTING.exec(text);
  const from = found ? text.lastIndexOf('\n', found.index) + 1 : Math.max(0, text.length - 600);
  const lines = text
    .slice(from, from + 2000)
    .split('\n', 6)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '');
  return lines.join('\n').slice(0, 600);
}

function describe(summary: RunSummary): string {
  const parts = [`${summary.passed} passed`, `${summary.failed} failed`];
  if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
  if (summary.errors > 0) parts.push(`${summary.errors} error${summary.errors > 1 ? 's' : ''}`);
  return `${summary.runner}: ${parts.join(', ')}`;
}

export function classifyRun(input: ClassifyInput): Classification {
  const judged = judgeRun(input);
  if (judged.result !== 'passed' || !input.distrust) return judged;
  // Filters can hide failures and a later command can print a summary: what looks like a pass is not proof.
  return { result: 'inconclusive', basis: `it looks like a pass, but ${input.distrust}; run the tests on their own` };
}

function judgeRun(input: ClassifyInput): Classification {
  const { outcome, exitStatus } = input;
  if (outcome.backgrounded) return { result: 'inconclusive', basis: 'the command was moved to the background, so its result is not known yet' };
  if (outcome.interrupted) return { result: 'inconclusive', basis: 'the command was interrupted' };
  const text = cleanOutput(tailOf(outcome.text));
  if (/Command timed out after/.test(text)) return { result: 'inconclusive', basis: 'the command timed out before finishing' };

  // Known when the host said it (adapter): Claude Code's PostToolUse of a shell means 0.
  const exitCode = outcome.exitCode;
  const summary = input.reporter ?? parseRunnerSummary(text, input.command) ?? undefined;
  const coverage = parseCoverage(text);
  const withCoverage = <T extends Classification>(c: T): T => (coverage !== undefined ? { ...c, coverage } : c);
  const failed = (basis: string, couldNotRun?: string): Classification => {
    const excerpt = excerptOf(text);
    const tests = [...(summary?.failingTests ?? [])].sort().join(' | ');
    return withCoverage({
      result: 'failed',
      basis,
      ...(summary ? { summary } : {}),
      ...(couldNotRun ? { couldNotRun } : {}),
      signature: normaliseFailure(`${couldNotRun ?? ''} ${tests} ${excerpt}`).slice(0, 500),
      excerpt: summary?.failingTests.length ? `failing: ${summary.failingTests.slice(0, 5).join('; ')}\n${excerpt}`.slice(0, 600) : excerpt,
    });
  };

  if (summary) {
    if (summary.couldNotRun) return failed(`the tests could not run (${summary.couldNotRun})`, summary.couldNotRun);
    if (summary.failed > 0 || summary.errors > 0) return failed(describe(summary));
    if (summary.passed + summary.skipped === 0) return failed('no tests ran', 'no tests ran');
    // Nothing was tested: no evidence either way, and no pass.
    if (summary.passed === 0)
      return {
        result: 'inconclusive',
        basis: `no test ran: all ${summary.skipped} ${summary.skipped === 1 ? 'was' : 'were'} skipped (${summary.runner})`,
        summary,
      };
    if (exitCode !== undefined && exitCode !== 0 && exitStatus === 'own') {
      return failed(`${describe(summary)}, but the command exited ${exitCode} (a coverage threshold or another check failed)`);
    }
    if (exitCode === undefined && COMMAND_FAILED.test(text)) return failed(`${describe(summary)}, but the output says the command failed`);
    return withCoverage({ result: 'passed', basis: describe(summary), summary });
  }

  if (exitCode !== undefined && exitCode !== 0) {
    const reason = couldNotRunReason(text);
    if (reason) return failed(`the tests could not run (${reason}); the command exited ${exitCode}`, reason);
  }
  if (outcome.failed && exitCode === undefined) {
    return { result: 'inconclusive', basis: 'the command failed without an exit code (it may not have started)' };
  }
  if (exitCode !== undefined && (exitStatus === 'own' || (exitStatus === 'zero-means-passed' && exitCode === 0))) {
    return exitCode === 0 ? withCoverage({ result: 'passed', basis: 'the command exited 0' }) : failed(`the command exited ${exitCode}`);
  }
  const generic = genericVerdict(text);
  if (generic === 'passed') return withCoverage({ result: 'passed', basis: 'the output reports success' });
  if (generic === 'failed') return failed('the output reports failures');
  return {
    result: 'inconclusive',
    basis:
      exitCode === undefined
        ? 'the output has no test summary and the host did not report an exit status'
        : 'the output has no test summary and the exit status belongs to another command',
  };
}
