// decide(): what one validation means for the loop, as a table.
import { describe, expect, it } from 'vitest';
import { decide, type DecisionInput } from './decide.js';
import type { ValidationReport } from './types.js';

function report(passed: number, total: number, errored = 0): ValidationReport {
  const failed = total - passed - errored;
  const results = [
    ...Array.from({ length: passed }, (_, i) => ({ name: `p${i}`, type: 'command' as const, passed: true, errored: false, message: `p${i}: ok` })),
    ...Array.from({ length: failed }, (_, i) => ({ name: `f${i}`, type: 'command' as const, passed: false, errored: false, message: `f${i}: exited 1` })),
    ...Array.from({ length: errored }, (_, i) => ({ name: `e${i}`, type: 'command' as const, passed: false, errored: true, message: `e${i}: timed out` })),
  ];
  const score = total === 0 ? 100 : Math.max(0, ((passed - errored) / total) * 100);
  return { results, totalRules: total, passedRules: passed, failedRules: failed, erroredRules: errored, overallPassed: passed === total, score };
}

const COMPLETE = { signal: 'COMPLETE' as const, promise: '<promise>COMPLETE</promise>' };
const BLOCKED = { signal: 'BLOCKED' as const, promise: '<promise>BLOCKED</promise>', reason: 'needs a DBA' };
const base: DecisionInput = {
  iteration: 2,
  maxIterations: 10,
  circuitBreakerThreshold: 3,
  previousConsecutiveFailures: 0,
  previousScores: [],
  report: report(1, 1),
};

const cases: [string, Partial<DecisionInput>, string, RegExp?][] = [
  ['all rules pass with COMPLETE: complete', { promise: COMPLETE }, 'COMPLETE'],
  ['COMPLETE on the very last iteration still completes', { iteration: 10, promise: COMPLETE }, 'COMPLETE'],
  ['COMPLETE while a rule fails: continue, the promise does not count', { report: report(0, 1), promise: COMPLETE }, 'CONTINUE', /does not count/],
  ['all pass, no promise: continue', {}, 'CONTINUE', /no completion promise/],
  ['zero rules and COMPLETE: complete', { report: report(0, 0), promise: COMPLETE }, 'COMPLETE'],
  ['BLOCKED is honoured even while rules fail', { report: report(0, 2), promise: BLOCKED }, 'BLOCKED', /needs a DBA/],
  ['BLOCKED with passing rules: blocked', { promise: BLOCKED }, 'BLOCKED'],
  [
    'the third failure in a row trips the breaker',
    { report: report(0, 1), previousConsecutiveFailures: 2 },
    'ESCALATE',
    /circuit breaker: validation failed 3/,
  ],
  ['the breaker overrides BLOCKED', { report: report(0, 1), previousConsecutiveFailures: 2, promise: BLOCKED }, 'ESCALATE', /circuit breaker/],
  ['a passing iteration resets the count', { previousConsecutiveFailures: 2 }, 'CONTINUE'],
  ['a custom threshold of 1 trips at once', { report: report(0, 1), circuitBreakerThreshold: 1 }, 'ESCALATE', /threshold 1/],
  ['the last iteration without completion escalates', { iteration: 10, report: report(0, 1) }, 'ESCALATE', /was the last of 10/],
  ['the last iteration passing without a promise escalates too', { iteration: 10 }, 'ESCALATE', /was the last of 10/],
  [
    'scores falling 100 → 66.7 → 33.3: regression',
    { report: report(1, 3), previousScores: [100, 66.7], circuitBreakerThreshold: 5 },
    'ESCALATE',
    /quality regression/,
  ],
  ['falling by 10 or less is no regression', { report: report(0, 1), previousScores: [10, 5], circuitBreakerThreshold: 5 }, 'CONTINUE'],
  ['an errored rule counts as a failure', { report: report(0, 1, 1), previousConsecutiveFailures: 2 }, 'ESCALATE'],
];

describe('decide', () => {
  it.each(cases)('%s', (_name, change, signal, reason) => {
    const decision = decide({ ...base, ...change });
    expect(decision.signal).toBe(signal);
    if (reason) expect(decision.reasons.join(' ')).toMatch(reason);
  });

  it('counts consecutive failures across iterations', () => {
    expect(decide({ ...base, report: report(0, 1), previousConsecutiveFailures: 1 }).consecutiveFailures).toBe(2);
    expect(decide({ ...base, previousConsecutiveFailures: 1 }).consecutiveFailures).toBe(0);
  });
});
