// A workflow phase driven through isdlc's MCP tools only, by the real Claude Code: the agent starts the
// workflow, activates the phase, asks for the delegation prompt, delegates to the phase agent (which
// records its constitutional checks itself), checks the gate and completes the phase through it. No Bash
// call touches isdlc. Who made each change is in state, from the tools' own PostToolUse payloads.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FIXTURES } from '../helpers/project.js';
import type { TurnContext } from './harness/mock-api.js';
import { agent, call, say, startsWith, write, isdlcTool as tool, loadIsdlcTools as load } from './harness/script.js';
import { activity, e2eProject, readState, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

type State = Record<string, any>;
const PHASE = '11-local-testing';
const PHASE_AGENT = 'environment-builder';

/** The JSON answer of the first call of an isdlc tool in this run. */
function answerOf({ api }: TurnContext, name: string): Record<string, any> {
  const result = api.toolResult(api.toolUseIds(`mcp__isdlc__${name}`)[0]!);
  return JSON.parse(result!.text) as Record<string, any>;
}

describe('a phase driven through the MCP tools', () => {
  test('activate, delegate, record the checks, complete through the gate; each change says who made it', async () => {
    // A delegation waits for the task plan (plan-surfacer).
    const project = e2eProject({ files: { 'docs/isdlc/tasks.md': readFileSync(join(FIXTURES, 'plans', 'valid-v2.md'), 'utf8') } });
    const run = await runClaude(project, {
      prompt: 'Run the test-run workflow.',
      scripts: [
        {
          name: 'environment-builder',
          match: startsWith('Artifact folder:'),
          turns: [
            // The phase's work: what a delegation counts.
            call(write('docs/local-testing.md', '# Local testing\n\nnpm test runs the suite.\n')),
            load('constitution_record', 'gate_check'),
            call(tool('constitution_record', { article: 'VIII', result: 'compliant', note: 'documentation matches the code' })),
            call(tool('constitution_record', { article: 'IX', result: 'compliant', note: 'the gate is checked before completion' })),
            call(tool('gate_check')),
            say('Articles VIII and IX are compliant; the gate is open.'),
          ],
        },
        {
          name: 'main',
          turns: [
            load('workflow_start', 'phase_activate', 'delegation_prompt', 'gate_check', 'phase_complete', 'status'),
            call(tool('workflow_start', { type: 'test-run', description: 'Run the tests locally' })),
            call(tool('phase_activate')),
            call(tool('phase_complete', { summary: 'too early' })),
            call(tool('delegation_prompt')),
            (context) => call(agent(PHASE_AGENT, answerOf(context, 'delegation_prompt')['prompt'] as string, { run_in_background: false })),
            call(tool('gate_check')),
            call(tool('phase_complete', { summary: 'Local test environment checked' })),
            call(tool('status')),
            say(`${PHASE} is complete.`),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(
      run.api.calls.filter((sent) => sent.name === 'Bash'),
      'no shell call at all',
    ).toEqual([]);
    const results = run.api.calls.filter((sent) => sent.name.startsWith('mcp__isdlc__')).map((sent) => ({ name: sent.name, ...run.api.toolResult(sent.id)! }));

    // The early completion is refused, naming what is missing; every other call works.
    const [early, done] = results.filter((result) => result.name === 'mcp__isdlc__phase_complete');
    expect(early!.isError).toBe(true);
    expect(early!.text).toMatch(new RegExp(`^the gate of ${PHASE} is closed, so the phase stays in progress: 1\\. constitutional_validation`));
    expect(early!.text).toContain('`mcp__isdlc__constitution_record` (article, result, note)');
    for (const result of results.filter((result) => result !== early)) expect(result.isError, `${result.name}: ${result.text}`).toBe(false);
    expect(JSON.parse(done!.text)).toMatchObject({ phase: PHASE, next: '07-testing' });

    const state = readState(project) as State;
    const record = state['phases'][PHASE];
    expect(record).toMatchObject({ status: 'completed', summary: 'Local test environment checked', gate_validation: { status: 'passed' } });
    expect(state['active_workflow']).toMatchObject({ type: 'test-run', current_phase_index: 1 });

    // Who: the main agent completed the phase; the phase agent, inside its own subagent, recorded the checks.
    const subagent = activity(project).find((entry) => entry.event === 'PostToolUse' && entry.tool === 'mcp__isdlc__constitution_record');
    expect(subagent?.['agent_type']).toBe(PHASE_AGENT);
    expect(record.gate_validation.by).toEqual({ session: run.sessionId });
    expect(record.constitutional_validation.article_results.VIII.by).toEqual({
      session: run.sessionId,
      agent_id: subagent!['agent_id'],
      agent_type: PHASE_AGENT,
    });
    const lines = (state['history'] as State[]).filter((line) => line['by']);
    expect(lines.map((line) => [line['action'].split(' ').slice(0, 2).join(' '), line['by']['agent_type'] ?? 'main'])).toEqual([
      ['Started test-run', 'main'],
      ['Activated phase', 'main'],
      ['Completed phase', 'main'],
    ]);

    // The hooks ran for every isdlc tool call, before and after, and none failed.
    const calls = run.api.calls.filter((sent) => sent.name.startsWith('mcp__isdlc__')).length;
    const logged = activity(project).filter((entry) => String(entry.tool ?? '').startsWith('mcp__isdlc__'));
    expect(logged.filter((entry) => entry.event === 'PreToolUse')).toHaveLength(calls);
    // The refused call ends in PostToolUseFailure, which isdlc does not register for its tools: nothing to record.
    expect(logged.filter((entry) => entry.event === 'PostToolUse').length).toBe(calls - 1);
    expect(run.hookResponses.filter((response) => response.exit_code !== 0)).toEqual([]);
  });

  test('in the default permission mode the read-only tools run unasked; a tool that changes the workflow waits for the person', async () => {
    const project = e2eProject({ trusted: true });
    const run = await runClaude(project, {
      prompt: 'Where does the workflow stand?',
      permissions: ['--permission-mode', 'default'],
      scripts: [
        { name: 'main', turns: [load('status', 'workflow_start'), call(tool('status')), call(tool('workflow_start', { type: 'test-run' })), say('Done.')] },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [status] = run.api.toolUseIds('mcp__isdlc__status');
    const [start] = run.api.toolUseIds('mcp__isdlc__workflow_start');
    expect(run.api.toolResult(status!)).toMatchObject({ isError: false, text: expect.stringContaining('"workflow":null') });
    expect(run.api.toolResult(start!)).toEqual({
      isError: true,
      text: expect.stringMatching(/requested permissions to use mcp__isdlc__workflow_start, but you haven't granted it/),
    });
    expect(readState(project)['active_workflow'] ?? null).toBeNull();
  });
});
