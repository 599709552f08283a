import { describe, expect, it } from 'vitest';
import { detectQualityRegression, score } from './score.js';

describe('score', () => {
  it.each([
    { totalRules: 0, passedRules: 0, erroredRules: 0, expected: 100 },
    { totalRules: 3, passedRules: 3, erroredRules: 0, expected: 100 },
    { totalRules: 3, passedRules: 2, erroredRules: 0, expected: 66.7 },
    { totalRules: 3, passedRules: 1, erroredRules: 0, expected: 33.3 },
    { totalRules: 3, passedRules: 2, erroredRules: 1, expected: 33.3 },
    { totalRules: 4, passedRules: 1, erroredRules: 1, expected: 0 },
    { totalRules: 4, passedRules: 1, erroredRules: 3, expected: 0 },
    { totalRules: 3, passedRules: 0, erroredRules: 0, expected: 0 },
    { totalRules: 8, passedRules: 7, erroredRules: 1, expected: 75 },
  ])('$passedRules passed, $erroredRules errored of $totalRules: $expected', ({ expected, ...report }) => {
    expect(score(report)).toBe(expected);
  });
});

describe('detectQualityRegression', () => {
  it.each([
    { scores: [], expected: false },
    { scores: [100, 50], expected: false },
    { scores: [100, 80, 60], expected: true },
    { scores: [100, 95, 89.9], expected: true },
    { scores: [100, 95, 90], expected: false }, // a drop of exactly 10 is not more than 10
    { scores: [100, 100, 50], expected: false }, // not strictly declining
    { scores: [50, 100, 40], expected: false },
    { scores: [10, 100, 80, 60], expected: true }, // only the last three count
    { scores: [100, 80, 60, 70], expected: false },
    { scores: [100, 66.7, 33.3], expected: true },
  ])('$scores → $expected', ({ scores, expected }) => {
    expect(detectQualityRegression(scores)).toBe(expected);
  });
});
