import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { bashEdited, bashFailed, bashPassed, runnerOutput } from '../../test/helpers/payloads.js';
import { testRecord, withTests, workflowState } from '../../test/helpers/states.js';

const P = '/project';
const impl = () => workflowState('feature', '06-implementation');
const tests = (state: Record<string, any>) => state['phases']['06-implementation'].iteration_requirements?.test_iteration;

/** The PostToolUse the JavaScript framework read: the legacy `tool_result`, here a string, in place of `tool_response`. */
function legacyResult(command: string, text: string): Record<string, unknown> {
  const { tool_response: _response, ...payload } = bashPassed(P, command, '');
  return { ...payload, tool_result: text };
}

guardTable('test-watcher', {
  valid: [
    {
      name: 'a failing npm test (PostToolUseFailure) is iteration 1 of 10, recorded with every field',
      state: impl(),
      payload: bashFailed(P, 'npm test', 1, runnerOutput('jest', 'failing')),
      expect: 'allow',
      contextIncludes: [
        'the tests failed (jest: 3 passed, 2 failed)',
        'iteration 1 of 10 in phase 06-implementation',
        'math › divides two numbers',
        'Same failure 1 time in a row',
      ],
      then: ({ state }) => {
        expect(tests(state)).toMatchObject({
          current_iteration: 1,
          max_iterations: 10,
          last_test_result: 'failed',
          last_test_command: 'npm test',
          failures_count: 1,
          completed: false,
          status: 'in_progress',
        });
        expect(tests(state).history).toEqual([
          expect.objectContaining({
            iteration: 1,
            timestamp: expect.any(String),
            command: 'npm test',
            result: 'FAILED',
            failures: 2,
            error: expect.stringContaining('divides two numbers'),
          }),
        ]);
      },
    },
    {
      name: 'a passing run completes the requirement (status success)',
      state: withTests(impl(), '06-implementation', testRecord('failed', 2)),
      payload: bashPassed(P, 'npx vitest run', runnerOutput('vitest', 'passing')),
      expect: 'allow',
      contextIncludes: ['the tests passed (vitest: 5 passed, 0 failed)', 'iteration 3 of 10', 'requirement of 06-implementation is met'],
      then: ({ state }) => expect(tests(state)).toMatchObject({ completed: true, status: 'success', last_test_result: 'passed', current_iteration: 3 }),
    },
    {
      name: 'a passing run whose result carries bashEditDiff (2.1.332: the run wrote files) is judged from its output as before',
      state: withTests(impl(), '06-implementation', testRecord('failed', 2)),
      payload: (project) =>
        bashEdited(
          project,
          'npx vitest run --coverage',
          [{ path: 'coverage/coverage-summary.json', created: true, lines: ['+{}'] }],
          runnerOutput('vitest', 'passing'),
        ),
      expect: 'allow',
      contextIncludes: ['the tests passed (vitest: 5 passed, 0 failed)', 'iteration 3 of 10'],
      then: ({ state }) => expect(tests(state)).toMatchObject({ completed: true, last_test_result: 'passed', current_iteration: 3 }),
    },
    {
      name: 'the tenth failure escalates with max_iterations',
      state: withTests(impl(), '06-implementation', testRecord('failed', 9, { last_failure_signature: 'something else' })),
      payload: bashFailed(P, 'pytest', 1, runnerOutput('pytest', 'failing')),
      expect: 'allow',
      contextIncludes: ['Escalated to a human: all 10 iterations are used', 'isdlc escalation approve --phase 06-implementation'],
      then: ({ state, decision }) => {
        expect(tests(state)).toMatchObject({ status: 'escalated', escalation_reason: 'max_iterations', completed: true, current_iteration: 10 });
        expect(decision.systemMessage).toContain('escalated (max_iterations)');
      },
    },
    {
      name: 'iteration enforcement switched off by the person: no run is judged or recorded (as in the original)',
      state: { ...impl(), iteration_enforcement: { enabled: false } },
      payload: bashFailed(P, 'npm test', 1, runnerOutput('jest', 'failing')),
      expect: 'allow',
      then: ({ state, decision }) => {
        expect(tests(state)).toBeUndefined();
        expect(decision.context ?? '').not.toContain('test-watcher');
      },
    },
    {
      name: 'a legacy tool_result string has no exit status: "npm ERR!" in it is a failure, not a pass',
      state: impl(),
      payload: legacyResult('npm test', 'npm ERR! Test failed.  See above for more details.'),
      expect: 'allow',
      contextIncludes: ['the tests failed (the output reports failures)'],
      then: ({ state }) => expect(tests(state)).toMatchObject({ last_test_result: 'failed', current_iteration: 1 }),
    },
    {
      name: 'a legacy tool_result string with nothing to judge by is inconclusive, never a pass',
      state: impl(),
      payload: legacyResult('npm test', 'done'),
      expect: 'allow',
      contextIncludes: ['the host did not report an exit status'],
      then: ({ state }) => expect(tests(state)).toMatchObject({ last_test_result: 'inconclusive' }),
    },
    {
      name: "the person's iteration_config (configured_at set) sets the limits before the phase's requirements",
      state: { ...impl(), iteration_config: { testing_max: 4, circuit_breaker_threshold: 2, configured_at: '2026-11-25T09:00:00.000Z' } },
      payload: bashFailed(P, 'npm test', 1, runnerOutput('jest', 'failing')),
      expect: 'allow',
      contextIncludes: ['iteration 1 of 4 in phase 06-implementation', 'at 2 the loop stops for a human'],
      then: ({ state }) => expect(tests(state)).toMatchObject({ max_iterations: 4, circuit_breaker_threshold: 2 }),
    },
    {
      name: 'a failure hidden behind a pipe is still a failure (exit 0, the summary says failed)',
      state: impl(),
      payload: bashPassed(P, 'npm test 2>&1 | tail -40', runnerOutput('jest', 'failing')),
      expect: 'allow',
      contextIncludes: ['the tests failed'],
      then: ({ state }) => expect(tests(state).last_test_result).toBe('failed'),
    },
    {
      name: 'a run that cannot be judged is recorded but not counted',
      state: withTests(impl(), '06-implementation', testRecord('failed', 2)),
      payload: bashPassed(P, 'npm test | tail -3', 'done in 4.2s\n'),
      expect: 'allow',
      contextIncludes: ['could not tell whether `npm test` passed', 'not counted'],
      then: ({ state }) => {
        expect(tests(state)).toMatchObject({ current_iteration: 2, last_test_result: 'failed' });
        expect(tests(state).history.at(-1)).toMatchObject({ result: 'INCONCLUSIVE' });
      },
    },
    ...(
      [
        ['its output filtered by grep', "npm test 2>&1 | grep -v '^# fail'", 'its output goes through `grep'],
        ['a summary printed after it', 'npx vitest run; echo "Tests  5 passed (5)"', 'runs after it, whatever its result'],
        ['forced to succeed with || true', 'npx vitest run || true', 'its failure is turned into success'],
        ['its output sent to a file', 'npx vitest run > vitest.log', 'its output was sent to a file'],
        ['tee, then another filter', 'npx vitest run | tee vitest.log | head -50', 'its output goes through `tee vitest.log`'],
      ] as const
    ).map(([what, command, why]) => ({
      name: `a pass is not taken from a run with ${what}: inconclusive`,
      state: withTests(impl(), '06-implementation', testRecord('failed', 2)),
      payload: bashPassed(P, command, runnerOutput('vitest', 'passing')),
      expect: 'allow' as const,
      contextIncludes: [why],
      then: ({ state }: { state: Record<string, any> }) => {
        expect(tests(state)).toMatchObject({ current_iteration: 2, last_test_result: 'failed', completed: false });
        expect(tests(state).history.at(-1)).toMatchObject({ result: 'INCONCLUSIVE' });
      },
    })),
    {
      name: 'a run whose tests were all skipped is not a pass: inconclusive',
      state: withTests(impl(), '06-implementation', testRecord('failed', 2)),
      payload: bashPassed(
        P,
        'python3 -m pytest',
        'tests/test_calc.py ss                                                   [100%]\n\n============================== 2 skipped in 0.04s ==============================\n',
      ),
      expect: 'allow',
      contextIncludes: ['all 2 were skipped'],
      then: ({ state }) => {
        expect(tests(state)).toMatchObject({ current_iteration: 2, last_test_result: 'failed', completed: false });
        expect(tests(state).history.at(-1)).toMatchObject({ result: 'INCONCLUSIVE' });
      },
    },
    {
      name: 'a pass through `| tee FILE` alone, or with `>` inside a quoted argument, still counts',
      state: withTests(impl(), '06-implementation', testRecord('failed', 2)),
      payload: bashPassed(P, 'npx vitest run -t "a > b" 2>&1 | tee vitest.log', runnerOutput('vitest', 'passing')),
      expect: 'allow',
      contextIncludes: ['the tests passed (vitest: 5 passed, 0 failed)'],
      then: ({ state }) => expect(tests(state)).toMatchObject({ completed: true, last_test_result: 'passed' }),
    },
    {
      name: 'tests that could not run are a failure, and the model is told to make them start',
      state: impl(),
      payload: bashFailed(P, 'npx vitest run', 1, runnerOutput('vitest', 'could-not-run-syntax-error')),
      expect: 'allow',
      contextIncludes: ['They did not run at all'],
      then: ({ state }) => expect(tests(state).last_test_result).toBe('failed'),
    },
    {
      name: 'ATDD mode: a pass with skipped tests warns and records the skips',
      state: workflowState('feature', '06-implementation', { atdd: true }),
      payload: bashPassed(P, 'npx jest', runnerOutput('jest', 'skipped')),
      expect: 'allow',
      contextIncludes: ['ATDD mode', '2 tests are skipped', 'not allowed at the gate'],
      then: ({ state }) => expect(state['phases']['06-implementation'].atdd_validation).toMatchObject({ skipped_tests_detected: true, skipped_count: 2 }),
    },
    {
      name: 'a reporter file named in the config is preferred to the console text',
      state: impl(),
      files: {
        '.isdlc/config/iteration-requirements.json': {
          phase_requirements: { '06-implementation': { test_iteration: { enabled: true, max_iterations: 10, reporter_file: 'reports/junit.xml' } } },
        },
        'reports/junit.xml':
          '<testsuites tests="4" failures="1"><testsuite name="cart"><testcase classname="cart" name="adds"/><testcase classname="cart" name="rounds"><failure message="off by one"/></testcase><testcase classname="cart" name="a"/><testcase classname="cart" name="b"/></testsuite></testsuites>',
      },
      payload: bashPassed(P, 'npm test', 'tests finished\n'),
      expect: 'allow',
      contextIncludes: ['junit: 3 passed, 1 failed'],
    },
    {
      name: 'coverage is recorded when the run reports it',
      state: impl(),
      payload: bashPassed(P, 'npx jest --coverage', runnerOutput('jest', 'passing-coverage')),
      expect: 'allow',
      contextIncludes: ['Coverage 100%'],
      then: ({ state }) => expect(tests(state).coverage_percent).toBe(100),
    },
    {
      name: 'a command that is not a test run is not recorded',
      state: impl(),
      payload: bashPassed(P, 'ls -la', 'total 0\n'),
      expect: 'allow',
      then: ({ state }) => expect(tests(state)).toBeUndefined(),
    },
    {
      name: 'a test command only mentioned is not a run',
      state: impl(),
      payload: bashPassed(P, 'echo "npm test" >> NOTES.md', ''),
      expect: 'allow',
      then: ({ state }) => expect(tests(state)).toBeUndefined(),
    },
    {
      name: 'phases without test requirements are left alone',
      state: workflowState('feature', '01-requirements'),
      payload: bashFailed(P, 'npm test', 1, runnerOutput('jest', 'failing')),
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['01-requirements'].iteration_requirements).toBeUndefined(),
    },
    {
      name: 'no active workflow',
      state: { state_version: 1, active_workflow: null },
      payload: bashFailed(P, 'npm test', 1, runnerOutput('jest', 'failing')),
      expect: 'allow',
    },
    {
      name: 'a run after the phase completed does not rewrite the evidence its gate passed on',
      state: (() => {
        const state = withTests(impl(), '06-implementation', testRecord('passed', 2));
        state['phases']['06-implementation'].status = 'completed';
        state['active_workflow'].phase_status['06-implementation'] = 'completed';
        state['active_workflow'].current_phase_index = 7;
        return state;
      })(),
      payload: bashFailed(P, 'npm test', 1, runnerOutput('jest', 'failing')),
      expect: 'allow',
      contextIncludes: ['was not recorded: 06-implementation is completed', 'mcp__isdlc__phase_activate'],
      then: ({ state }) => expect(tests(state)).toMatchObject({ current_iteration: 2, last_test_result: 'passed' }),
    },
  ],
  invalid: [],
});
