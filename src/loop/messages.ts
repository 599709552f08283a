// What the loop says: the reason that keeps an agent working (its next instruction, so it states the
// iteration, what failed and what to do), and the line a person sees when a loop ends.
import type { Decision } from './decide.js';
import type { IterationConfig } from './loop-config.js';
import type { Loop, Task } from './store.js';
import type { ValidationReport } from './types.js';

/** Claude Code caps a hook's text fields at 10,000 characters. */
const MAX_REASON = 9_000;
const TAIL_LINES = 15;

/** The tag that completes this loop, as the agent must write it. */
export function completeTag(config: IterationConfig): string {
  const text = config.completionPromises.find((promise) => !/BLOCKED/.test(promise)) ?? '<promise>COMPLETE</promise>';
  return text.startsWith('<promise>') ? text : `<promise>${text}</promise>`;
}

function indentTail(tail: string | undefined): string[] {
  if (!tail) return [];
  return tail.trim().split('\n').slice(-TAIL_LINES).map((line) => `    ${line}`);
}

export function failingLines(report: ValidationReport): string[] {
  return report.results.filter((result) => !result.passed).flatMap((result) => [`- ${result.message}`, ...indentTail(result.outputTail)]);
}

export function continueReason(loop: Loop, task: Task, decision: Decision, report: ValidationReport, previousIteration: number): string {
  const left = loop.config.maxIterations - loop.iteration + 1;
  const lines: string[] = [];
  if (report.overallPassed) {
    lines.push(
      `isdlc loop ${loop.id} ("${task.title}"): iteration ${previousIteration} of ${loop.config.maxIterations} passes every rule ` +
        `(${report.totalRules}), but your final message carried no completion promise, so the loop goes on.`,
      `If the task is done, say so and end your final message with ${completeTag(loop.config)} on its own line. Otherwise keep working.`,
    );
  } else {
    lines.push(
      `isdlc loop ${loop.id} ("${task.title}"): iteration ${previousIteration} of ${loop.config.maxIterations} failed validation, so this turn does not end yet.`,
      'Failing:',
      ...failingLines(report),
    );
    if (decision.prematureComplete) lines.push(`Your ${completeTag(loop.config)} does not count while a rule fails.`);
    lines.push(
      `Next: fix what fails, then end your turn; the rules run again then. When every rule passes, end your final message with ${completeTag(loop.config)}.`,
    );
  }
  lines.push(
    `If you cannot go on without a person, end your final message with <promise>BLOCKED</promise> and the reason.`,
    `This is iteration ${loop.iteration}; ${left} left including it. ${loop.config.circuitBreakerThreshold} failed iterations in a row hand the loop to a person (${decision.consecutiveFailures} so far).`,
  );
  if (loop.config.prompt) lines.push('', 'The task:', loop.config.prompt);
  const text = lines.join('\n');
  return text.length <= MAX_REASON ? text : `${text.slice(0, MAX_REASON - 20)}\n[... cut short]`;
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
