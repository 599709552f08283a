// The gate's run judged by name against the runs before it (in-process, on records built as the hooks and the
// gate build them).
import { describe, expect, it } from 'vitest';
import type { NamedTest, RunNames } from '../testwatch/test-names.js';
import { describeVanished, judgeNames } from './test-names-judge.js';
import { acceptNames, addRunNames, emptyRecord, type NamesRecord, type RunAbout } from './test-names-record.js';

const names = (runner: string, tests: [string, NamedTest['outcome']][]): RunNames => ({ runner, tests: tests.map(([name, outcome]) => ({ name, outcome })) });
const about = (by: 'gate' | 'observed', at: string, tree?: string): RunAbout => ({
  by,
  at,
  command: 'npm test',
  phase: '06-implementation',
  ...(tree ? { tree } : {}),
});

function recordOf(...runs: [RunAbout, RunNames][]): NamesRecord {
  const record = emptyRecord('feature@x');
  for (const [run, named] of runs) addRunNames(record, run, named);
  return record;
}

const before = names('mocha', [
  ['slug > keeps digits', 'passed'],
  ['slug > lowercases', 'failed'],
  ['slug > trims', 'passed'],
]);

describe('tests seen earlier that the gate run does not pass', () => {
  it.each([
    [
      'todo',
      [
        ['slug > keeps digits', 'passed'],
        ['slug > lowercases', 'todo'],
        ['slug > trims', 'passed'],
        ['added', 'passed'],
      ],
      [['slug > lowercases', 'todo']],
    ],
    [
      'skipped',
      [
        ['slug > keeps digits', 'passed'],
        ['slug > lowercases', 'skipped'],
        ['slug > trims', 'passed'],
      ],
      [['slug > lowercases', 'skipped']],
    ],
    [
      'missing',
      [
        ['slug > keeps digits', 'passed'],
        ['slug > trims', 'passed'],
        ['added', 'passed'],
      ],
      [['slug > lowercases', 'missing']],
    ],
    [
      'all there and passing',
      [
        ['slug > keeps digits', 'passed'],
        ['slug > lowercases', 'passed'],
        ['slug > trims', 'passed'],
      ],
      [],
    ],
  ] as const)('%s', (_case, gate, expected) => {
    const record = recordOf([about('observed', '2026-11-25T10:42:00.000Z'), before]);
    const run = addRunNames(record, about('gate', '2026-11-25T11:00:00.000Z'), names('mocha', gate as unknown as [string, NamedTest['outcome']][]));
    expect(judgeNames(record, run).vanished.map((test) => [test.name, test.now])).toEqual(expected);
  });

  it('compares only names of the same runner: another runner names other tests', () => {
    const record = recordOf([about('observed', '2026-11-25T10:42:00.000Z'), names('jest', [['e2e > logs in', 'passed']])]);
    const run = addRunNames(record, about('gate', '2026-11-25T11:00:00.000Z'), names('mocha', [['slug > keeps digits', 'passed']]));
    expect(judgeNames(record, run).vanished).toEqual([]);
  });

  it('a test only ever seen skipped or todo is not held', () => {
    const record = recordOf([
      about('observed', '2026-11-25T10:42:00.000Z'),
      names('mocha', [
        ['later', 'todo'],
        ['a', 'passed'],
      ]),
    ]);
    const run = addRunNames(record, about('gate', '2026-11-25T11:00:00.000Z'), names('mocha', [['a', 'passed']]));
    expect(judgeNames(record, run).vanished).toEqual([]);
  });

  it("a person's acceptance stops counting the test until a run names it again", () => {
    const record = recordOf([about('observed', '2026-11-25T10:42:00.000Z'), before]);
    const gate = names('mocha', [
      ['slug > keeps digits', 'passed'],
      ['slug > trims', 'passed'],
    ]);
    const first = addRunNames(record, about('gate', '2026-11-25T11:00:00.000Z'), gate);
    acceptNames(
      record,
      'mocha',
      judgeNames(record, first).vanished.map((test) => test.name),
      'ada',
      '2026-11-25T11:05:00.000Z',
    );
    expect(record.accepted).toEqual([{ at: '2026-11-25T11:05:00.000Z', by: 'ada', runner: 'mocha', names: ['slug > lowercases'] }]);
    expect(judgeNames(record, addRunNames(record, about('gate', '2026-11-25T11:10:00.000Z'), gate)).vanished).toEqual([]);
    addRunNames(record, about('observed', '2026-11-25T11:20:00.000Z'), before);
    expect(judgeNames(record, addRunNames(record, about('gate', '2026-11-25T11:30:00.000Z'), gate)).vanished.map((test) => test.name)).toEqual([
      'slug > lowercases',
    ]);
  });

  it('names them in the detail, a few and how many more', () => {
    const many = names(
      'mocha',
      Array.from({ length: 8 }, (_, i) => [`t${i}`, 'passed'] as [string, 'passed']),
    );
    const record = recordOf([about('observed', '2026-11-25T10:42:00.000Z'), many]);
    const run = addRunNames(record, about('gate', '2026-11-25T11:00:00.000Z'), names('mocha', [['other', 'passed']]));
    const detail = describeVanished(judgeNames(record, run).vanished);
    expect(detail).toMatch(/^8 tests seen earlier do not pass now: `t\d` passed at 10:42 \(`npm test`\), is missing now; /);
    expect(detail).toContain('; and 3 more');
  });
});

