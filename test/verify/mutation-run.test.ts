// The gate's mutation run with a tool that is not Stryker: a command with `{files}` that writes a standard
// mutation-testing report, run as a real child process in a project folder. What it records when it wrote a
// report, when it wrote none, an old one, one that is not the shape, or ran out of time; and the verdict on
// each, with the survivors named.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { MutationTool } from '../../src/config/detect-mutation.js';
import { gateIsolation } from '../../src/hosts/index.js';
import { judgeMutationRun } from '../../src/verify/mutation-evidence.js';
import { failedInitialRun, mutationCommandLine, runMutation, type MutationRun } from '../../src/verify/mutation-run.js';
import { FIXTURES, tempDir } from '../helpers/project.js';

const ISOLATION = gateIsolation();
const NO_SANDBOX = { ok: false as const, why: 'not used in this test' };
const CHANGED = [{ file: 'src/calc.js', ranges: [[2, 3]] as [number, number][] }];
const SOURCE = 'function add(a, b) {\n  if (a > 0) return a + b;\n  return b;\n}\n';

function mutant(id: string, line: number, status: string, extra: object = {}) {
  return { id, mutatorName: 'EqualityOperator', replacement: 'a >= 0', status, location: { start: { line, column: 7 }, end: { line, column: 12 } }, ...extra };
}

/** A producer of its own: a node script that writes the report for the files it is given. */
const WRITER = `const fs = require('node:fs');
const files = process.argv.slice(2);
fs.mkdirSync('out', { recursive: true });
const report = {
  schemaVersion: '1.0', thresholds: { high: 80, low: 60 },
  files: Object.fromEntries(files.map((file) => [file, { language: 'javascript', source: fs.readFileSync(file, 'utf8'), mutants: MUTANTS }])),
  testFiles: { 'test/calc.test.js': { tests: [{ id: 't1', name: 'adds' }] } },
};
fs.writeFileSync('out/mutation.json', JSON.stringify(report));
console.log('mutated', files.join(' '));
`;

function project(mutants: object[]): string {
  const dir = tempDir('isdlc-mutation-run-');
  const put = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put('src/calc.js', SOURCE);
  put('mutate.js', WRITER.replace('MUTANTS', JSON.stringify(mutants)));
  return dir;
}

const tool = (command: string): MutationTool => ({ command, stryker: false, report: 'out/mutation.json', from: 'file' });

async function run(dir: string, command: string, timeoutMinutes = 1): Promise<MutationRun> {
  return runMutation({
    root: dir,
    phase: '06-implementation',
    threshold: 65,
    tool: tool(command),
    baseCommit: 'a'.repeat(40),
    changed: CHANGED,
    timeoutMinutes,
    isolation: ISOLATION,
    sandbox: NO_SANDBOX,
  });
}

describe('the command line', () => {
  test.each<[string, MutationTool, string]>([
    ['{files}, shell-quoted', tool('mutate --report json {files}'), 'mutate --report json src/calc.js'],
    ['another tool without {files}: as written', tool('make mutants'), 'make mutants'],
    [
      'Stryker as detected: the changed ranges, the json reporter, the runner plugin',
      { command: 'npx stryker run', stryker: true, testRunner: 'vitest', report: 'r.json', from: 'detected' },
      'npx stryker run --mutate src/calc.js:2-3 --reporters json --testRunner vitest',
    ],
    [
      'Stryker with its config file: no runner named',
      { command: 'npx stryker run', stryker: true, configFile: 'stryker.config.json', report: 'r.json', from: 'detected' },
      'npx stryker run --mutate src/calc.js:2-3 --reporters json',
    ],
  ])('%s', (_what, given, line) => {
    expect(mutationCommandLine(given, CHANGED)).toBe(line);
  });

  test('a file name the shell would read is quoted', () => {
    expect(mutationCommandLine(tool('m {files}'), [{ file: "src/it's $HOME.js", ranges: [[1, 1]] }])).toBe(`m 'src/it'\\''s $HOME.js'`);
  });
});

