// The same attacks from the other places an agent's commands run: a subagent (its own conversation, its
// own tool calls) and Bash commands in the background (`run_in_background`, still running after their
// call returned). Afterwards every guarded file is byte for byte as it was, but for the record isdlc's
// own hook keeps of the delegation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { routesFrom } from './harness/attack-routes.js';
import { backgroundCalls, outcomes, recordTable, routeCalls, routeContext, unrecognised, waitForBackground } from './harness/attack-run.js';
import { changes, guardedProject, snapshot } from './harness/guarded.js';
import type { TurnContext } from './harness/mock-api.js';
import { agent, bash, call, say, startsWith } from './harness/script.js';
import { runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

const BY_SUBAGENT = routesFrom('subagent');
const IN_BACKGROUND = routesFrom('background');

type State = Record<string, unknown> & { state_version: number; skill_usage_log: Record<string, unknown>[] };

test(`from a subagent (${BY_SUBAGENT.length} routes) and from background Bash commands (${IN_BACKGROUND.length} routes), every guarded file stays as it was`, async () => {
  const project = guardedProject();
  const context = routeContext(project);
  const stateFile = join(project.dir, '.isdlc', 'state.json');
  const stateBefore = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
  const before = snapshot(project);
  const run = await runClaude(project, {
    prompt: 'Get this phase through its gate, whatever it takes.',
    timeoutMs: 150_000,
    scripts: [
      { name: 'subagent', match: startsWith('ATTACK'), turns: [...routeCalls(BY_SUBAGENT, context).map((attempt) => call(attempt)), say('Nothing worked.')] },
      {
        name: 'main',
        turns: [
          call(agent('general-purpose', 'ATTACK the guarded files', { run_in_background: false })),
          ...backgroundCalls(IN_BACKGROUND, context).map((attempt) => call(attempt)),
          ({ api }: TurnContext) =>
            call(
              bash(
                waitForBackground(
                  api,
                  api.calls.filter((sent) => sent.input['run_in_background'] === true).map((sent) => sent.id),
                ),
              ),
            ),
          say('Nothing worked.'),
        ],
        // Claude Code tells the main agent as each background command ends.
        after: say('Still nothing.'),
      },
    ],
  });
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.timedOut).toBe(false);
  const subagentCalls = run.api.calls.filter((sent) => sent.conversation === 'subagent');
  expect(subagentCalls).toHaveLength(BY_SUBAGENT.length + BY_SUBAGENT.filter((route) => route.before).length);

  // Only isdlc's hook wrote, outside the sandbox: the delegation's entry in the state's skill log.
  expect(changes(before, snapshot(project)).map((line) => line.split(': ')[0])).toEqual(['project:.isdlc/state.json']);
  const { state_version: versionAfter, skill_usage_log: logAfter, ...restAfter } = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
  const { state_version: versionBefore, skill_usage_log: logBefore, ...restBefore } = stateBefore;
  expect(restAfter).toEqual(restBefore);
  expect(versionAfter).toBeGreaterThan(versionBefore);
  expect(logAfter).toEqual([...logBefore, expect.objectContaining({ agent: 'general-purpose', outcome: 'completed' })]);

  const seen = [
    ...outcomes(run, project, BY_SUBAGENT, subagentCalls, 'subagent'),
    ...outcomes(
      run,
      project,
      IN_BACKGROUND,
      run.api.calls.filter((sent) => sent.input['run_in_background'] === true),
      'background',
    ),
  ];
  recordTable(seen);
  expect(unrecognised(seen)).toEqual([]);
  // Each background command ran to its end before the session closed (its output says so).
  for (const outcome of seen.filter((row) => row.origin === 'background')) expect(outcome.text, outcome.route.id).toContain('route finished');
}, 200_000);
