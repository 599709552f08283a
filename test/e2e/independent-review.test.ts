// Who checked the constitution, with the real Claude Code. The phase's worker subagent writes its work and
// records its own articles compliant: with independent_review on, the gate stays closed and names it (the
// MCP gate_check and `isdlc gate check` in the shell alike). A general-purpose subagent told to record them
// compliant is a stamp, not a review: still closed. isdlc's reviewer (constitution-reviewer, whose definition
// init installed) reads what the phase changed and records the same articles: the requirement is met, the
// phase completes, and state says who checked each article.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import bundled from '../../src/config/defaults/iteration-requirements.json';
import { FIXTURES, writeJson } from '../helpers/project.js';
import type { TurnContext } from './harness/mock-api.js';
import { agent, bash, call, ISDLC_CMD, isdlcTool, loadIsdlcTools, say, startsWith, write } from './harness/script.js';
import { activity, asPersonWrote, e2eProject, readState, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

type State = Record<string, any>;
const PHASE = '11-local-testing';
const WORKER = 'environment-builder';
const tool = isdlcTool;
const load = loadIsdlcTools;
const REVIEW = `Review the work of phase ${PHASE} against Articles VIII and IX and record each check.`;
const STAMP = 'STAMP: record Articles VIII and IX as compliant. Do not look at anything.';
const WORK_FILE = 'docs/local-testing.md';

function answerOf({ api }: TurnContext, name: string, nth = 0): Record<string, any> {
  return JSON.parse(api.toolResult(api.toolUseIds(`mcp__isdlc__${name}`)[nth]!)!.text) as Record<string, any>;
}

describe('independent review of the constitution', () => {
  test("the worker's own checks keep the gate closed, naming it; another agent's checks open that requirement", async () => {
    const project = e2eProject({ files: { 'docs/isdlc/tasks.md': readFileSync(join(FIXTURES, 'plans', 'valid-v2.md'), 'utf8') } });
    // The project's own requirements: the bundled ones, with the test-run workflow's local testing reviewed independently.
    const config = JSON.parse(JSON.stringify(bundled)) as State;
    config['workflow_overrides']['test-run'][PHASE] = { constitutional_validation: { independent_review: true } };
    writeJson(join(project.dir, '.isdlc/config/iteration-requirements.json'), config);
    asPersonWrote(project);

    const record = (article: string, note: string) => call(tool('constitution_record', { article, result: 'compliant', note }));
    const run = await runClaude(project, {
      prompt: 'Run the test-run workflow.',
      scripts: [
        {
          name: WORKER,
          match: startsWith('Artifact folder:'),
          turns: [
            call(write(WORK_FILE, '# Local testing\n\nnpm test runs the suite.\n')),
            load('constitution_record'),
            record('VIII', 'my docs match my code'),
            record('IX', 'I checked my own gate'),
            say('Both articles are compliant.'),
          ],
        },
        {
          name: 'stamper',
          match: startsWith('STAMP'),
          turns: [load('constitution_record'), record('VIII', 'as told'), record('IX', 'as told'), say('Recorded.')],
        },
        {
          name: 'reviewer',
          match: startsWith('Review the work of phase'),
          turns: [
            call({ name: 'Read', input: { file_path: join(project.dir, WORK_FILE) } }),
            load('constitution_record'),
            record('VIII', 'the docs match the code'),
            record('IX', 'the gate is checked before completion'),
            say('Reviewed: both compliant.'),
          ],
        },
        {
          name: 'main',
          turns: [
            load('workflow_start', 'phase_activate', 'delegation_prompt', 'gate_check', 'phase_complete'),
            call(tool('workflow_start', { type: 'test-run', description: 'Run the tests locally' })),
            call(tool('phase_activate')),
            call(tool('delegation_prompt')),
            (context) => call(agent(WORKER, answerOf(context, 'delegation_prompt')['prompt'] as string, { run_in_background: false })),
            call(tool('gate_check')),
            call(bash(`${ISDLC_CMD} gate check`)),
            call(agent('general-purpose', STAMP, { run_in_background: false })),
            call(tool('gate_check')),
            call(agent('constitution-reviewer', REVIEW, { run_in_background: false })),
            call(tool('gate_check')),
            call(tool('phase_complete', { summary: 'Local test environment checked and reviewed' })),
            say(`${PHASE} is complete.`),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.hookResponses.filter((response) => response.exit_code !== 0)).toEqual([]);
    const context = { api: run.api } as TurnContext;

    // After the worker's own checks: every article compliant, none counted; both readings name the worker.
    const closed = answerOf(context, 'gate_check', 0);
    const constitutional = (closed['checks'] as State[]).find((check) => check['requirement'] === 'constitutional_validation')!;
    expect(constitutional['met']).toBe(false);
    expect(constitutional['detail']).toMatch(
      new RegExp(`Article VIII: compliant, recorded by ${WORKER} \\(agent \\w+\\) \\(the phase's worker\\): needs a review by an agent other than ${WORKER}`),
    );
    expect(closed['message']).toContain('to constitution-reviewer (a reviewer), which reads what the phase changed');
    const shell = run.api.toolResult(run.api.toolUseIds('Bash')[0]!)!;
    expect(shell.text).toContain(`The gate of ${PHASE} is closed:`);
    expect(shell.text).toMatch(
      new RegExp(
        `constitutional_validation: this phase needs an independent review of its articles: Article VIII: compliant, recorded by ${WORKER} \\(agent \\w+\\) \\(the phase's worker\\)`,
      ),
    );

    // After the stamp: still closed, and why.
    const stamped = (answerOf(context, 'gate_check', 1)['checks'] as State[]).find((check) => check['requirement'] === 'constitutional_validation')!;
    expect(stamped['met']).toBe(false);
    expect(stamped['detail']).toMatch(/recorded by general-purpose \(agent \w+\): general-purpose is not a reviewer here/);

    // After the reviewer's: met, naming the reviewer; the phase completes through its gate.
    const open = answerOf(context, 'gate_check', 2);
    expect(open['open'], open['message']).toBe(true);
    const reviewed = (open['checks'] as State[]).find((check) => check['requirement'] === 'constitutional_validation')!;
    expect(reviewed['detail']).toMatch(/^all 2 articles compliant; recorded by constitution-reviewer \(agent \w+\): VIII, IX$/);
    const completed = run.api.toolResult(run.api.toolUseIds('mcp__isdlc__phase_complete')[0]!)!;
    expect(completed.isError, completed.text).toBe(false);

    // State: each article's latest check names the reviewer (from its calls' PostToolUse); the worker's stay in the history.
    const state = readState(project) as State;
    const validation = state['phases'][PHASE].constitutional_validation;
    const posts = activity(project).filter((entry) => entry.event === 'PostToolUse' && entry.tool === 'mcp__isdlc__constitution_record');
    const workerId = posts.find((entry) => entry['agent_type'] === WORKER)?.['agent_id'];
    const reviewerId = posts.find((entry) => entry['agent_type'] === 'constitution-reviewer')?.['agent_id'];
    expect(workerId).toBeTruthy();
    expect(reviewerId).toBeTruthy();
    expect(workerId).not.toBe(reviewerId);
    expect(validation.article_results.VIII.by).toEqual({ session: run.sessionId, agent_id: reviewerId, agent_type: 'constitution-reviewer' });
    expect(validation.history.map((entry: State) => [entry['article'], entry['by']?.['agent_type'], entry['recorded_with']])).toEqual([
      ['VIII', WORKER, 'mcp_tool'],
      ['IX', WORKER, 'mcp_tool'],
      ['VIII', 'general-purpose', 'mcp_tool'],
      ['IX', 'general-purpose', 'mcp_tool'],
      ['VIII', 'constitution-reviewer', 'mcp_tool'],
      ['IX', 'constitution-reviewer', 'mcp_tool'],
    ]);
    // What the hooks saw: the worker's change in the phase, and the reviewer's run reading it afterwards.
    expect(Object.keys(state['phases'][PHASE].changed_files)).toEqual([WORK_FILE]);
    const reviewerRun = (state['skill_usage_log'] as State[]).find((entry) => entry['agent_id'] === reviewerId);
    expect(Object.keys(reviewerRun?.['read_in']?.[PHASE] ?? {})).toEqual([WORK_FILE]);
  });
});
