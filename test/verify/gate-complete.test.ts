// `isdlc phase complete` in a project whose 06-implementation gate runs the tests itself: the real CLI, real
// node --test suites in a temp project, the state file on disk. Each route an agent could take to a pass it
// did not earn is refused with the reason named; the honest path opens the gate and leaves its run on record.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashCall } from '../helpers/payloads.js';
import { cli, initedProject, readJson, writeFile, writeJson } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { compliant, delegated, testRecord, withConstitution, withTests, workflowState } from '../helpers/states.js';

type State = Record<string, any>;
const IMPL = '06-implementation';
const IMPL_ARTICLES = ['I', 'II', 'III', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];
const COVERAGE = 'node --experimental-test-coverage --test';

const ADD = { right: 'module.exports = (a, b) => a + b;\n', wrong: 'module.exports = (a, b) => a - b;\n' };
const ADD_TESTS = `const test = require('node:test');
const assert = require('node:assert');
const add = require('../add.js');
test('adds', () => assert.strictEqual(add(1, 2), 3));
test('adds zero', () => assert.strictEqual(add(0, 0), 0));
`;
const MORE_TESTS = `const test = require('node:test');
const assert = require('node:assert');
test('strings', () => assert.strictEqual('a' + 'b', 'ab'));
`;

interface Setup {
  add?: keyof typeof ADD;
  testing?: Record<string, unknown>;
  /** Observed runs already in the phase's history (as the hooks record them). */
  history?: State[];
  files?: Record<string, string>;
  requirements?: Record<string, unknown>;
}

/** 06-implementation with every other requirement met: the tests observed passing, articles compliant, the agent ran. */
function project(setup: Setup = {}): string {
  const dir = initedProject('isdlc-gate-run-');
  writeFile(join(dir, 'add.js'), ADD[setup.add ?? 'right']);
  writeFile(join(dir, 'test/add.test.js'), ADD_TESTS);
  for (const [rel, text] of Object.entries(setup.files ?? {})) writeFile(join(dir, rel), text);
  writeJson(join(dir, '.isdlc/config/testing.json'), setup.testing ?? { command: 'node --test', coverage_command: COVERAGE, timeout_minutes: 2 });
  if (setup.requirements) writeJson(join(dir, '.isdlc/config/iteration-requirements.json'), setup.requirements);
  const state = withTests(workflowState('feature', IMPL), IMPL, testRecord('passed', 1, { history: setup.history ?? [] }));
  withConstitution(state, IMPL, compliant(IMPL_ARTICLES));
  writeJson(join(dir, '.isdlc/state.json'), delegated(state, 'software-developer', IMPL));
  return dir;
}

const stateOf = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));
const complete = (dir: string) => cli(['phase', 'complete', '--dir', dir]);
const gateCheck = (dir: string) => cli(['gate', 'check', '--phase', IMPL, '--dir', dir]);
const runsOf = (dir: string): State[] => stateOf(dir)['active_workflow']['gate_runs'] ?? [];

function refusedFor(dir: string, ...said: string[]): void {
  const run = complete(dir);
  expect(run.status, run.stdout).not.toBe(0);
  for (const text of said) expect(run.stderr).toContain(text);
  expect(stateOf(dir)['active_workflow']['phase_status'][IMPL]).toBe('in_progress');
  const check = gateCheck(dir);
  expect(check.status).toBe(1);
  expect(check.stdout).toContain('verified_test_run');
}

