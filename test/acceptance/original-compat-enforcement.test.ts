// Iteration enforcement where the JavaScript framework's hooks were right and isdlc was not, each
// through the hook command `isdlc init` registered (run as Claude Code runs it) or the CLI, on real state:
// `iteration_enforcement.enabled: false` stands the enforcement guards down; a legacy `tool_result` has no
// exit status; the framework's own completed records count at the gate; `state.iteration_config` sets the
// test loop's limits.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentCall, bashFailed, bashPassed, editCall, runnerOutput, skillCall } from '../helpers/payloads.js';
import { send, stateFile, stateOf, type State } from '../helpers/handshake.js';
import { cli, initedProject, writeJson, writePlan } from '../helpers/project.js';
import { givePassingSuite } from '../helpers/test-suite.js';
import { delegated, testRecord, withConstitution, withTests, workflowState } from '../helpers/states.js';

const IMPL = '06-implementation';
const TESTING = '07-testing';

/** A project set up by `isdlc init` with `state`, a task plan and a passing test suite. */
function projectWith(state: State): string {
  const dir = initedProject('isdlc-compat-');
  writeJson(stateFile(dir), state);
  writePlan(dir);
  givePassingSuite(dir);
  return dir;
}

const testsOf = (dir: string, phase = IMPL): State | undefined => stateOf(dir)['phases'][phase].iteration_requirements?.test_iteration;
const advance = (dir: string) => agentCall(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'The phase is done; advance to the next phase.' });
const declareComplete = (dir: string) => skillCall(dir, 'isdlc', 'phase complete');
const enforcement = (state: State, enabled: boolean): State => ({ ...state, iteration_enforcement: { enabled } });

/** What the agent's shell leaves when it rewrites the state file itself (no isdlc command, no person). */
function agentWritesState(dir: string, state: State): void {
  writeFileSync(stateFile(dir), `${JSON.stringify(state, null, 2)}\n`);
}

describe('iteration_enforcement.enabled: false stands the enforcement guards down, as the original hooks did', () => {
  // A phase in the TEST_CORRIDOR: its tests failed twice, nothing else is met.
  const failing = () => withTests(workflowState('feature', IMPL), IMPL, testRecord('failed', 2));

  it('with it on, the same state is enforced (the control)', () => {
    const dir = projectWith(enforcement(failing(), true));
    expect(send(dir, advance(dir)).reason).toContain('TEST_CORRIDOR');
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    expect(testsOf(dir)).toMatchObject({ current_iteration: 3 });
  });

  it('test-watcher records nothing; gate-blocker, iteration-corridor and constitution-validator allow; menu-tracker counts nothing', () => {
    const dir = projectWith(enforcement(failing(), false));
    const run = send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    expect(run.context ?? '').not.toContain('test-watcher');
    expect(testsOf(dir)).toMatchObject({ current_iteration: 2, last_test_result: 'failed' });
    expect(send(dir, advance(dir)).kind).toBe('allow');
    expect(send(dir, skillCall(dir, 'isdlc', 'advance')).kind).toBe('allow');
    expect(send(dir, skillCall(dir, 'isdlc', 'gate')).kind).toBe('allow');
    expect(send(dir, declareComplete(dir)).kind).toBe('allow');
    const phase = stateOf(dir)['phases'][IMPL];
    expect(phase.gate_validation).toBeUndefined();
    expect(phase.constitutional_validation).toBeUndefined();
    expect(stateOf(dir)['pending_escalations']).toEqual([]);
  });

  it('`isdlc gate check` says enforcement is off, and `isdlc phase complete` completes the phase without running the tests', () => {
    const dir = projectWith(enforcement(workflowState('feature', IMPL), false));
    const check = cli(['gate', 'check', '--phase', IMPL, '--dir', dir]);
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toContain('iteration_enforcement: iteration enforcement is off');
    const complete = cli(['phase', 'complete', '--dir', dir]);
    expect(complete.status, complete.stderr).toBe(0);
    const state = stateOf(dir);
    expect(state['phases'][IMPL]).toMatchObject({ status: 'completed', gate_validation: { status: 'passed', checks: ['iteration_enforcement'] } });
    expect(state['active_workflow']['gate_runs'] ?? []).toEqual([]);
  });

  it("isdlc's own integrity checks stay: after the third change made behind isdlc's back, `phase complete` is refused for tamper_review", () => {
    const dir = projectWith(enforcement(workflowState('feature', IMPL), false));
    for (let i = 1; i <= 3; i += 1) {
      writeFileSync(join(dir, '.isdlc/.gitignore'), `changed behind isdlc's back ${i}\n`);
      send(dir, bashPassed(dir, 'ls', ''));
    }
    const complete = cli(['phase', 'complete', '--dir', dir]);
    expect(complete.status).not.toBe(0);
    expect(complete.stderr).toContain('tamper_review');
    expect(stateOf(dir)['phases'][IMPL].status).toBe('in_progress');
  });

  it('the agent cannot switch it off: an Edit is refused, a shell rewrite is undone before the run is judged', () => {
    const dir = projectWith(enforcement(workflowState('feature', IMPL), true));
    const edit = send(dir, editCall(dir, stateFile(dir), '"enabled": true', '"enabled": false'));
    expect(edit.kind).toBe('deny');
    expect(edit.reason).toContain('iteration_enforcement');

    agentWritesState(dir, enforcement(stateOf(dir), false));
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    expect(stateOf(dir)['iteration_enforcement']).toEqual({ enabled: true });
    expect(testsOf(dir)).toMatchObject({ current_iteration: 1, last_test_result: 'failed' });
    expect(send(dir, advance(dir)).kind).toBe('deny');
  });
});

