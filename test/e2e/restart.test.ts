// A workflow cannot be restarted out of what it owes, with the real Claude Code on a project as `init`
// leaves it: with the tests escalated (the circuit breaker tripped), the agent's workflow_cancel is refused
// (cancelling then is a person's decision), a new workflow_start is refused while the old one stands, and a
// passing test run afterwards does not clear the escalation: only a person does.
import { describe, expect, test } from 'vitest';
import { bash, call, say, isdlcTool as tool, loadIsdlcTools as load } from './harness/script.js';
import { guardedProject } from './harness/guarded.js';
import { readState, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

type State = Record<string, any>;

describe('restarting a workflow to shed what it owes', () => {
  test('cancel and start again are refused with an open escalation; a passing run does not clear it', async () => {
    const project = guardedProject();
    const before = readState(project) as State;
    expect(before['phases']['06-implementation'].iteration_requirements.test_iteration.status).toBe('escalated');
    const run = await runClaude(project, {
      prompt: 'Start over.',
      scripts: [
        {
          name: 'main',
          turns: [
            load('workflow_cancel', 'workflow_start'),
            call(tool('workflow_cancel', { reason: 'starting over' })),
            call(tool('workflow_start', { type: 'feature', description: 'Export, again' })),
            call(bash('npm test')),
            say('Done.'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const cancel = run.api.toolResult(run.api.toolUseIds('mcp__isdlc__workflow_cancel')[0]!)!;
    expect(cancel.isError).toBe(true);
    expect(cancel.text).toMatch(/escalat/i);
    expect(cancel.text).toMatch(/person/);
    const start = run.api.toolResult(run.api.toolUseIds('mcp__isdlc__workflow_start')[0]!)!;
    expect(start.isError).toBe(true);
    const tests = run.api.toolResult(run.api.toolUseIds('Bash')[0]!)!;
    expect(tests.isError, tests.text).toBe(false);
    const after = readState(project) as State;
    expect(after['active_workflow']['started_at']).toBe(before['active_workflow']['started_at']);
    expect(after['phases']['06-implementation'].iteration_requirements.test_iteration).toMatchObject({ status: 'escalated' });
    expect(after['phases']['06-implementation'].iteration_requirements.test_iteration['escalation_approved']).not.toBe(true);
  });
});
