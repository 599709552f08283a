// The isdlc workflow under the real Codex (0.171.0, offline against the scripted Responses API), in a
// project `isdlc init --host codex` set up and a person gave a one-phase workflow (`isdlc config set`).
// The main agent drives the phase through isdlc's MCP tools only; a delegation to a later phase's agent is
// refused and the model reads why; the phase's agent, a Codex role isdlc installed, changes the code with
// apply_patch and runs the tests; the reviewer role reads what changed with the shell and records the
// articles; the gate runs the project's tests itself, keeps the phase open while they fail and completes
// it when they pass. Then the end of a turn: a loop holds it while its rule fails and lets it end when it
// passes (a phase agent's own loop too, at its SubagentStop), and a turn held again and again with nothing
// done between the holds ends at isdlc's own bound.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, FIXTURES } from '../helpers/project.js';
import { CodexMockApi, type CodexTurnContext } from './harness/codex-mock-api.js';
import { applyPatch, call, mcpTool, say, shell, spawnAgent, spawnedAgentId, updateFile, waitAgent } from './harness/codex-script.js';
import { codexProject, runCodex, usesCodex, type CodexProject } from './harness/codex-session.js';

usesCodex();

type State = Record<string, any>;
const PHASE = '06-implementation';
const DEVELOPER = 'software-developer';
const REVIEWER = 'constitution-reviewer';
const BROKEN = 'module.exports = (a, b) => a - b;';
const FIXED = 'module.exports = (a, b) => a + b;';
const TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../sum.js');\ntest('adds', () => assert.strictEqual(sum(1, 2), 3));\n";

/** A project with a failing test, set up for Codex, with a workflow of one phase and two articles to review. */
function isdlcProject(): CodexProject {
  const project = codexProject({
    files: {
      'package.json': '{"name":"sum","version":"1.0.0","private":true,"scripts":{"test":"node --test"}}\n',
      'sum.js': `${BROKEN}\n`,
      'test/sum.test.js': TEST,
      // From implementation on a delegation waits for the task plan.
      'docs/isdlc/tasks.md': readFileSync(join(FIXTURES, 'plans', 'valid-v2.md'), 'utf8'),
    },
  });
  const person = (args: string[]): void => {
    const run = cli([...args, '--dir', project.dir]);
    if (run.status !== 0) throw new Error(`isdlc ${args.join(' ')}: ${run.stderr}`);
  };
  const init = cli(['init', project.dir, '--host', 'codex', '--codex-version', '0.171.0']);
  if (init.status !== 0) throw new Error(init.stderr);
  person(['config', 'set', 'workflows', 'workflows.build', JSON.stringify({ label: 'Build', phases: [PHASE] })]);
  person(['config', 'set', 'iteration-requirements', `phase_requirements.${PHASE}.constitutional_validation.articles`, '["I","IX"]']);
  return project;
}

