// A new user's first implementation gate, on projects with real runners from the npm registry: `init`, then
// only what isdlc prints, to a completed 06-implementation. The phase wants a coverage figure from the gate's
// own run; a mocha project has nothing that measures one until the step init names is taken, and gate check
// says so before `phase complete` finds out. A jest project measures with what jest has.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activate, complete, isdlc, refused, satisfyGate, send } from '../helpers/handshake.js';
import { bashPassed } from '../helpers/payloads.js';
import { cleanEnv, cli, readJson, tempDir, writeFile, writePlan } from '../helpers/project.js';

type State = Record<string, any>;
const IMPL = '06-implementation';
const BEFORE_IMPL = ['01-requirements', '02-tracing', '05-test-strategy'];
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];

function sh(dir: string, line: string): void {
  const run = spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: cleanEnv(), timeout: 180_000 });
  expect(run.status, `${line}\n${run.stdout}${run.stderr}`).toBe(0);
}

function git(dir: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=dev', ...args], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

const SLUG = 'module.exports = (text) => text.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");\n';

/** A small library with its tests, the runner installed from the registry and committed, as a user's project is. */
function userProject(runner: 'mocha' | 'jest', version: string): string {
  const dir = tempDir(`isdlc-first-gate-${runner}-`);
  writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: `slug-${runner}`, version: '1.0.0', private: true, scripts: { test: runner } }, null, 2)}\n`);
  writeFile(join(dir, 'slug.js'), SLUG);
  const test =
    runner === 'mocha'
      ? `const assert = require('node:assert');\nconst slug = require('../slug');\ndescribe('slug', () => {\n  it('joins words', () => assert.strictEqual(slug(' Hello World '), 'hello-world'));\n  it('drops symbols', () => assert.strictEqual(slug('a&b'), 'a-b'));\n});\n`
      : `const slug = require('../slug');\ntest('joins words', () => expect(slug(' Hello World ')).toBe('hello-world'));\ntest('drops symbols', () => expect(slug('a&b')).toBe('a-b'));\n`;
  writeFile(join(dir, runner === 'mocha' ? 'test/slug.test.js' : '__tests__/slug.test.js'), test);
  writeFile(join(dir, '.gitignore'), 'node_modules/\ncoverage/\n');
  sh(dir, `npm install --save-dev ${runner}@${version} ${NPM_QUIET.join(' ')}`);
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'the library');
  return dir;
}

/** init as the user types it; its whole output, for the steps it names. */
function init(dir: string): string {
  const run = cli(['init', dir]);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout + run.stderr;
}

/** The fix workflow up to its implementation phase, each earlier gate met the way an agent meets it. */
function reachImplementation(dir: string): void {
  writePlan(dir);
  isdlc(dir, ['workflow', 'start', 'fix', '--description', 'slug keeps digits']);
  for (const [index, phase] of BEFORE_IMPL.entries()) {
    if (index > 0) activate(dir);
    satisfyGate(dir, phase, { type: 'fix' });
    complete(dir, `${phase} done`);
  }
  activate(dir);
  expect(readJson<State>(join(dir, '.isdlc/state.json'))['active_workflow'].current_phase).toBe(IMPL);
}

/** The agent's own run of the suite, as its hooks see it: the real output of `npm test`. */
function agentRunsTests(dir: string): void {
  const run = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  send(dir, bashPassed(dir, 'npm test', run.stdout, run.stderr));
}

const stateOf = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));
const gateCheck = (dir: string) => cli(['gate', 'check', '--json'], { cwd: dir });

describe('the first implementation gate, from init, by what isdlc prints', () => {
  it('mocha: init names the step that measures coverage, the gate says it is missing before any run, and after the step 06 completes', () => {
    const dir = userProject('mocha', '10.8.2');
    const said = init(dir);
    const step = /Coverage: .*06-implementation \(80%\).*mocha prints no coverage figure.*One step provides it: (.+?) \(the gate then/.exec(said)?.[1];
    expect(step, said).toBe('npm install --save-dev c8');
    const doctor = cli(['doctor', dir]);
    expect(doctor.stdout).toContain('mocha prints no coverage figure');
    expect(doctor.stdout).toContain(`fix: ${step}`);

    reachImplementation(dir);
    agentRunsTests(dir);
    // Everything else the phase needs is there; the coverage is knowably missing, so the gate is closed.
    expect(() => satisfyGate(dir, IMPL, { type: 'fix' })).toThrow('stayed closed');
    const closed = JSON.parse(gateCheck(dir).stdout) as { open: boolean; unmet: { requirement: string; detail: string; action: string }[] };
    expect(closed.open).toBe(false);
    expect(closed.unmet).toEqual([
      expect.objectContaining({
        requirement: 'verified_test_run',
        detail: expect.stringContaining('cannot measure coverage'),
        action: expect.stringContaining(step!),
      }),
    ]);
    // phase complete refuses for the same reason without running the suite first.
    const refusal = refused(dir, ['phase', 'complete']);
    expect(refusal).toContain('cannot measure coverage here: mocha prints no coverage figure');
    expect(refusal).not.toContain('the gate runs');
    expect(stateOf(dir)['active_workflow']['gate_runs'] ?? []).toEqual([]);

    // The person takes the step; nothing else.
    sh(dir, `${step!} ${NPM_QUIET.join(' ')}`);
    const open = cli(['gate', 'check'], { cwd: dir });
    expect(open.status, open.stdout).toBe(0);
    expect(open.stdout).toContain(`opens if the tests pass when \`isdlc phase complete\` runs them`);
    expect(open.stdout).toContain('npx c8 --reporter=text --reporter=json-summary npm test');
    expect(open.stdout).toContain('needs 80% line coverage');
    expect(open.stdout, 'installing a coverage tool is no change to the test definition').toMatch(
      /test_definition: `npm test` is defined as when the workflow started/,
    );

    const completed = cli(['phase', 'complete', '--summary', 'slug keeps digits'], { cwd: dir });
    expect(completed.status, completed.stderr).toBe(0);
    const run = stateOf(dir)['active_workflow']['gate_runs'].at(-1);
    expect(run).toMatchObject({ phase: IMPL, for_coverage: true, result: 'passed', counts: { passed: 2, failed: 0 } });
    expect(run.coverage.percent).toBe(100);
    expect(stateOf(dir)['active_workflow']['phase_status'][IMPL]).toBe('completed');
  });

  it('jest: coverage needs no step (jest measures with what it has), and 06 completes on the gate run init set up', () => {
    const dir = userProject('jest', '29.7.0');
    const said = init(dir);
    expect(said).not.toContain('Coverage:');
    expect(readJson(join(dir, '.isdlc/config/testing.json'))).toMatchObject({
      command: 'npm test',
      coverage_command: 'npx jest --coverage --coverageReporters=text --coverageReporters=json-summary',
    });
    expect(cli(['doctor', dir]).stdout).toMatch(/✓ coverage for 06-implementation \(80%\).*the gate measures it with `npx jest --coverage/);

    reachImplementation(dir);
    agentRunsTests(dir);
    satisfyGate(dir, IMPL, { type: 'fix' });
    const completed = cli(['phase', 'complete', '--summary', 'slug keeps digits'], { cwd: dir });
    expect(completed.status, completed.stderr).toBe(0);
    const run = stateOf(dir)['active_workflow']['gate_runs'].at(-1);
    expect(run).toMatchObject({ phase: IMPL, for_coverage: true, result: 'passed', counts: { passed: 2, failed: 0 } });
    expect(run.coverage.percent).toBe(100);
  });
});
