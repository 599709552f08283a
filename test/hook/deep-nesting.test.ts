// A payload nested 100,000 levels deep (a tool's response, the model's last message, a tool's input) is
// judged like any other: no internal error, the decision in the activity log, and the guards still decide.
import { describe, expect, it } from 'vitest';
import { agentStartsLoop, loops, projectWithTests, SESSION } from '../helpers/loops.js';
import { bashPassed, stop } from '../helpers/payloads.js';
import { cli, decisionOf, initedProject, lastActivity } from '../helpers/project.js';
import { runRegisteredHookWith } from '../helpers/registered-hook.js';

const LEVELS = 100_000;
const deepArrays = '['.repeat(LEVELS) + ']'.repeat(LEVELS);
const deepObjects = '{"a":'.repeat(LEVELS) + '1' + '}'.repeat(LEVELS);
const HOLE = '"__deep__"';

/** The payload's JSON with the hole filled by `deep`: no object in this process could be stringified to it. */
function withDeep(payload: Record<string, unknown>, deep: string): string {
  const text = JSON.stringify(payload);
  expect(text).toContain(HOLE);
  return text.replace(HOLE, deep);
}

function expectLoggedWithoutInternalError(project: string, run: { status: number | null; stderr: string }): Record<string, unknown> {
  expect(run.status).toBe(0);
  expect(run.stderr).not.toMatch(/internal error|RangeError|call stack/);
  const entry = lastActivity(project);
  expect(entry['decision']).toBeDefined();
  expect(String(entry['payload_cut'])).toMatch(/nested deeper than 64 levels/);
  return entry;
}

describe('a payload nested 100,000 levels deep', () => {
  const project = initedProject();
  cli(['workflow', 'start', 'feature', '--dir', project]);

  it.each([
    ['arrays', deepArrays],
    ['objects', deepObjects],
  ])('as a Bash tool_response (%s): judged and logged, no test run recorded from it', (_shape, deep) => {
    const payload = { ...bashPassed(project, 'npm test', ''), tool_response: '__deep__' };
    const run = runRegisteredHookWith(project, payload, withDeep(payload, deep));
    const entry = expectLoggedWithoutInternalError(project, run);
    expect(entry['event']).toBe('PostToolUse');
    expect(entry['ran']).toContain('test-watcher');
    const status = cli(['status', '--json', '--dir', project]);
    expect(status.stdout).not.toMatch(/"last_test_result":\s*"passed"/);
  });

  it('inside a tool_input: the guards still decide (a delegation out of phase is still denied)', () => {
    const payload = {
      hook_event_name: 'PreToolUse',
      session_id: SESSION,
      cwd: project,
      tool_name: 'Agent',
      tool_input: { subagent_type: 'software-developer', prompt: 'build it', extra: '__deep__' },
    };
    const run = runRegisteredHookWith(project, payload, withDeep(payload, deepArrays));
    const entry = expectLoggedWithoutInternalError(project, run);
    expect(decisionOf(run).kind).toBe('deny');
    expect(entry['decision']).toBe('deny');
  });

  it('as the whole tool_input: allowed as input of the wrong shape, and said so', () => {
    const payload = { hook_event_name: 'PreToolUse', session_id: SESSION, cwd: project, tool_name: 'Bash', tool_input: '__deep__' };
    const run = runRegisteredHookWith(project, payload, withDeep(payload, deepArrays));
    const entry = expectLoggedWithoutInternalError(project, run);
    expect(decisionOf(run).kind).toBe('allow');
    expect(String(entry['problem'])).toContain('tool_input');
  });
});

describe('a Stop whose last_assistant_message nests 100,000 levels deep', () => {
  it('still checks its loop: the failing rule holds the turn, and the iteration is recorded', () => {
    const project = projectWithTests();
    agentStartsLoop(project, ['--rule', 'npm test', '--max-iterations', '5', 'Make add() add'], { session_id: SESSION });
    const payload = { ...stop(project, ''), last_assistant_message: '__deep__' };
    const run = runRegisteredHookWith(project, payload, withDeep(payload, deepArrays));
    expectLoggedWithoutInternalError(project, run);
    const decision = decisionOf(run);
    expect(decision.kind).toBe('block');
    expect(decision.reason).toMatch(/iteration 1 of 5 failed/);
    expect(loops(project)[0]).toMatchObject({ status: 'active', iteration: 2 });
  });
});