describe('a test run reported without an exit status (the legacy tool_result) is judged from its output, never taken for exit 0', () => {
  /** The PostToolUse the JavaScript framework read: `tool_result` in place of Claude Code's `tool_response`. */
  function legacy(dir: string, command: string, result: unknown): Record<string, unknown> {
    const { tool_response: _response, ...payload } = bashPassed(dir, command, '');
    return { ...payload, tool_result: result };
  }
  function withResponse(dir: string, command: string, response: unknown): Record<string, unknown> {
    return { ...bashPassed(dir, command, ''), tool_response: response };
  }

  it.each([
    ['a runner that counts a failure', 'failed', 'FAIL src/x.test.ts\n Tests: 1 failed, 3 passed'],
    ['an error', 'failed', 'Error: Cannot find module ./config'],
    ['npm saying the test script failed', 'failed', 'npm ERR! Test failed.  See above for more details.'],
    ['passing counts, but npm says the command failed', 'failed', `${runnerOutput('jest', 'passing')}\nnpm ERR! code ELIFECYCLE\nnpm ERR! errno 1`],
    ['a failing exit the text states', 'failed', 'Running the suite\nProcess exited with code 1'],
    ['nothing to judge by', 'inconclusive', 'done'],
    ['the runner reporting a pass', 'passed', runnerOutput('jest', 'passing')],
  ])('a tool_result string with %s is recorded %s', (_what, result, text) => {
    const dir = projectWith(workflowState('feature', IMPL));
    send(dir, legacy(dir, 'npm test', text));
    expect(testsOf(dir)?.['last_test_result']).toBe(result);
  });

  it.each([
    ['a legacy {output, exitCode} object with a failing exit', 'failed', (dir: string) => legacy(dir, 'npm test', { output: 'All tests passed', exitCode: 1 })],
    ['a tool_response object with an error and no exit code', 'failed', (dir: string) => withResponse(dir, 'npm test', { output: 'Error: boom' })],
    ['a tool_response object with no exit code and nothing to judge by', 'inconclusive', (dir: string) => withResponse(dir, 'npm test', { output: 'done' })],
  ])('%s is recorded %s', (_what, result, payload) => {
    const dir = projectWith(workflowState('feature', IMPL));
    send(dir, payload(dir));
    expect(testsOf(dir)?.['last_test_result']).toBe(result);
  });

  it("Claude Code's own PostToolUse of a shell command still means it exited 0", () => {
    const dir = projectWith(workflowState('feature', IMPL));
    const decision = send(dir, bashPassed(dir, 'npm test', 'done'));
    expect(decision.context).toContain('the command exited 0');
    expect(testsOf(dir)?.['last_test_result']).toBe('passed');
  });
});