describe('a run with a producer of its own', () => {
  test('it wrote a report: measured on the changed lines, survivors named with the tests that ran them', async () => {
    const dir = project([mutant('1', 2, 'Killed'), mutant('2', 2, 'Survived', { coveredBy: ['t1'] }), mutant('3', 9, 'Survived')]);
    const measured = await run(dir, 'node mutate.js {files}');
    expect(measured).toMatchObject({ result: 'measured', score: 50, mutants: 2, survivors_total: 1, command: 'node mutate.js src/calc.js', exit_code: 0 });
    const verdict = judgeMutationRun(measured);
    expect(verdict.met).toBe(false);
    expect(verdict.detail).toContain(
      'its score 50% is below the 65% this phase requires. Not caught: src/calc.js:2 EqualityOperator: a > 0 → a >= 0 (covered by "adds", not caught)',
    );
    expect(verdict.action).toMatch(/^write or strengthen tests that fail on these changes/);
  });

  test('an Ignored mutant on a changed line is not caught, and the verdict says why', async () => {
    const dir = project([mutant('1', 2, 'Killed'), mutant('2', 2, 'Killed'), mutant('3', 3, 'Ignored', { statusReason: 'disabled by comment' })]);
    const measured = await run(dir, 'node mutate.js {files}');
    expect(measured).toMatchObject({ result: 'measured', score: 66.6 });
    const verdict = judgeMutationRun(measured);
    expect(verdict.met).toBe(true);
    expect(verdict.detail).toContain('1 mutant the tool was told to ignore counts as not caught');
  });

  test('it wrote no report: unknown, with its last lines', async () => {
    const dir = project([]);
    const measured = await run(dir, 'node -e "console.log(\'no report today\')"');
    expect(measured).toMatchObject({ result: 'unknown', why: 'out/mutation.json: it wrote no report there' });
    expect(measured.excerpt).toContain('no report today');
    expect(judgeMutationRun(measured)).toMatchObject({ met: false, detail: expect.stringContaining('it measured nothing') });
  });

  test("a report older than the run is an earlier run's", async () => {
    const dir = project([mutant('1', 2, 'Killed')]);
    await run(dir, 'node mutate.js {files}');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'out/mutation.json'), past, past);
    const measured = await run(dir, 'node -e "0"');
    expect(measured).toMatchObject({ result: 'unknown', why: expect.stringContaining('older than this run') });
  });

  test('a report that is not the shape measures nothing', async () => {
    const dir = project([]);
    const measured = await run(
      dir,
      `node -e "require('fs').mkdirSync('out',{recursive:true});require('fs').writeFileSync('out/mutation.json','{\\"score\\":100}')"`,
    );
    expect(measured).toMatchObject({ result: 'unknown', why: expect.stringContaining('is not a mutation-testing report') });
  });

  test('out of time: stopped, unknown, and a person may raise the budget', async () => {
    const dir = project([]);
    const measured = await run(dir, 'node -e "setTimeout(() => {}, 60000)"', 0.02);
    expect(measured).toMatchObject({ result: 'unknown', timed_out: true });
    expect(judgeMutationRun(measured).action).toContain('mutation_timeout_minutes');
  });

  test('no mutant on the changed lines: met, nothing there to mutate', async () => {
    const dir = project([mutant('1', 9, 'Survived')]);
    const measured = await run(dir, 'node mutate.js {files}');
    expect(measured).toMatchObject({ result: 'measured', score: null, mutants: 0 });
    expect(judgeMutationRun(measured)).toMatchObject({ met: true, detail: expect.stringContaining('nothing there to mutate') });
  });
});

