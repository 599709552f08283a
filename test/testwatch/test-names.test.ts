// The names of the tests a run ran, read from outputs recorded by running each runner (test/fixtures/runners):
// every fixture whose meta lists `names` must give exactly those, and the other shapes below what they print.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { junitNames, reporterFileNames } from '../../src/testwatch/reporter-names-junit.js';
import { jsonReportNames } from '../../src/testwatch/reporter-names.js';
import { nameOf, titlePart } from '../../src/testwatch/test-name.js';
import { readTestNames, wholeList, type RunNames } from '../../src/testwatch/test-names.js';
import { FIXTURES } from '../helpers/project.js';

const root = join(FIXTURES, 'runners');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');
const pairs = (names: RunNames | null): [string, string][] => (names?.tests ?? []).map((test) => [test.name, test.outcome]);

interface Meta {
  command: string;
  names?: [string, string][];
}

const named = readdirSync(root).flatMap((runner) =>
  readdirSync(join(root, runner))
    .filter((file) => file.endsWith('.json') && !file.endsWith('.report.json') && existsSync(join(root, runner, file.replace(/\.json$/, '.txt'))))
    .map((file) => ({ id: `${runner}/${file.replace(/\.json$/, '')}`, meta: JSON.parse(read(`${runner}/${file}`)) as Meta }))
    .filter((c) => c.meta.names !== undefined),
);