describe('the gate runs the tests itself', () => {
  it('the honest path: the suite passes, the gate opens, and its run is in the state, the history and gate check', () => {
    const dir = project();
    const run = complete(dir);
    expect(run.status, run.stderr).toBe(0);
    // The person waiting is told what runs, and how long it took.
    expect(run.stderr).toMatch(/^isdlc: the gate runs `node --experimental-test-coverage --test` itself before the phase can complete \(timeout \d+ min\)…\n/);
    expect(run.stderr).toMatch(/isdlc: `node --experimental-test-coverage --test` finished in \d+(\.\d)? s\n$/);
    const state = stateOf(dir);
    expect(state['active_workflow']['phase_status'][IMPL]).toBe('completed');
    const gateRun = runsOf(dir)[0]!;
    expect(gateRun).toMatchObject({
      phase: IMPL,
      command: COVERAGE,
      for_coverage: true,
      result: 'passed',
      exit_code: 0,
      counts: { executed: 2, passed: 2, failed: 0 },
    });
    expect(gateRun.coverage.percent).toBeGreaterThanOrEqual(80);
    expect(gateRun.output_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(state['phases'][IMPL].gate_validation.checks).toContain('verified_test_run');
    expect(state['history'].map((line: State) => line['action']).join('\n')).toContain(`Gate of ${IMPL} ran the tests itself: \`${COVERAGE}\``);
    const check = gateCheck(dir);
    expect(check.stdout).toContain(
      `- verified_test_run: \`isdlc phase complete\` runs \`${COVERAGE}\` itself and needs 80% line coverage from it before the gate opens; its last run: \`${COVERAGE}\``,
    );
    expect(check.stdout).toMatch(/its last run: .*: passed \(2 passed, 0 failed, coverage \d+/);
  });

  it('code that still fails, whatever the observed runs said: refused, naming the failure; gate check names it afterwards', () => {
    const dir = project({ add: 'wrong' });
    refusedFor(dir, 'verified_test_run: the gate ran', 'failed (1 passed, 1 failed', 'failing: adds');
    expect(runsOf(dir)).toEqual([expect.objectContaining({ result: 'failed', counts: expect.objectContaining({ executed: 2, failed: 1 }) })]);
    expect(gateCheck(dir).stdout).toMatch(/verified_test_run: the gate ran .*failed.*completing the phase runs .* again/);
    // Fixed: the next completion runs the suite again and opens the gate.
    writeFile(join(dir, 'add.js'), ADD.right);
    expect(complete(dir).status).toBe(0);
    expect(runsOf(dir).map((run) => run['result'])).toEqual(['failed', 'passed']);
  });

  it('a deleted test file: fewer tests ran than the workflow saw before, and the drop is named', () => {
    const at = '2026-11-25T10:42:00.000Z';
    const dir = project({
      files: { 'test/more.test.js': MORE_TESTS },
      history: [{ iteration: 1, timestamp: at, command: 'node --test', result: 'failed', passed: 2, failures: 1 }],
    });
    rmSync(join(dir, 'test/more.test.js'));
    refusedFor(dir, '2 tests ran; 3 ran at 10:42', 'isdlc tests accept');
    // The agent cannot accept the drop; the person can, and the gate then expects 2.
    const byAgent = cli(['tests', 'accept', '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(byAgent.status).not.toBe(0);
    const shown = cli(['tests', '--dir', dir], { env: { CLAUDECODE: '' } });
    expect(shown.stdout).toContain('Fewer tests ran: 2 tests ran at');
    expect(shown.stdout).toContain('3 ran at 10:42');
    const accepted = cli(['tests', 'accept', '--dir', dir], { env: { CLAUDECODE: '' } });
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(stateOf(dir)['active_workflow']['test_count_accepted']).toEqual([expect.objectContaining({ executed: 2, instead_of: 3 })]);
    expect(gateCheck(dir).stdout).not.toContain('3 ran at');
    expect(complete(dir).status).toBe(0);
  });

  it('cancelled and started again, the workflow still expects the tests the last one saw', () => {
    const dir = project({
      files: { 'test/more.test.js': MORE_TESTS },
      history: [{ iteration: 1, timestamp: '2026-11-25T10:42:00.000Z', command: 'node --test', result: 'failed', passed: 2, failures: 1 }],
    });
    // The agent removes a test, then cancels and starts the workflow again, as its tools allow.
    rmSync(join(dir, 'test/more.test.js'));
    const agent = { CLAUDECODE: '1' };
    expect(cli(['workflow', 'cancel', '--reason', 'start over', '--dir', dir], { env: agent }).status).toBe(0);
    expect(cli(['workflow', 'start', 'feature', '--description', 'again', '--dir', dir], { env: agent }).status).toBe(0);
    const carried = stateOf(dir)['test_count_floor'] as State;
    expect(carried).toMatchObject({ executed: 3, at: '2026-11-25T10:42:00.000Z', from: expect.stringContaining('feature workflow cancelled') });
    // The new workflow reaches 06 with everything else met (set up as the test's person would), isdlc's carried floor kept.
    const state = withTests(workflowState('feature', IMPL), IMPL, testRecord('passed', 1));
    withConstitution(state, IMPL, compliant(IMPL_ARTICLES));
    writeJson(join(dir, '.isdlc/state.json'), { ...delegated(state, 'software-developer', IMPL), test_count_floor: carried });
    refusedFor(dir, '2 tests ran; 3 ran at 10:42', 'in the feature workflow cancelled at', 'isdlc tests accept');
    // A person's acceptance in the new workflow sets the bar again.
    expect(cli(['tests', 'accept', '--dir', dir]).status).toBe(0);
    expect(complete(dir).status).toBe(0);
  });

  it('an observed run of another command does not set the bar', () => {
    const dir = project({
      history: [{ iteration: 1, timestamp: '2026-11-25T10:42:00.000Z', command: 'npm run test:all', result: 'passed', passed: 40, failures: 0 }],
    });
    expect(complete(dir).status).toBe(0);
  });

  it('no coverage figure where the phase requires one: unknown coverage is not met', () => {
    const dir = project({ testing: { command: 'node --test', coverage_command: 'node --test', timeout_minutes: 2 } });
    refusedFor(dir, 'coverage is unknown', '`node --test` printed no figure and wrote no report isdlc reads');
    expect(runsOf(dir)[0]).toMatchObject({ result: 'passed', for_coverage: true });
  });

  it('nothing here can measure coverage: gate check and phase complete say so before any run, and who takes the step', () => {
    const dir = project({ testing: { command: 'sh test.sh', timeout_minutes: 2 }, files: { 'test.sh': 'node --test\n' } });
    refusedFor(
      dir,
      'the gate cannot measure coverage here: isdlc does not know how `sh test.sh` measures coverage',
      'a person (not the agent) runs `isdlc config set testing coverage_command',
    );
    expect(runsOf(dir), 'knowable without a run: the suite did not run').toEqual([]);
    // The control: a node --test command needs no step, Node measures it.
    const measured = project({ testing: { command: 'node --test', timeout_minutes: 2 } });
    expect(complete(measured).status).toBe(0);
    expect(runsOf(measured)[0]).toMatchObject({ command: COVERAGE, for_coverage: true, coverage: { percent: 100 } });
  });

  it('gate check tells each reader a step that works for them: the agent runs the suite, a person at a terminal is told their run is not recorded', () => {
    const dir = project();
    writeJson(join(dir, '.isdlc/state.json'), workflowState('feature', IMPL));
    const person = cli(['gate', 'check', '--dir', dir]);
    expect(person.stdout).toContain(
      "the agent runs the test suite (isdlc records the runs it observes in the agent's session; a run in your own terminal is not recorded)",
    );
    const agent = cli(['gate', 'check', '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(agent.stdout).toContain('run the test suite in the foreground (for example `npm test`); isdlc records the result');
  });

  it('"test": "exit 0": a run that counts no test is no pass', () => {
    const dir = project({
      files: { 'package.json': JSON.stringify({ name: 'p', scripts: { test: 'exit 0' } }) },
      testing: { command: 'npm test', coverage_command: 'npm test', timeout_minutes: 2 },
    });
    refusedFor(dir, 'names no test count');
  });

  it('every test skipped: no pass', () => {
    const dir = project({ files: { 'test/add.test.js': "const test = require('node:test');\ntest.skip('adds', () => {});\n" } });
    refusedFor(dir, 'skipped');
  });

  it('a suite that hangs is stopped at the timeout and proves nothing', () => {
    const dir = project({ testing: { command: 'sleep 30', coverage_command: 'sleep 30', timeout_minutes: 0.02 } });
    const started = Date.now();
    refusedFor(dir, 'was still running after 0.02 min');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('no test command configured: refused before anything runs, saying a person sets it', () => {
    const dir = project({ testing: { command: null } });
    refusedFor(dir, 'no test command is configured', 'a person (not the agent) sets it in .isdlc/config/testing.json');
    expect(runsOf(dir)).toEqual([]);
  });

  it('a gate closed for another reason is refused before the tests run', () => {
    const dir = project();
    const state = stateOf(dir);
    state['phases'][IMPL].iteration_requirements.test_iteration = testRecord('failed', 1);
    writeJson(join(dir, '.isdlc/state.json'), state);
    const run = complete(dir);
    expect(run.stderr).toContain('test_iteration: tests failing');
    expect(runsOf(dir)).toEqual([]);
  });

  it("the agent's own testing.json is undone at the next hook call, and the gate runs the person's command", () => {
    const dir = project({ add: 'wrong' });
    const mine = JSON.parse(readFileSync(join(dir, '.isdlc/config/testing.json'), 'utf8'));
    writeFileSync(join(dir, '.isdlc/config/testing.json'), JSON.stringify({ command: 'echo "# tests 2" && echo "# pass 2"', require_counts: false }));
    const hook = runRegisteredHook(dir, bashCall(dir, 'ls'));
    expect(hook.status, hook.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, '.isdlc/config/testing.json'), 'utf8'))).toEqual(mine);
    refusedFor(dir, 'failed (1 passed, 1 failed');
  });

  it('verify_at_gate: false turns the gate run off for the phase, and gate check says what the gate then trusts', () => {
    const dir = project({
      add: 'wrong',
      testing: { command: 'node --test', timeout_minutes: 2 },
      requirements: {
        phase_requirements: { [IMPL]: { test_iteration: { enabled: true, verify_at_gate: false, success_criteria: { min_coverage_percent: null } } } },
      },
    });
    expect(gateCheck(dir).stdout).toContain(
      '- verified_test_run: off for this phase (verify_at_gate: false): the gate does not run the tests itself and trusts the runs the hooks observed',
    );
    expect(complete(dir).status).toBe(0);
    expect(runsOf(dir)).toEqual([]);
  });
});