describe("Stryker's unmutated first run failing", () => {
  test('names the tests it saw failing, from what Stryker 10 prints', () => {
    const printed = readFileSync(join(FIXTURES, 'mutation/stryker-initial-run-failed.txt'), 'utf8');
    expect(failedInitialRun(printed)).toEqual(['discount keeps the total at the limit']);
    expect(failedInitialRun('INFO DryRunExecutor Initial test run succeeded. Ran 3 tests in 0 seconds')).toBeUndefined();
  });

  test('a run that stopped there is refused as tests that behave differently, naming them', async () => {
    const dir = tempDir('isdlc-mutation-initial-');
    writeFileSync(
      join(dir, 'print.js'),
      `process.stdout.write(require('node:fs').readFileSync(${JSON.stringify(join(FIXTURES, 'mutation/stryker-initial-run-failed.txt'))}, 'utf8')); process.exit(1);`,
    );
    const tool: MutationTool = { command: 'node print.js {files}', report: 'reports/mutation/mutation.json', stryker: false, from: 'file' };
    const run = await runMutation({
      root: dir,
      phase: '06-implementation',
      threshold: 80,
      tool,
      baseCommit: 'a'.repeat(40),
      changed: CHANGED,
      timeoutMinutes: 1,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run).toMatchObject({ result: 'unknown', behaves_differently: true });
    const verdict = judgeMutationRun(run);
    expect(verdict.met).toBe(false);
    expect(verdict.detail).toContain('failed when the mutation tool ran them without any mutant (`discount keeps the total at the limit`)');
    expect(verdict.action).toContain('assert the same wherever they run');
  });
});

describe('caught mutants made by hand: the tool’s word checked', () => {
  // `a + b` → `a - b` on line 2, which the tool says the test "adds" caught.
  const MINUS = mutant('1', 2, 'Killed', {
    mutatorName: 'ArithmeticOperator',
    replacement: 'a - b',
    killedBy: ['t1'],
    location: { start: { line: 2, column: 21 }, end: { line: 2, column: 26 } },
  });

  function gitProject(test: string): string {
    const dir = project([MINUS]);
    writeFileSync(
      join(dir, 'test.js'),
      `const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./src/calc.js');\n${test}\n`,
    );
    writeFileSync(join(dir, 'src/calc.js'), `${SOURCE}module.exports = { add };\n`);
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
    ])
      spawnSync('git', args, { cwd: dir });
    return dir;
  }

  async function measuredWithRecheck(dir: string, command = 'node --test test.js'): Promise<MutationRun> {
    return runMutation({
      root: dir,
      phase: '06-implementation',
      threshold: 65,
      tool: tool('node mutate.js {files}'),
      baseCommit: 'a'.repeat(40),
      changed: CHANGED,
      timeoutMinutes: 1,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
      recheck: { command, timeoutMinutes: 1, pick: () => [0] },
    });
  }

  test('a test that checks the sum fails with `a - b` in the file: caught, as the tool said', async () => {
    const dir = gitProject("test('adds', () => assert.strictEqual(add(2, 3), 5));");
    const measured = await measuredWithRecheck(dir);
    expect(measured.rechecked).toEqual([expect.objectContaining({ file: 'src/calc.js', line: 2, replacement: 'a - b', result: 'caught', exit_code: 1 })]);
    const verdict = judgeMutationRun(measured);
    expect(verdict.met).toBe(true);
    expect(verdict.detail).toContain('1 of the caught mutants made by hand failed the tests too');
    expect(readFileSync(join(dir, 'src/calc.js'), 'utf8'), 'the project’s own file is never changed').toContain('return a + b');
  });

  test('a test that asserts nothing passes with `a - b` in the file: the kill was the tool’s switch, refused', async () => {
    const dir = gitProject("test('adds', () => { add(2, 3); });");
    const measured = await measuredWithRecheck(dir);
    expect(measured).toMatchObject({ result: 'measured', score: 100 });
    expect(measured.rechecked).toEqual([expect.objectContaining({ result: 'not caught', exit_code: 0, killed_by: ['adds'] })]);
    const verdict = judgeMutationRun(measured);
    expect(verdict.met).toBe(false);
    expect(verdict.detail).toContain(
      'the tool said src/calc.js:2 ArithmeticOperator: a + b → a - b was caught by "adds", but with that change made to the file by isdlc the tests pass',
    );
    expect(verdict.action).toContain('a test that looks at the mutation tool');
  });

  test('a link the agent left where the copy goes: nothing is written through it, the copy goes in a folder of the project’s', async () => {
    const dir = gitProject("test('adds', () => { add(2, 3); });");
    const elsewhere = tempDir('isdlc-mutant-elsewhere-');
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(elsewhere, join(dir, 'node_modules/.cache'));
    const measured = await measuredWithRecheck(dir);
    expect(measured.rechecked).toEqual([expect.objectContaining({ result: 'not caught' })]);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(readdirSync(dir).sort(), 'the copy’s folder is gone').toEqual(['.git', 'mutate.js', 'node_modules', 'out', 'src', 'test.js']);
  });

  test('a suite that proves nothing from the copy confirms no kill: refused, with the person’s way out', async () => {
    const dir = gitProject("test('adds', () => assert.strictEqual(add(2, 3), 5));");
    const measured = await measuredWithRecheck(dir, 'no-such-runner-here');
    expect(measured.rechecked).toEqual([expect.objectContaining({ result: 'unknown' })]);
    const verdict = judgeMutationRun(measured);
    expect(verdict.met).toBe(false);
    expect(verdict.detail).toContain("isdlc could not confirm the tool's word on any caught mutant by making it by hand");
    expect(verdict.action).toContain('isdlc config set testing mutation_recheck false');
  });
});
