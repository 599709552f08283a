// A validation's score, and the regression it is watched for.
import type { ValidationReport } from './types.js';

/**
 * 0–100: the share of rules passed, less the share errored (an errored rule counts against twice: it did
 * not pass, and it could not even be judged). No rules: 100. Rounded to one decimal.
 */
export function score(report: Pick<ValidationReport, 'totalRules' | 'passedRules' | 'erroredRules'>): number {
  const { totalRules, passedRules, erroredRules } = report;
  if (totalRules <= 0) return 100;
  const value = Math.max(0, (passedRules / totalRules) * 100 - (erroredRules / totalRules) * 100);
  return Math.round(value * 10) / 10;
}

/** The last three scores each strictly lower than the one before, and more than 10 points lost over them. */
export function detectQualityRegression(scores: readonly number[]): boolean {
  if (scores.length < 3) return false;
  const [first = 0, second = 0, third = 0] = scores.slice(-3);
  return first > second && second > third && first - third > 10;
}