const stateOf = (project: CodexProject): State => JSON.parse(readFileSync(join(project.dir, '.isdlc/state.json'), 'utf8')) as State;
const activity = (project: CodexProject): State[] =>
  readFileSync(join(project.dir, '.isdlc/hook-activity.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as State);

const isdlc = (tool: string, args: Record<string, unknown> = {}) => mcpTool('isdlc', tool, args);
/** What the model read back for the nth call of a tool (Codex's MCP output: a header, then the tool's text). */
const readBack = (api: CodexMockApi, tool: string, nth = 0): string => api.output(api.callIds(tool)[nth]!) ?? '';
const toolText = (output: string): string => output.slice(output.indexOf('Output:\n') + 'Output:\n'.length);
const answer = (api: CodexMockApi, tool: string, nth = 0): State => JSON.parse(toolText(readBack(api, tool, nth))) as State;
const spawned = ({ api }: CodexTurnContext, nth: number): string => spawnedAgentId(readBack(api, 'spawn_agent', nth));

describe('the isdlc workflow under Codex', () => {
  test('a phase through isdlc’s tools: an out-of-order delegation refused, the phase agent’s patch and tests, the reviewer’s checks, the gate’s own failing run, then completion', async () => {
    const project = isdlcProject();
    const review = `Review the work of phase ${PHASE} against its articles and record each.`;
    const run = await runCodex(project, {
      timeoutMs: 120_000,
      scripts: [
        {
          name: 'reviewer',
          match: (prompt) => prompt.startsWith('Review the work'),
          turns: [
            call(isdlc('gate_check')),
            call(shell('cat sum.js')),
            call(isdlc('constitution_record', { article: 'I', result: 'compliant', note: 'sum() does what its test specifies' })),
            call(isdlc('constitution_record', { article: 'IX', result: 'compliant', note: 'the gate is checked before completion' })),
            say('Reviewed: Articles I and IX are compliant.'),
          ],
        },
        {
          name: 'developer',
          match: (prompt) => prompt.startsWith('Artifact folder:'),
          turns: [
            call(applyPatch(updateFile('sum.js', [BROKEN], [FIXED]))),
            call(shell('node --test')),
            call(isdlc('gate_check')),
            say('sum() adds; node --test passes. Changed: sum.js. <promise>COMPLETE</promise>'),
          ],
        },
        {
          name: 'main',
          turns: [
            call(isdlc('workflow_start', { type: 'build', description: 'Make sum() add' })),
            call(isdlc('phase_activate')),
            call(isdlc('delegation_prompt')),
            call(spawnAgent('Review the code of this feature.', { agent_type: 'qa-engineer' })),
            ({ api }) => call(spawnAgent(`${answer(api, 'delegation_prompt')['prompt']}\n\nMake sum() add.`, { agent_type: DEVELOPER })),
            (context) => call(waitAgent([spawned(context, 1)], 60_000)),
            call(spawnAgent(review, { agent_type: REVIEWER })),
            (context) => call(waitAgent([spawned(context, 2)], 60_000)),
            call(isdlc('gate_check')),
            // The suite breaks behind the observed runs' back (a shell edit isdlc does not see as a change).
            call(shell("sed -i 's/3)/4)/' test/sum.test.js")),
            call(isdlc('phase_complete', { summary: 'sum() adds' })),
            call(shell("sed -i 's/4)/3)/' test/sum.test.js")),
            call(isdlc('phase_complete', { summary: 'sum() adds' })),
            say(`${PHASE} is complete.`),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const { api } = run;

    // The out-of-order delegation: refused before any subagent started, and the model read why.
    expect(readBack(api, 'spawn_agent', 0)).toMatch(
      /^Tool call blocked by PreToolUse hook: isdlc phase-sequence-guard: Carry on with phase 06-implementation \(its agent is software-developer\)/,
    );
    expect(readBack(api, 'spawn_agent', 0)).toContain('This call to qa-engineer is an out-of-order phase delegation');
    expect(api.requests.filter((request) => request.conversation === '(unscripted)')).toEqual([]);

    // The phase agent got the GATE REQUIREMENTS and its role's instructions; it worked through apply_patch.
    const developerFirst = api.conversation('developer')[0]!;
    expect(CodexMockApi.shown(developerFirst)).toContain(`GATE REQUIREMENTS (Phase: ${PHASE})`);
    expect(CodexMockApi.shown(developerFirst)).toContain(`You are the ${DEVELOPER} of an isdlc workflow`);
    expect(readFileSync(join(project.dir, 'sum.js'), 'utf8')).toBe(`${FIXED}\n`);

    // Before the last phase_complete the gate was open by every observed account, and its own run said no.
    expect(answer(api, 'gate_check', 2)).toMatchObject({ phase: PHASE, open: true });
    const refused = toolText(readBack(api, 'phase_complete', 0));
    expect(refused).toMatch(
      /^the gate of 06-implementation is closed, so the phase stays in progress: 1\. verified_test_run: the gate ran `node --experimental-test-coverage --test`/,
    );
    expect(refused).toContain('0 passed, 1 failed');
    expect(refused).toContain('failing: adds');
    expect(answer(api, 'phase_complete', 1)).toMatchObject({ phase: PHASE });

    const state = stateOf(project);
    const record = state['phases'][PHASE];
    expect(record).toMatchObject({ status: 'completed', gate_validation: { status: 'passed' } });
    expect(state['active_workflow']['gate_runs']).toEqual([
      expect.objectContaining({ result: 'failed', counts: expect.objectContaining({ failed: 1 }) }),
      expect.objectContaining({ result: 'passed', counts: expect.objectContaining({ passed: 1 }) }),
    ]);

    // Who did what: the developer's run changed sum.js and ran the tests; the reviewer read it and recorded the articles.
    const [developer, reviewer] = state['skill_usage_log'] as State[];
    expect(developer).toMatchObject({ agent: DEVELOPER, agent_phase: PHASE, outcome: 'completed', work_in: { [PHASE]: ['change', 'test'] } });
    expect(reviewer).toMatchObject({ agent: REVIEWER, outcome: 'completed', read_in: { [PHASE]: { 'sum.js': expect.any(String) } } });
    expect(reviewer!['work_in']).toBeUndefined();
    expect(record['constitutional_validation']['article_results']['I']['by']).toMatchObject({ agent_id: reviewer!['agent_id'], agent_type: REVIEWER });
    expect(record['changed_files']).toEqual({ 'sum.js': expect.any(String) });

    // Every hook call answered; none failed.
    expect(activity(project).filter((entry) => entry['failures'] || entry['problem'])).toEqual([]);
  });

  test('a loop holds the turn at Stop while its rule fails, the model reads why, and the turn ends once the rule passes', async () => {
    const project = isdlcProject();
    const run = await runCodex(project, {
      scripts: [
        {
          name: 'main',
          turns: [
            call(isdlc('loop_start', { prompt: 'Make sum() add', rules: ['node --test'], maxIterations: 5 })),
            say('sum() adds now. <promise>COMPLETE</promise>'),
            call(applyPatch(updateFile('sum.js', [BROKEN], [FIXED]))),
            say('Fixed; node --test passes. <promise>COMPLETE</promise>'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const stops = activity(project).filter((entry) => entry['event'] === 'Stop');
    expect(stops.map((entry) => entry['decision'])).toEqual(['block', 'allow']);
    // The request after the held Stop carries its reason to the model (Codex wraps it in a <hook_prompt>,
    // its own angle brackets escaped).
    const reason = String(stops[0]!['reason']);
    expect(reason).toMatch(/^isdlc loop L-\w+: Fix node --test \(not ok 1 - adds\), then end your turn; iteration 1 of 5 failed\./);
    expect(CodexMockApi.shown(run.api.requests[2]!)).toContain(`<hook_prompt hook_run_id="stop:`);
    expect(CodexMockApi.shown(run.api.requests[2]!)).toContain(reason.slice(0, reason.indexOf('failed.') + 'failed.'.length));
    const [loop] = JSON.parse(cli(['loop', 'status', '--all', '--json', '--dir', project.dir]).stdout) as State[];
    expect(loop).toMatchObject({ status: 'completed', iteration: 2 });
    expect(run.api.requests).toHaveLength(4);
  });

  test("a subagent's loop holds its SubagentStop while the rule fails and lets it end when it passes; its parent is not held", async () => {
    const project = isdlcProject();
    const run = await runCodex(project, {
      scripts: [
        {
          name: 'developer',
          match: (prompt) => prompt.startsWith('Make sum() add'),
          turns: [
            call(isdlc('loop_start', { prompt: 'Make sum() add', agent: DEVELOPER, rules: ['node --test'], maxIterations: 5 })),
            say('Done. <promise>COMPLETE</promise>'),
            call(applyPatch(updateFile('sum.js', [BROKEN], [FIXED]))),
            say('Fixed; node --test passes. <promise>COMPLETE</promise>'),
          ],
        },
        {
          name: 'main',
          turns: [call(spawnAgent('Make sum() add.', { agent_type: DEVELOPER })), (context) => call(waitAgent([spawned(context, 0)], 60_000)), say('Done.')],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const ends = activity(project).filter((entry) => entry['event'] === 'Stop' || entry['event'] === 'SubagentStop');
    expect(ends.map((entry) => [entry['event'], entry['decision'], entry['agent_type'] ?? 'main'])).toEqual([
      ['SubagentStop', 'block', DEVELOPER],
      ['SubagentStop', 'allow', DEVELOPER],
      ['Stop', 'allow', 'main'],
    ]);
    const held = String(ends[0]!['reason']);
    const next = CodexMockApi.shown(run.api.conversation('developer')[2]!);
    expect(next).toContain('<hook_prompt hook_run_id="subagent-stop:');
    expect(next).toContain(held.slice(0, held.indexOf('failed.') + 'failed.'.length));
    const [loop] = JSON.parse(cli(['loop', 'status', '--all', '--json', '--dir', project.dir]).stdout) as State[];
    expect(loop).toMatchObject({ status: 'completed', iteration: 2 });
  });

  test("a turn held again and again with nothing done between the holds ends at isdlc's bound; an agent working between holds is not cut short", async () => {
    // Rules that pass, and a model that never declares completion: only the loop's own limit would end it.
    const start = isdlc('loop_start', { prompt: 'Make sum() add', rules: ['true'], maxIterations: 10 });
    const idle = isdlcProject();
    const stalled = await runCodex(idle, { scripts: [{ name: 'main', turns: [call(start)], after: say('Still working on it.') }] });
    expect(stalled.exitCode, stalled.stderr).toBe(0);
    const idleStops = activity(idle).filter((entry) => entry['event'] === 'Stop');
    expect(idleStops.map((entry) => entry['decision'])).toEqual([...Array<string>(8).fill('block'), 'allow']);
    expect(String(idleStops.at(-1)!['user_messages'])).toContain(
      'isdlc: the turn was held 8 times in a row with no tool call between the holds, so isdlc let it end instead of holding it again. What held it still stands (iteration-loop: ',
    );
    // One request to start the loop, one that ended the turn, one after each hold.
    expect(stalled.api.requests).toHaveLength(10);
    const [left] = JSON.parse(cli(['loop', 'status', '--all', '--json', '--dir', idle.dir]).stdout) as State[];
    expect(left).toMatchObject({ status: 'active' });

    // The control: a shell call between the holds is work, and the loop's own limit ends the turn.
    const busy = isdlcProject();
    const working = await runCodex(busy, {
      scripts: [
        {
          name: 'main',
          turns: [call(start)],
          after: ({ request }) => (request.body.input?.at(-1)?.type === 'function_call_output' ? say('Still working on it.') : call(shell('true'))),
        },
      ],
    });
    expect(working.exitCode, working.stderr).toBe(0);
    const busyStops = activity(busy).filter((entry) => entry['event'] === 'Stop');
    expect(busyStops.map((entry) => entry['decision'])).toEqual([...Array<string>(9).fill('block'), 'allow']);
    const [ended] = JSON.parse(cli(['loop', 'status', '--all', '--json', '--dir', busy.dir]).stdout) as State[];
    expect(ended).toMatchObject({ status: 'escalated', iteration: 10 });
  });
});
