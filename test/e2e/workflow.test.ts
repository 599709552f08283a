// A feature workflow in its implementation phase, worked by the real Claude Code: what isdlc denies
// reaches the model as the tool's result, what it records comes from the real tool calls, and what it
// adds to a delegation reaches the subagent.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, FIXTURES } from '../helpers/project.js';
import { workflowState } from '../helpers/states.js';
import { MockApi } from './harness/mock-api.js';
import { agent, bash, call, edit, say, startsWith, write, isdlcTool as tool, loadIsdlcTools as load } from './harness/script.js';
import { activity, e2eProject, readState, runClaude, unprotected, type E2eProject, asPersonWrote } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

const FAILING_TEST = `const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.strictEqual(1 + 1, 3));
test('subtracts', () => assert.strictEqual(2 - 1, 1));
`;

function implementationProject(): E2eProject {
  const project = e2eProject({
    files: {
      'package.json': JSON.stringify({ name: 'e2e-app', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2),
      'test/math.test.js': FAILING_TEST,
      'docs/isdlc/tasks.md': readFileSync(join(FIXTURES, 'plans', 'valid-v2.md'), 'utf8'),
    },
  });
  writeFileSync(join(project.dir, '.isdlc', 'state.json'), `${JSON.stringify(workflowState('feature', '06-implementation'), null, 2)}\n`);
  asPersonWrote(project);
  return project;
}

type State = Record<string, any>;

describe('a feature workflow in 06-implementation', () => {
  test('a delegation to a later phase is denied, and the reason is the tool result the model reads next', async () => {
    const project = implementationProject();
    const run = await runClaude(project, {
      prompt: 'Review the code now.',
      scripts: [
        { name: 'reviewer', match: startsWith('REVIEW'), turns: [say('Reviewed.')] },
        { name: 'main', turns: [call(agent('qa-engineer', 'REVIEW the implementation')), say('I will wait.')] },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [callId] = run.api.toolUseIds('Agent');
    const result = run.api.toolResult(callId!);
    expect(result?.isError).toBe(true);
    expect(result?.text).toContain('08-code-review');
    expect(result?.text).toContain('06-implementation');
    const denied = activity(project).find((entry) => entry.event === 'PreToolUse' && entry.tool === 'Agent');
    expect(denied?.decision).toBe('deny');
    expect(result?.text).toContain(String(denied?.reason).slice(0, 60));
    // The reviewer never ran.
    expect(run.api.conversation('reviewer')).toEqual([]);
  });

  test('the phase agent gets its GATE REQUIREMENTS in its first request, and its background run is tracked to its end', async () => {
    const project = implementationProject();
    const run = await runClaude(project, {
      prompt: 'Implement the feature.',
      scripts: [
        { name: 'developer', match: startsWith('IMPLEMENT'), turns: [call(bash('echo working')), say('Implemented.')] },
        {
          name: 'main',
          turns: [call(agent('software-developer', 'IMPLEMENT the export')), say('Delegated; waiting for it.')],
          after: say('The developer finished.'),
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const first = run.api.conversation('developer')[0];
    expect(first, 'the subagent ran').toBeDefined();
    const shown = MockApi.shown(first!);
    expect(shown).toContain('GATE REQUIREMENTS');
    expect(shown).toContain('06-implementation');
    // Launched in the background (Claude Code's default), then ended: both ends are in the log.
    const launch = run.api.toolResult(run.api.toolUseIds('Agent')[0]!);
    expect(launch?.text).toMatch(/agentId: (\w+)/);
    const agentId = /agentId: (\w+)/.exec(launch!.text)![1];
    const entry = (readState(project)['skill_usage_log'] as State[]).find((logged) => logged['agent'] === 'software-developer');
    expect(entry).toMatchObject({ agent_phase: '06-implementation', agent_id: agentId, outcome: 'completed', first_tool_at: expect.any(String) });
    expect(activity(project).some((logged) => logged.event === 'SubagentStop')).toBe(true);
    // Its end also comes back as a prompt Claude Code submits itself: isdlc reads it as a notification, not as the user's words.
    expect(
      activity(project)
        .filter((logged) => logged.event === 'UserPromptSubmit')
        .map((logged) => logged['notification'] ?? 'typed'),
    ).toEqual(['typed', 'task']);
  });

  test.each([
    ['only replies "OK"', [say('OK')]],
    ['makes one call that does nothing (`true`)', [call(bash('true')), say('Done.')]],
    ["only calls isdlc's own tools", [load('status'), call(tool('status')), say('Done.')]],
  ])('a delegation whose agent %s leaves the agent-delegation requirement unmet, and `isdlc gate check` says why', async (_name, turns) => {
    const project = implementationProject();
    const run = await runClaude(project, {
      prompt: 'Implement the feature.',
      scripts: [
        { name: 'developer', match: startsWith('GESTURE'), turns },
        {
          name: 'main',
          turns: [call(agent('software-developer', 'GESTURE and do no real work.')), say('Delegated; waiting for it.')],
          after: say('The developer finished.'),
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.api.conversation('developer')[0], 'the subagent ran').toBeDefined();
    const entry = (readState(project)['skill_usage_log'] as State[]).find((logged) => logged['agent'] === 'software-developer');
    expect(entry).toMatchObject({ agent_phase: '06-implementation', outcome: 'completed' });
    expect(entry?.['work_in']).toBeUndefined();
    const gate = JSON.parse(cli(['gate', 'check', '--json'], { cwd: project.dir }).stdout) as State;
    const detail = "software-developer ran but did none of this phase's work (a file changed with Write or Edit in this phase)";
    expect(gate['checks'].find((check: State) => check['requirement'] === 'agent_delegation')).toMatchObject({ met: false, detail });
    const shown = cli(['gate', 'check'], { cwd: project.dir }).stdout + cli(['gate', 'check'], { cwd: project.dir }).stderr;
    expect(shown).toContain(detail);
  });

  test("phase_complete while the phase's agent still runs in the background is refused, naming it; its finished run then counts", async () => {
    const project = implementationProject();
    const run = await runClaude(project, {
      prompt: 'Implement the feature.',
      scripts: [
        {
          name: 'developer',
          match: startsWith('IMPLEMENT'),
          // Works until the main agent has tried to complete the phase (its hook logged the call), however slow the machine.
          turns: [
            call(bash('for i in $(seq 1 300); do grep -q mcp__isdlc__phase_complete .isdlc/hook-activity.log && break; sleep 0.1; done; sleep 2')),
            call(write('src/export.js', 'module.exports = (rows) => rows.join("\\n");\n')),
            say('Implemented.'),
          ],
        },
        {
          name: 'main',
          turns: [
            call(agent('software-developer', 'IMPLEMENT the export')),
            load('phase_complete'),
            call(tool('phase_complete', { summary: 'done' })),
            say('It is still running; waiting.'),
          ],
          after: say('The developer finished.'),
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [completion] = run.api.toolUseIds('mcp__isdlc__phase_complete');
    const refusal = run.api.toolResult(completion!);
    expect(refusal?.isError).toBe(true);
    expect(refusal?.text).toMatch(
      /06-implementation cannot be completed while its agent is still running: software-developer \(running since \d\d:\d\d UTC, \d+ min\)/,
    );
    expect((readState(project) as State)['phases']['06-implementation'].status).toBe('in_progress');
    // It wrote the code and ended: that run is the phase's delegation.
    const entry = (readState(project)['skill_usage_log'] as State[]).find((logged) => logged['agent'] === 'software-developer');
    expect(entry, JSON.stringify(activity(project).map((logged) => [logged.event, logged.tool, logged['agent_id'], logged.decision]))).toMatchObject({
      outcome: 'completed',
      first_tool_at: expect.any(String),
      work_in: { '06-implementation': ['change'] },
    });
    const gate = JSON.parse(cli(['gate', 'check', '--json'], { cwd: project.dir }).stdout) as State;
    expect(gate['checks'].find((check: State) => check['requirement'] === 'agent_delegation')).toMatchObject({
      met: true,
      detail: 'software-developer ran in this phase and did its work (a file changed with Write or Edit in this phase)',
    });
  });

  test('a failing `npm test` is recorded from the real run and the model is told where it stands', async () => {
    const project = implementationProject();
    const run = await runClaude(project, {
      prompt: 'Run the tests.',
      scripts: [{ name: 'main', turns: [call(bash('npm test')), say('The tests fail; I will fix them.')] }],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const record = (readState(project)['phases'] as State)['06-implementation'].iteration_requirements?.test_iteration as State;
    expect(record).toMatchObject({ last_test_result: 'failed', current_iteration: 1, last_test_command: 'npm test' });
    const after = run.api.conversation('main')[1]!;
    const shown = MockApi.shown(after);
    expect(shown).toMatch(/iteration 1 of 10/i);
    expect(shown).toContain('adds');
  });

  // As init sets it up, Claude Code's deny rules and sandbox refuse these before any hook (with their own
  // words); without them, isdlc's hooks refuse them, saying why.
  test.each([
    ['as init sets it up', true],
    ['without the sandbox and deny rules', false],
  ])('forged state is refused through Write, Edit and the shell, %s, and the state stays as it was', async (_, protectedProject) => {
    const project = protectedProject ? implementationProject() : unprotected(implementationProject());
    const stateFile = join(project.dir, '.isdlc', 'state.json');
    const before = readState(project) as State;
    const forged = structuredClone<State>(before);
    forged['phases']['06-implementation'].status = 'completed';
    forged['phases']['06-implementation'].gate_passed = '2026-11-26T00:00:00.000Z';
    forged['active_workflow'].phase_status['06-implementation'] = 'completed';
    const attempts = [
      write(stateFile, `${JSON.stringify(forged, null, 2)}\n`),
      edit(stateFile, '"current_phase_index": 6', '"current_phase_index": 8'),
      bash(`sed -i 's/"in_progress"/"completed"/' .isdlc/state.json`),
      bash(`node -e "const f='.isdlc/state.json';const s=require('fs');s.writeFileSync(f,s.readFileSync(f,'utf8').replace(/in_progress/g,'completed'))"`),
    ];
    const run = await runClaude(project, {
      prompt: 'Mark the phase done.',
      scripts: [{ name: 'main', turns: [...attempts.map((attempt) => call(attempt)), say('I could not.')] }],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    for (const sent of run.api.calls) {
      const result = run.api.toolResult(sent.id);
      expect(result?.isError, `${sent.name} ${JSON.stringify(sent.input).slice(0, 80)}`).toBe(true);
      expect(result?.text).toMatch(protectedProject ? /denied|read-only file system|isdlc [a-z-]+:/i : /isdlc [a-z-]+:/);
    }
    const after = JSON.parse(readFileSync(stateFile, 'utf8')) as State;
    expect(after['phases']['06-implementation']).toEqual(before['phases']['06-implementation']);
    expect(after['active_workflow']).toEqual(before['active_workflow']);
    expect(after['current_phase']).toBe('06-implementation');
  });
});