describe("the original framework's completed records count at the gate, and the gate and the guards agree", () => {
  const ORIGINAL_TESTS: [string, State][] = [
    ['completed, status success, last_test_result passed', { completed: true, status: 'success', last_test_result: 'passed' }],
    ['completed, status passed, an iteration count but no last_test_result', { completed: true, status: 'passed', current_iteration: 2, max_iterations: 10 }],
  ];
  const ORIGINAL_CONSTITUTION = { completed: true, status: 'compliant' };

  /** test-generate's 07-testing: tests, constitution and delegation required, no independent review. */
  function original(tests: State): State {
    const state = withConstitution(withTests(workflowState('test-generate', TESTING), TESTING, tests), TESTING, ORIGINAL_CONSTITUTION);
    return delegated(state, 'integration-tester', TESTING);
  }

  it.each(ORIGINAL_TESTS)('tests %s and constitution completed/compliant: the gate opens and declaring the phase complete is allowed', (_shape, tests) => {
    const dir = projectWith(original(tests));
    const check = cli(['gate', 'check', '--phase', TESTING, '--dir', dir]);
    expect(check.stdout).toMatch(/test_iteration: tests passed/);
    expect(check.stdout).toMatch(/constitutional_validation: all \d+ articles compliant/);
    expect(send(dir, declareComplete(dir)).kind).toBe('allow');
    expect(send(dir, advance(dir)).kind).toBe('allow');
    expect(stateOf(dir)['phases'][TESTING].gate_validation).toMatchObject({ status: 'passed' });
  });

  it('a failed or escalated record of the same shape still closes the gate', () => {
    const dir = projectWith(original({ completed: true, status: 'escalated', escalation_reason: 'circuit_breaker' }));
    expect(send(dir, advance(dir)).reason).toContain('test_iteration: escalated');
    const dir2 = projectWith(original({ completed: false, last_test_result: 'failed' }));
    expect(send(dir2, advance(dir2)).kind).toBe('deny');
  });

  it('the agent cannot plant such records: its rewrite of the state is undone before the gate reads it', () => {
    const dir = projectWith(delegated(workflowState('test-generate', TESTING), 'integration-tester', TESTING));
    agentWritesState(dir, original(ORIGINAL_TESTS[0]![1]));
    const denied = send(dir, advance(dir));
    expect(denied.kind).toBe('deny');
    expect(denied.reason).toContain('test_iteration: no test run recorded');
    expect(testsOf(dir, TESTING)).toBeUndefined();
    expect(readdirSync(join(dir, '.isdlc')).some((name) => name.startsWith('state.json.rejected-'))).toBe(true);
  });
});

