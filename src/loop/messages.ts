// What the loop says: the reason that keeps an agent working (its next instruction: what to do, what
// failed, the iteration), and the line a person sees when a loop ends.
import type { Decision } from './decide.js';
import type { IterationConfig } from './loop-config.js';
import type { Loop, Task } from './store.js';
import { clip } from './describe.js';
import { readOnlyInBrief } from './rules/command-sandbox.js';
import type { RuleResult, ValidationReport } from './types.js';

/**
 * A held Stop's reason reaches the model twice in Claude Code 2.1.332 (a system-reminder and a system
 * message) at every iteration, so it says only what the next step needs; `isdlc loop status` has the rest.
 */
export const MAX_REASON = 300;
const TAIL_LINES = 15;
const STATUS_POINTER = 'Output, task, history: `isdlc loop status`.';

/** The tag that completes this loop, as the agent must write it. */
export function completeTag(config: IterationConfig): string {
  const text = config.completionPromises.find((promise) => !/BLOCKED/.test(promise)) ?? '<promise>COMPLETE</promise>';
  return text.startsWith('<promise>') ? text : `<promise>${text}</promise>`;
}

function indentTail(tail: string | undefined): string[] {
  if (!tail) return [];
  return tail
    .trim()
    .split('\n')
    .slice(-TAIL_LINES)
    .map((line) => `    ${line}`);
}

/** Each failing rule's message with the tail of its output: what `isdlc loop status` shows. */
export function failingLines(report: ValidationReport): string[] {
  return report.results.filter((result) => !result.passed).flatMap((result) => [`- ${result.message}`, ...indentTail(result.outputTail)]);
}

// \u2717 ✗, \u2715 ✕, \u00d7 ×: escaped so that the bundles stay ASCII (scripts/build.mjs)
const ERROR_LINE = /\b(?:error|assert(?:ion)?\w*|expected|exception|panic(?:ked)?|not ok)\b|[\u2717\u2715\u00d7]/i;
const FAIL_LINE = /\bfail(?:ed|ing|ure|s)?\b/i;

/**
 * The one line that tells most about why a rule failed: the first error-like line of its output (an
 * assertion, a compiler error), else the first line that says it failed, else the last line. A rule that
 * did not finish (timed out, killed, not started) or has no output is told by its own message, and one that
 * ran into the OS sandbox's read-only files by that fact.
 */
export function tellingLine(result: RuleResult): string {
  const own = result.message.startsWith(`${result.name}: `) ? result.message.slice(result.name.length + 2) : result.message;
  if (result.errored || result.timedOut || result.exitCode === null) return own;
  const walled = readOnlyInBrief(result.message);
  if (walled) return walled;
  const lines = (result.outputTail ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.find((line) => ERROR_LINE.test(line)) ?? lines.find((line) => FAIL_LINE.test(line)) ?? lines.at(-1) ?? own;
}

/** `before` + the detail cut to what is left of MAX_REASON + `after`. */
function fitted(before: string, detail: string, after: string): string {
  const room = Math.max(24, MAX_REASON - before.length - after.length);
  return `${before}${clip(detail.replace(/\s+/g, ' '), room)}${after}`;
}

export function continueReason(loop: Loop, decision: Decision, report: ValidationReport, previousIteration: number): string {
  const head = `isdlc loop ${loop.id}: `;
  const at = `iteration ${previousIteration} of ${loop.config.maxIterations}`;
  const done = completeTag(loop.config);
  const stuck = 'stuck: <promise>BLOCKED</promise> + why';
  if (report.overallPassed) {
    return (
      `${head}End your final message with ${done} if the task is done; else keep working. ` +
      `The ${at} passes every rule (${report.totalRules}), but carried no completion promise (${stuck}). ${STATUS_POINTER}`
    );
  }
  const failing = report.results.filter((result) => !result.passed);
  const first = failing[0]!;
  const others = failing.length > 1 ? ` and ${failing.length - 1} more rule${failing.length > 2 ? 's' : ''}` : '';
  const promise = decision.prematureComplete ? `Your ${done} does not count while a rule fails` : `When all pass, end with ${done}`;
  return fitted(
    `${head}Fix ${clip(first.name, 30)} (`,
    tellingLine(first),
    `)${others}, then end your turn; ${at} failed. ${promise}; ${stuck}. ${STATUS_POINTER}`,
  );
}

/** The person's line while the loop goes on. */
export function progressMessage(loop: Loop, report: ValidationReport, previousIteration: number): string {
  const failing = report.results.filter((result) => !result.passed).map((result) => result.name);
  return (
    `isdlc: loop ${loop.id}, iteration ${previousIteration} of ${loop.config.maxIterations}: ` +
    (failing.length > 0 ? `failing ${failing.join(', ')}` : 'every rule passes, no completion promise yet') +
    '; the agent goes on.'
  );
}

const ENDINGS: Record<string, string> = {
  completed: 'completed',
  blocked: 'stopped: the agent is blocked and needs you',
  escalated: 'stopped and handed to you',
  cancelled: 'cancelled',
};

export function endMessage(loop: Loop, task: Task): string {
  return (
    `isdlc: loop ${loop.id} ("${task.title}") ${ENDINGS[loop.status] ?? loop.status} at iteration ${loop.iteration} of ` +
    `${loop.config.maxIterations}: ${loop.endReason ?? ''}. \`isdlc loop status\` shows its history.`
  );
}
