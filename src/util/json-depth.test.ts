import { describe, expect, it } from 'vitest';
import { cutDeeperThan, DEEP_MARKER, nestsDeeperThan } from './json-depth.js';

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? [value] : { inner: value };
  return value;
}

describe('nestsDeeperThan', () => {
  it.each([
    ['a string', 'x', 3, false],
    ['null', null, 1, false],
    ['an empty object', {}, 1, false],
    ['three levels, limit three', nested(3), 3, false],
    ['four levels, limit three', nested(4), 3, true],
    ['a wide shallow object', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, { v: [i] }])), 3, false],
    ['deep on one branch only', { a: 1, b: { c: nested(10) } }, 5, true],
    ['100,000 levels', nested(100_000), 64, true],
  ])('%s', (_label, value, limit, expected) => {
    expect(nestsDeeperThan(value, limit)).toBe(expected);
  });
});

describe('cutDeeperThan', () => {
  it('leaves shallow values untouched and says so', () => {
    const value = { a: [1, { b: 'c' }] };
    expect(cutDeeperThan(value, 3)).toBe(0);
    expect(value).toEqual({ a: [1, { b: 'c' }] });
  });

  it('replaces what lies below the limit with the marker, keeping everything above', () => {
    const value = { keep: 'me', deep: { one: { two: { three: ['x'] } } }, list: [[['y']]] };
    expect(cutDeeperThan(value, 3)).toBe(2);
    expect(value).toEqual({ keep: 'me', deep: { one: { two: DEEP_MARKER } }, list: [[DEEP_MARKER]] });
    expect(nestsDeeperThan(value, 3)).toBe(false);
  });

  it('makes 100,000 levels safe for recursive readers', () => {
    const value = nested(100_000);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(cutDeeperThan(value, 64)).toBe(1);
    expect(JSON.stringify(value)).toContain(DEEP_MARKER);
  });
});