describe('state.iteration_config sets the test loop limits, before iteration-requirements.json, as in the original', () => {
  const configured = (extra: State = {}): State => ({
    testing_max: 3,
    circuit_breaker_threshold: 2,
    escalation_behavior: 'pause',
    configured_at: '2026-11-25T09:00:00.000Z',
    ...extra,
  });
  const failingWith = (dir: string, what: string) => bashFailed(dir, 'npm test', 1, `FAIL src/a.test.ts\nTests: 1 failed, 1 total\nError: ${what}`);

  it('circuit_breaker_threshold 2: the second identical failure escalates', () => {
    const dir = projectWith({ ...workflowState('feature', IMPL), iteration_config: configured() });
    expect(send(dir, failingWith(dir, 'expected 3 to be 4')).context).toContain('iteration 1 of 3 in phase 06-implementation');
    expect(testsOf(dir)).toMatchObject({ max_iterations: 3, circuit_breaker_threshold: 2 });
    const second = send(dir, failingWith(dir, 'expected 3 to be 4'));
    expect(second.context).toContain('the same failure came back 2 times in a row (circuit breaker)');
    expect(testsOf(dir)).toMatchObject({ status: 'escalated', escalation_reason: 'circuit_breaker', current_iteration: 2 });
  });

  it('testing_max 3: the third failure escalates with max_iterations, and the corridor counts to 3', () => {
    const dir = projectWith({ ...workflowState('feature', IMPL), iteration_config: configured({ circuit_breaker_threshold: 5 }) });
    send(dir, failingWith(dir, 'case A'));
    expect(send(dir, advance(dir)).reason).toContain('Iteration 1 of 3');
    send(dir, failingWith(dir, 'case B'));
    expect(send(dir, failingWith(dir, 'case C')).context).toContain('all 3 iterations are used');
    expect(testsOf(dir)).toMatchObject({ status: 'escalated', escalation_reason: 'max_iterations', current_iteration: 3 });
  });

  it("it comes before the workflow's override (test-generate's 07-testing allows 5)", () => {
    const dir = projectWith({ ...workflowState('test-generate', TESTING), iteration_config: configured({ testing_max: 7 }) });
    expect(send(dir, failingWith(dir, 'case A')).context).toContain('iteration 1 of 7 in phase 07-testing');
  });

  it('without configured_at it is ignored (the person never chose it), and the requirements decide', () => {
    const dir = projectWith({ ...workflowState('feature', IMPL), iteration_config: { testing_max: 2, circuit_breaker_threshold: 1 } });
    expect(send(dir, failingWith(dir, 'case A')).context).toContain('iteration 1 of 10');
    expect(testsOf(dir)).toMatchObject({ status: 'in_progress', max_iterations: 10, circuit_breaker_threshold: 3 });
  });

  it('the agent cannot set it: an Edit that adds it is refused', () => {
    const dir = projectWith(workflowState('feature', IMPL));
    const denied = send(
      dir,
      editCall(dir, stateFile(dir), '"state_version": 7,', `"state_version": 7,\n  "iteration_config": ${JSON.stringify(configured({ testing_max: 50 }))},`),
    );
    expect(denied.kind).toBe('deny');
    expect(denied.reason).toContain('iteration_config');
    expect(existsSync(stateFile(dir)) && stateOf(dir)['iteration_config']).toBeUndefined();
  });
});

describe('a test loop the original framework started goes on as it counted', () => {
  // What the original wrote: a count of identical failures, each failure's error line in the history, and
  // no failure signature (isdlc's own way of telling failures apart).
  const originalRecord = (identical: number, error: string): State =>
    withTests(workflowState('feature', IMPL), IMPL, {
      required: true,
      completed: false,
      current_iteration: identical,
      max_iterations: 10,
      failures_count: identical,
      identical_failure_count: identical,
      last_test_result: 'failed',
      last_test_command: 'npm test',
      history: [{ iteration: identical, result: 'FAILED', error }],
      started_at: '2026-01-01T00:00:00.000Z',
    });
  const failing = (error: string) => `FAIL src/app.test.js\n  ● adds\n\n    ${error}\n\nTests:       1 failed, 4 passed, 5 total\n`;

  it('the same error line again continues the count, and the breaker trips where the original would', () => {
    const dir = projectWith({
      ...originalRecord(2, 'TypeError: x is not a function'),
      iteration_config: { testing_max: 10, circuit_breaker_threshold: 3, configured_at: '2026-01-01T00:00:00Z' },
    });
    send(dir, bashFailed(dir, 'npm test', 1, failing('TypeError: x is not a function')));
    expect(testsOf(dir)).toMatchObject({ identical_failure_count: 3, status: 'escalated', escalation_reason: 'circuit_breaker' });
  });

  it('another error starts the count again', () => {
    const dir = projectWith(originalRecord(2, 'TypeError: x is not a function'));
    send(dir, bashFailed(dir, 'npm test', 1, failing('RangeError: offset out of range')));
    expect(testsOf(dir)).toMatchObject({ identical_failure_count: 1, status: 'in_progress' });
  });

  it('history results are written as the original wrote them: FAILED, PASSED', () => {
    const dir = projectWith(withTests(workflowState('feature', IMPL), IMPL, testRecord('failed', 1)));
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    send(dir, bashPassed(dir, 'npm test', runnerOutput('jest', 'passing')));
    expect(testsOf(dir)!['history'].map((entry: State) => entry['result'])).toEqual(['FAILED', 'PASSED']);
  });
});