describe('a test that behaves differently under the gate', () => {
  const failing = names('mocha', [['x', 'failed']]);
  const passing = names('mocha', [['x', 'passed']]);
  it.each([
    ['same files: refused', 'tree-a', 'tree-a', ['x']],
    ['files changed in between: not comparable', 'tree-a', 'tree-b', []],
    ['no digest on either side', undefined, undefined, []],
  ] as const)('%s', (_case, observedTree, gateTree, expected) => {
    const record = recordOf([about('observed', '2026-11-25T10:42:00.000Z', observedTree), failing]);
    const run = addRunNames(record, about('gate', '2026-11-25T11:00:00.000Z', gateTree), passing);
    expect(judgeNames(record, run).changed.map((test) => test.name)).toEqual(expected);
  });
});

describe('the record stays bounded', () => {
  it('keeps at most 4000 tests, the most recently seen, and says how many of its names a run kept', () => {
    const record = emptyRecord('feature@x');
    addRunNames(
      record,
      about('observed', '2026-11-25T10:00:00.000Z'),
      names(
        'mocha',
        Array.from({ length: 3000 }, (_, i) => [`old ${i}`, 'passed'] as [string, 'passed']),
      ),
    );
    const run = addRunNames(
      record,
      about('gate', '2026-11-25T11:00:00.000Z'),
      names(
        'mocha',
        Array.from({ length: 4500 }, (_, i) => [`new ${i}`, 'passed'] as [string, 'passed']),
      ),
    );
    expect(Object.keys(record.tests['mocha']!)).toHaveLength(4000);
    expect(run).toMatchObject({ named: 4500, kept: 4000 });
    expect(run.digest).toMatch(/^[0-9a-f]{64}$/);
    // Not every name of the gate's run is kept: a test missing from it cannot be told from one not kept.
    expect(judgeNames(record, run)).toMatchObject({ partial: true, vanished: [] });
  });

  it('keeps the last 40 runs and drops the outcomes of older ones', () => {
    const record = emptyRecord('feature@x');
    for (let i = 0; i < 45; i += 1)
      addRunNames(record, about('observed', `2026-11-25T10:${String(i).padStart(2, '0')}:00.000Z`), names('mocha', [[`t${i}`, 'passed']]));
    expect(record.runs).toHaveLength(40);
    expect(Object.keys(record.tests['mocha']!)).toHaveLength(40);
  });
});
