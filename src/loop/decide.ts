// What one validation means for the loop: a pure function of the loop's counters, the report and the
// promise found in the agent's final message.
//   COMPLETE only when every rule passes; the safety limits (circuit breaker, quality regression, the
//   last iteration spent) end the loop as ESCALATE and override a BLOCKED promise; BLOCKED is otherwise
//   always honoured; anything else is CONTINUE.
import type { DetectedPromise } from './promise.js';
import { detectQualityRegression } from './score.js';
import type { Signal, ValidationReport } from './types.js';

export interface DecisionInput {
  iteration: number;
  maxIterations: number;
  circuitBreakerThreshold: number;
  /** Failed iterations in a row before this one. */
  previousConsecutiveFailures: number;
  /** Final scores of the earlier iterations, oldest first. */
  previousScores: readonly number[];
  report: ValidationReport;
  promise?: DetectedPromise | undefined;
}

export interface Decision {
  signal: Signal;
  /** Failed iterations in a row, this one included. */
  consecutiveFailures: number;
  /** Why the loop ends (ESCALATE, BLOCKED, COMPLETE), or why it goes on. */
  reasons: string[];
  /** The agent claimed COMPLETE while rules still fail. */
  prematureComplete: boolean;
}

const tag = (promise: DetectedPromise): string => `<promise>${promise.promise}</promise>`;

export function decide(input: DecisionInput): Decision {
  const { report, promise } = input;
  const consecutiveFailures = report.overallPassed ? 0 : input.previousConsecutiveFailures + 1;
  const base = { consecutiveFailures, prematureComplete: false };

  if (promise?.signal === 'COMPLETE' && report.overallPassed) {
    const rules = report.totalRules === 0 ? 'no rules to check' : report.totalRules === 1 ? 'its rule passes' : `all ${report.totalRules} rules pass`;
    return { ...base, signal: 'COMPLETE', reasons: [`${rules} and the agent declared ${tag(promise)}`] };
  }

  const limits: string[] = [];
  if (consecutiveFailures >= input.circuitBreakerThreshold) {
    const last = report.results.find((result) => !result.passed);
    limits.push(
      `circuit breaker: validation failed ${consecutiveFailures} iterations in a row (threshold ${input.circuitBreakerThreshold})` +
        (last ? `; last failure: ${last.message}` : ''),
    );
  }
  const scores = [...input.previousScores, report.score];
  if (detectQualityRegression(scores)) {
    limits.push(`quality regression: validation scores fell over the last three iterations (${scores.slice(-3).join(' → ')})`);
  }
  if (input.iteration >= input.maxIterations) {
    limits.push(`iteration ${input.iteration} was the last of ${input.maxIterations} and validation has not passed with a completion promise`);
  }
  if (limits.length > 0) return { ...base, signal: 'ESCALATE', reasons: limits };

  if (promise?.signal === 'BLOCKED') {
    return { ...base, signal: 'BLOCKED', reasons: [`the agent declared ${tag(promise)}${promise.reason ? `: ${promise.reason}` : ''}`] };
  }
  const prematureComplete = promise?.signal === 'COMPLETE';
  return {
    ...base,
    prematureComplete,
    signal: 'CONTINUE',
    reasons: report.overallPassed
      ? ['every rule passes, but the final message carried no completion promise']
      : [
          `${report.failedRules + report.erroredRules} of ${report.totalRules} rules fail${prematureComplete ? ', so the completion promise does not count yet' : ''}`,
        ],
  };
}
