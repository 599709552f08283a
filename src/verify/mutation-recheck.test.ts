import { describe, expect, it } from 'vitest';
import { applyMutant } from './mutation-recheck.js';

const SOURCE = 'function discount(total, limit) {\n  if (total >= limit) {\n    return total * 0.9;\n  }\n  return total;\n}\n';
const at = (line: number, column: number) => ({ line, column });

describe('a mutant made by hand: the report’s place (lines and columns from 1, the end column exclusive) replaced', () => {
  const cases: [string, { start: { line: number; column: number }; end: { line: number; column: number } }, string, string | undefined][] = [
    ['an operator on one line', { start: at(2, 7), end: at(2, 21) }, 'total > limit', SOURCE.replace('total >= limit', 'total > limit')],
    ['a block over lines', { start: at(2, 23), end: at(4, 4) }, '{}', SOURCE.replace('{\n    return total * 0.9;\n  }', '{}')],
    ['the first column', { start: at(1, 1), end: at(1, 9) }, 'async function', `async ${SOURCE}`],
    ['a line past the end', { start: at(9, 1), end: at(9, 2) }, 'x', undefined],
    ['a column past its line', { start: at(5, 1), end: at(5, 40) }, 'x', undefined],
    ['an end before the start', { start: at(2, 21), end: at(2, 7) }, 'x', undefined],
  ];
  for (const [what, location, replacement, expected] of cases) {
    it(what, () => expect(applyMutant(SOURCE, location, replacement)).toBe(expected));
  }
});
