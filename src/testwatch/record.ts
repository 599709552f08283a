// Recording one test run in a phase's `test_iteration`: the iteration
// count, the last result and command, the history, and the two safety limits: the same failure N times
// in a row (circuit breaker) and too many iterations. Inconclusive runs are recorded but count toward
// neither.
import type { TestIterationState } from '../state/schema.js';
import type { Classification } from './classify.js';

export interface TestRunInput {
  classification: Classification;
  command: string;
  now: string;
  maxIterations: number;
  circuitBreakerThreshold: number;
}

export type TestRunOutcome =
  | { kind: 'inconclusive'; iteration: number }
  | { kind: 'passed'; iteration: number; /** An escalation no person approved stays: a passing run does not end it. */ escalationWaits: boolean }
  | { kind: 'failed'; iteration: number; identicalFailures: number; escalated?: 'circuit_breaker' | 'max_iterations'; alreadyEscalated: boolean };

/** A run's record in the history is kept short: state is read and written on every hook call. */
const HISTORY_LIMIT = 50;
const HISTORY_ERROR_CHARS = 240;

/**
 * A record the original framework wrote has no failure signature: it counted a failure as the same when its
 * error line came back. Its count goes on when the failure before (its last history entry) named an error
 * that this run's output shows again.
 */
function continuesOriginalCount(record: TestIterationState, before: Record<string, unknown> | undefined, output: string): boolean {
  if ('last_failure_signature' in record || Number(record['identical_failure_count'] ?? 0) < 1) return false;
  const error = typeof before?.['error'] === 'string' ? before['error'].trim() : '';
  return error !== '' && output.includes(error);
}

export function recordTestRun(record: TestIterationState, input: TestRunInput): TestRunOutcome {
  const { classification: run, now } = input;
  record.required = true;
  record.max_iterations = input.maxIterations;
  record.circuit_breaker_threshold = input.circuitBreakerThreshold;
  record['started_at'] ??= now;
  const history = (record.history ??= []) as Record<string, unknown>[];
  // In capitals, as the original framework wrote its history (`FAILED`, `PASSED`); readers take either case.
  const entry: Record<string, unknown> = { timestamp: now, command: input.command, result: run.result.toUpperCase(), basis: run.basis };
  if (run.summary)
    Object.assign(entry, {
      runner: run.summary.runner,
      executed: run.summary.passed + run.summary.failed,
      passed: run.summary.passed,
      failures: run.summary.failed,
      skipped: run.summary.skipped,
    });
  if (run.coverage !== undefined) entry['coverage'] = run.coverage;

  if (run.result === 'inconclusive') {
    const iteration = record.current_iteration ?? 0;
    history.push({ iteration, ...entry });
    record['last_inconclusive_at'] = now;
    if (!record.last_test_result) record.last_test_result = 'inconclusive';
    record.history = history.slice(-HISTORY_LIMIT);
    return { kind: 'inconclusive', iteration };
  }

  const iteration = (record.current_iteration ?? 0) + 1;
  record.current_iteration = iteration;
  record.last_test_result = run.result;
  record.last_test_command = input.command;
  record['last_run_at'] = now;
  history.push({ iteration, ...entry, ...(run.result === 'failed' ? { error: (run.excerpt ?? run.basis).slice(0, HISTORY_ERROR_CHARS) } : {}) });
  record.history = history.slice(-HISTORY_LIMIT);

  if (run.result === 'passed') {
    // A person decides an escalation: two empty tests that pass must not be the agent's way past it.
    if (record.status === 'escalated' && record.escalation_approved !== true) {
      if (run.coverage !== undefined) record['coverage_percent'] = run.coverage;
      return { kind: 'passed', iteration, escalationWaits: true };
    }
    const clearedEscalation = record.status === 'escalated';
    record.completed = true;
    record.status = 'success';
    record['completed_at'] = now;
    record['identical_failure_count'] = 0;
    record['last_failure_signature'] = null;
    record['last_error'] = null;
    if (run.coverage !== undefined) record['coverage_percent'] = run.coverage;
    if (clearedEscalation) record['escalation_cleared_at'] = now;
    return { kind: 'passed', iteration, escalationWaits: false };
  }

  record.failures_count = (record.failures_count ?? 0) + 1;
  const same =
    (run.signature !== undefined && run.signature === record['last_failure_signature']) ||
    continuesOriginalCount(record, history.at(-2), `${run.excerpt ?? ''}\n${run.basis}`);
  const identicalFailures = same ? Number(record['identical_failure_count'] ?? 0) + 1 : 1;
  record['identical_failure_count'] = identicalFailures;
  record['last_failure_signature'] = run.signature ?? null;
  record['last_error'] = run.excerpt ?? run.basis;
  if (run.coverage !== undefined) record['coverage_percent'] = run.coverage;
  const alreadyEscalated = record.status === 'escalated';
  if (alreadyEscalated) return { kind: 'failed', iteration, identicalFailures, alreadyEscalated };

  let escalated: 'circuit_breaker' | 'max_iterations' | undefined;
  if (identicalFailures >= input.circuitBreakerThreshold) escalated = 'circuit_breaker';
  else if (iteration >= input.maxIterations) escalated = 'max_iterations';
  if (escalated) {
    // The loop is over; what remains is a human decision.
    record.status = 'escalated';
    record.escalation_reason = escalated;
    record.completed = true;
    record['escalated_at'] = now;
    record.escalation_approved = false;
    return { kind: 'failed', iteration, identicalFailures, escalated, alreadyEscalated };
  }
  record.status = 'in_progress';
  record.completed = false;
  return { kind: 'failed', iteration, identicalFailures, alreadyEscalated };
}
