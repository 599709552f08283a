// What the model knows of the workflow when a session starts, resumes, or is compacted or cleared: the
// real Claude Code's SessionStart for each source, and the request the model gets next.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES } from '../helpers/project.js';
import { workflowState } from '../helpers/states.js';
import { MockApi } from './harness/mock-api.js';
import { say } from './harness/script.js';
import { activity, e2eProject, isdlc, runClaude, type E2eProject, asPersonWrote } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

function inImplementation(project: E2eProject): void {
  writeFileSync(join(project.dir, '.isdlc', 'state.json'), `${JSON.stringify(workflowState('feature', '06-implementation'), null, 2)}\n`);
  asPersonWrote(project);
}

function newProject(): E2eProject {
  return e2eProject({ files: { 'docs/isdlc/tasks.md': readFileSync(join(FIXTURES, 'plans', 'valid-v2.md'), 'utf8') } });
}

/** The workflow context isdlc gives: the phase, and its gate's requirements while it is in progress. */
function hasWorkflowContext(request: MockApi['requests'][number] | undefined): boolean {
  const shown = request ? MockApi.shown(request) : '';
  return shown.includes('06-implementation') && shown.includes('GATE REQUIREMENTS');
}

const chat = { name: 'main', turns: [], after: say('Noted.') };

describe('SessionStart under the real Claude Code', () => {
  test('startup: nothing in an idle project; the workflow and its gate when one is active', async () => {
    const idle = newProject();
    const quiet = await runClaude(idle, { prompt: 'Hello.', scripts: [chat] });
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(activity(idle).some((entry) => entry.event === 'SessionStart')).toBe(true);
    expect(hasWorkflowContext(quiet.api.conversation('main')[0])).toBe(false);

    const busy = newProject();
    inImplementation(busy);
    const told = await runClaude(busy, { prompt: 'Hello.', scripts: [chat] });
    expect(told.exitCode, told.stderr).toBe(0);
    expect(hasWorkflowContext(told.api.conversation('main')[0])).toBe(true);
  });

  test('startup with a live loop bound to the session: the model hears of the loop', async () => {
    const project = newProject();
    const session = randomUUID();
    const started = isdlc(project, ['loop', 'start', '--session', session, '--rule', 'true', 'Keep the build green']);
    const loopId = /\b(L-[0-9a-f]+)\b/.exec(started)?.[1];
    expect(loopId, started).toBeDefined();
    const run = await runClaude(project, {
      prompt: 'Hello.',
      args: ['--session-id', session],
      scripts: [{ name: 'main', turns: [say('Fine.\n\n<promise>COMPLETE</promise>')] }],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(MockApi.shown(run.api.conversation('main')[0]!)).toContain(loopId!);
  });

  test('resume: a session resumed after a workflow started hears of it', async () => {
    const project = newProject();
    const first = await runClaude(project, { prompt: 'Hello.', scripts: [chat] });
    expect(hasWorkflowContext(first.api.conversation('main')[0])).toBe(false);
    inImplementation(project);
    const resumed = await runClaude(project, { prompt: 'Where were we?', resume: first.sessionId!, scripts: [chat] });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.sessionId).toBe(first.sessionId);
    expect(hasWorkflowContext(resumed.api.conversation('main')[0])).toBe(true);
  });

  test.each(['/compact', '/clear'])('%s: the next prompt after it carries the workflow again', async (command) => {
    const project = newProject();
    inImplementation(project);
    const run = await runClaude(project, {
      prompt: ['Hello.', command, 'Go on.'],
      scripts: [{ name: 'main', prompts: { 'Hello.': [say('Hi.')], 'Go on.': [say('Going on.')] }, after: say('Noted.') }],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const source = command.slice(1);
    expect(run.hookResponses.some((response) => response.hook_name === `SessionStart:${source}`)).toBe(true);
    const goOn = run.api.conversation('main').filter((request) => MockApi.shown(request).includes('Go on.'));
    expect(goOn.length).toBeGreaterThan(0);
    // What came before the command is gone from this request; the workflow's context is there again.
    expect(MockApi.shown(goOn[0]!)).not.toContain('Hello.');
    expect(hasWorkflowContext(goOn[0])).toBe(true);
  });
});