describe('test names from a run', () => {
  it('has a recorded output for each format with todo and skipped tests', () => {
    expect(named.map((c) => c.id).sort()).toEqual(
      expect.arrayContaining([
        'jest/names-todo-skip-verbose',
        'mocha/names-pending',
        'mocha/names-pending-reporter-tap',
        'node-test-spec/names-todo-skip-nested',
        'node-test-tap/names-todo-skip-nested',
        'tape/names-todo',
        'vitest/names-todo-skip-verbose',
      ]),
    );
  });

  it.each(named.map((c) => [c.id, c] as const))('%s names its tests with their outcomes', (id, { meta }) => {
    expect(pairs(readTestNames(read(`${id}.txt`), meta.command)).sort()).toEqual([...meta.names!].sort());
  });

  it.each([
    ['pytest/failing-verbose', 'pytest -v', 'pytest', ['test_add', 'passed'], ['TestShout > test_shout_keeps_case', 'failed'], 5],
    ['go/failing-verbose', 'go test -v ./...', 'go', ['TestAdd', 'passed'], ['TestAddOverflowExpectation', 'failed'], undefined],
    ['cargo/failing', 'cargo test', 'cargo', ['add_is_commutative', 'passed'], ['add_overflow_expectation', 'failed'], undefined],
    ['cargo/skipped', 'cargo test', 'cargo', ['tests > adds_positive', 'passed'], undefined, undefined],
    ['go/skipped-verbose', 'go test -v ./...', 'go', undefined, undefined, undefined],
    ['jest/failing-verbose', 'npx jest --verbose', 'jest', ['math > adds two numbers', 'passed'], ['greet > greets a user by name', 'failed'], 5],
    [
      'vitest/failing-verbose',
      'npx vitest run --reporter=verbose',
      'vitest',
      ['math > adds two numbers', 'passed'],
      ['math > divides two numbers', 'failed'],
      5,
    ],
    ['mocha/failing', 'npx mocha', 'mocha', ['greet > shouts a word', 'passed'], ['math > divides two numbers', 'failed'], 5],
    ['node-test-spec/failing-node24-default', 'node --test', 'node-test', undefined, ['math > divides two numbers', 'failed'], undefined],
    [
      'node-test-tap/failing-subtest',
      'node --test',
      'node-test',
      ['checkout flow > adds an item to the cart', 'passed'],
      ['checkout flow > applies the discount code', 'failed'],
      undefined,
    ],
    ['tape/failing', "npx tape 'test/*.js'", 'tap', undefined, undefined, undefined],
    ['mocha/failing-reporter-tap', "npx mocha 'test/*.spec.js' --reporter tap", 'tap', undefined, undefined, undefined],
  ] as const)('%s: read as %s names (%s)', (id, command, runner, passing, failing, count) => {
    const names = readTestNames(read(`${id}.txt`), command);
    expect(names?.runner).toBe(runner);
    if (passing) expect(pairs(names)).toContainEqual(passing);
    if (failing) expect(pairs(names)).toContainEqual(failing);
    if (count !== undefined) expect(names!.tests).toHaveLength(count);
    expect(names!.tests.every((test) => test.name !== '' && !/\(\d|\bms\b|\u001b/.test(test.name))).toBe(true);
  });

  it.each([
    ['mocha/failing-dot', 'npx mocha --reporter dot'],
    ['jest/failing', 'npx jest'],
    ['pytest/failing-quiet', 'pytest -q'],
    ['go/failing', 'go test ./...'],
  ])('%s names no test: null', (id, command) => {
    expect(readTestNames(read(`${id}.txt`), command)).toBeNull();
  });

  it('takes a file node --test reports as one point (a script with no node:test tests) for no test', () => {
    const names = readTestNames(read('node-test-tap/names-plain-file.txt'), 'node --test');
    expect(names?.tests ?? []).toEqual([]);
  });

  it('keeps a test file apart from the title path, where the format names one', () => {
    const vitest = readTestNames(read('vitest/names-todo-skip-verbose.txt'), 'npx vitest run --reporter=verbose')!;
    expect(vitest.tests.find((test) => test.name === 'slug > keeps digits')?.file).toBe('slug.test.js');
    const jest = readTestNames(read('jest/names-todo-skip-verbose.txt'), 'npx jest --verbose')!;
    expect(jest.tests.find((test) => test.name === 'top level works')?.file).toBe('slug.test.js');
  });
});

describe('test names from reporter files', () => {
  it('reads Jest and Vitest JSON reports, todo and pending included', () => {
    const expected = [
      ['slug > keeps digits', 'passed'],
      ['slug > lowercases', 'failed'],
      ['slug > drops accents', 'skipped'],
      ['slug > handles emoji', 'todo'],
      ['slug > nested > trims spaces', 'passed'],
      ['top level works', 'passed'],
    ].sort();
    expect(pairs(jsonReportNames(read('jest/names-todo-skip.report.json'))).sort()).toEqual(expected);
    expect(pairs(jsonReportNames(read('vitest/names-todo-skip.report.json'))).sort()).toEqual(expected);
  });

  it("reads Mocha's JSON report", () => {
    expect(pairs(jsonReportNames(read('mocha/names-pending.report.json'))).sort()).toEqual(
      [
        ['top level works', 'passed'],
        ['slug keeps digits', 'passed'],
        ['slug lowercases', 'failed'],
        ['slug drops accents', 'skipped'],
        ['slug handles emoji', 'skipped'],
        ['slug nested trims spaces', 'passed'],
      ].sort(),
    );
  });

  it('reads JUnit XML with an XML parser (entities decoded, title paths kept)', () => {
    const vitest = junitNames(read('vitest/names-todo-skip.junit.xml'));
    expect(pairs(vitest)).toContainEqual(['slug > nested > trims spaces', 'passed']);
    expect(pairs(vitest)).toContainEqual(['slug > lowercases', 'failed']);
    expect(pairs(vitest)).toContainEqual(['slug > handles emoji', 'skipped']);
    expect(vitest!.tests.find((test) => test.name === 'slug > lowercases')?.file).toBe('slug.test.js');
    for (const file of ['jest/failing.junit.xml', 'vitest/failing.junit.xml', 'pytest/failing.junit.xml']) {
      const names = junitNames(read(file));
      expect(names?.tests.filter((test) => test.outcome === 'failed').length, file).toBe(2);
    }
    expect(junitNames('<not xml')).toBeNull();
  });

  it('reads a reporter file only when this run wrote it', () => {
    const path = join(root, 'vitest', 'names-todo-skip.junit.xml');
    expect(reporterFileNames(path, 0)).not.toBeNull();
    expect(reporterFileNames(path, Date.now() + 60_000)).toBeNull();
  });
});

describe('a test identity', () => {
  it.each([
    ['keeps digits (3ms)', 'keeps digits'],
    ['keeps digits (4 ms)', 'keeps digits'],
    ['keeps   digits  12ms', 'keeps digits'],
    ['keeps digits [1.5ms]', 'keeps digits'],
    ['trims (3ms) spaces', 'trims (3ms) spaces'],
  ])('%j is %j', (raw, part) => {
    expect(titlePart(raw)).toBe(part);
  });

  it('joins the title path with >', () => {
    expect(nameOf(['slug ', ' nested', 'keeps  digits'])).toBe('slug > nested > keeps digits');
  });
});

describe('a whole list of names', () => {
  const summary = (passed: number, failed: number, skipped: number) => ({
    runner: 'x',
    passed,
    failed,
    skipped,
    errors: 0,
    failingTests: [],
    skippedTests: [],
  });
  const names = readTestNames(read('mocha/names-pending.txt'), 'npx mocha')!;

  it('is the names when they are as many as the summary counts', () => {
    expect(wholeList(names, summary(3, 1, 2))).toBe(names);
  });

  it('is null when the summary counts more tests than are named (an output cut short)', () => {
    expect(wholeList(names, summary(30, 1, 2))).toBeNull();
  });

  it('is the names of a runner that counts assertions, whatever its count', () => {
    const tape = readTestNames(read('tape/names-todo.txt'), 'npx tape')!;
    expect(wholeList(tape, summary(30, 1, 2))).toBe(tape);
  });
});
