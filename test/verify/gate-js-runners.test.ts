// The gate's own run counts the tests of uvu, node-tap and AVA, each installed from the npm registry into a
// real project: `isdlc phase complete` through the built CLI passes a green suite with its counts on record,
// and refuses a red one naming the failing tests as the runner printed them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { implementationWithRunner } from '../helpers/npm-runners.js';
import { cli, readJson, writeFile } from '../helpers/project.js';

type State = Record<string, any>;
const IMPL = '06-implementation';

const MATH = { right: 'exports.add = (a, b) => a + b;\n', wrong: 'exports.add = (a, b) => a - b;\n' };

interface RunnerProject {
  spec: string;
  script: string;
  files: Record<string, string>;
  /** What the gate records of the green suite. */
  counts: { runner: string; passed: number; skipped: number };
  /** How the runner names the test that fails once `add` is wrong. */
  failing: string;
}

const RUNNERS: RunnerProject[] = [
  {
    spec: 'uvu@0.5.6',
    script: 'uvu tests',
    files: {
      'tests/math.js': [
        "const { test } = require('uvu');",
        "const assert = require('uvu/assert');",
        "const { add } = require('../math.js');",
        "test('adds two numbers', () => assert.is(add(1, 2), 3));",
        "test('adds zero', () => assert.is(add(2, 0), 2));",
        "test.skip('subtracts', () => {});",
        'test.run();',
        '',
      ].join('\n'),
    },
    counts: { runner: 'uvu', passed: 2, skipped: 1 },
    failing: 'adds two numbers',
  },
  {
    spec: 'tap@21.8.0',
    // No coverage gate of its own here: the project's code is one line.
    script: 'tap --allow-incomplete-coverage',
    files: {
      'test/math.test.js': [
        "const t = require('tap');",
        "const { add } = require('../math.js');",
        "t.test('add', async (t) => {",
        "  t.equal(add(1, 2), 3, 'adds two numbers');",
        "  t.equal(add(2, 0), 2, 'adds zero');",
        '});',
        "t.test('subtracts', { skip: 'not yet' }, async () => {});",
        '',
      ].join('\n'),
    },
    counts: { runner: 'node-tap', passed: 2, skipped: 1 },
    failing: 'add > adds two numbers',
  },
  {
    spec: 'ava@8.0.0',
    script: 'ava',
    files: {
      'test/math.js': [
        "const test = require('ava').default;",
        "const { add } = require('../math.js');",
        "test('adds two numbers', (t) => { t.is(add(1, 2), 3); });",
        "test('adds zero', (t) => { t.is(add(2, 0), 2); });",
        "test.skip('subtracts', (t) => { t.pass(); });",
        '',
      ].join('\n'),
    },
    counts: { runner: 'ava', passed: 2, skipped: 1 },
    // One test file: AVA leaves its name out.
    failing: 'adds two numbers',
  },
];

function project(runner: RunnerProject): string {
  return implementationWithRunner('isdlc-gate-js-runner-', { script: runner.script, spec: runner.spec, files: { 'math.js': MATH.right, ...runner.files } });
}

const stateOf = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));
const runsOf = (dir: string): State[] => stateOf(dir)['active_workflow']['gate_runs'] ?? [];

describe("the gate's own run counts JavaScript runners installed from npm", () => {
  it.each(RUNNERS.map((runner) => [runner.spec, runner] as const))(
    '%s: counted when green, refused naming the failure when red',
    { timeout: 300_000 },
    (_spec, runner) => {
      const red = project(runner);
      writeFile(join(red, 'math.js'), MATH.wrong);
      const refused = cli(['phase', 'complete', '--dir', red]);
      expect(refused.status, refused.stderr).not.toBe(0);
      expect(refused.stderr).toContain('verified_test_run: the gate ran');
      expect(refused.stderr).toContain(`failing: ${runner.failing}`);
      expect(runsOf(red)[0]).toMatchObject({ result: 'failed', counts: { runner: runner.counts.runner, failed: expect.any(Number) } });
      expect(runsOf(red)[0]!['counts']['failed']).toBeGreaterThanOrEqual(1);

      const green = project(runner);
      const passed = cli(['phase', 'complete', '--dir', green]);
      expect(passed.status, `${passed.stderr}\n${JSON.stringify(runsOf(green), null, 2)}`).toBe(0);
      const [run] = runsOf(green);
      expect(run).toMatchObject({
        command: 'npm test',
        result: 'passed',
        exit_code: 0,
        counts: { runner: runner.counts.runner, executed: runner.counts.passed, passed: runner.counts.passed, failed: 0, skipped: runner.counts.skipped },
      });
      expect(stateOf(green)['active_workflow']['phase_status'][IMPL]).toBe('completed');
      expect(readFileSync(join(green, 'package.json'), 'utf8')).toContain(runner.script);
    },
  );
});
