// `isdlc mcp` as an MCP client sees it: a real stdio session with the SDK's client against the installed
// bundle (`.isdlc/bin/isdlc.cjs mcp`), started from a directory that is neither the package nor the project
// (the old iteration-loop server failed whenever it was not started from its own package root).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentResult, recorded332In, subagentWrite } from '../helpers/payloads.js';
import { cleanEnv, decisionOf, fixture, initedProject, readJson, REPO, tempDir, writeFile } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const LOOP_TOOLS = [
  'checkpoint_create',
  'checkpoint_resume',
  'iteration_complete',
  'iteration_next',
  'iteration_start',
  'iteration_status',
  'iteration_validate',
  'loop_start',
  'task_create',
  'task_get',
  'task_update',
  'work_product_store',
];
const WORKFLOW_TOOLS = [
  'constitution_record',
  'delegation_prompt',
  'escalations',
  'escalations_clear',
  'gate_check',
  'phase_activate',
  'phase_complete',
  'phase_review',
  'status',
  'workflow_cancel',
  'workflow_finalize',
  'workflow_start',
];
/** Characters of tools/list JSON every agent session pays for; the old server's 55 tools cost about 6,400 tokens. */
const TOOLS_LIST_BUDGET = 8_000;

let project: string;
let client: Client;
let serverErr = '';

interface Reply {
  isError: boolean;
  text: string;
  json: Record<string, any>;
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<Reply> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  expect(content, `${name}: one text item`).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  const text = content[0]!.text ?? '';
  const isError = result.isError === true;
  let json: Record<string, any> = {};
  if (!isError) {
    expect(text, `${name}: compact JSON, not pretty-printed`).not.toMatch(/\n/);
    json = JSON.parse(text) as Record<string, any>;
  }
  return { isError, text, json };
}

async function ok(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const reply = await call(name, args);
  expect(reply.isError, `${name} failed: ${reply.text}\nserver stderr: ${serverErr}`).toBe(false);
  return reply.json;
}

async function refused(name: string, args: Record<string, unknown>): Promise<string> {
  const reply = await call(name, args);
  expect(reply.isError, `${name} should have been refused, got ${reply.text}`).toBe(true);
  expect(reply.text, 'one line, no stack').not.toMatch(/\n|\bat .+:\d+:\d+/);
  return reply.text;
}

beforeAll(async () => {
  project = initedProject('isdlc-mcp-project-');
  const elsewhere = tempDir('isdlc-mcp-cwd-');
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(project, '.isdlc/bin/isdlc.cjs'), 'mcp', '--dir', project],
    cwd: elsewhere,
    env,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    serverErr += chunk.toString();
  });
  client = new Client({ name: 'isdlc-test', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
});

describe('isdlc mcp over stdio', () => {
  it('initializes as server "isdlc"', () => {
    expect(client.getServerVersion()?.name).toBe('isdlc');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists exactly the workflow and loop tools, within the schema budget', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...WORKFLOW_TOOLS, ...LOOP_TOOLS].sort());
    // What the client received, as it received it: the whole tools/list result.
    const size = JSON.stringify({ tools }).length;
    console.log(`isdlc mcp tools/list: ${tools.length} tools, ${size} characters of JSON`);
    expect(size).toBeLessThan(TOOLS_LIST_BUDGET);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.description!.includes('\n'), `${tool.name}: one-line description`).toBe(false);
    }
  });

  it('runs a whole loop: a failing iteration, the fix, COMPLETE, the summary', async () => {
    const task = await ok('task_create', { title: 'Write done.txt', metadata: { ticket: 'MCP-1' } });
    expect(task['id']).toMatch(/^T-/);
    expect(task['status']).toBe('pending');

    const started = await ok('iteration_start', {
      taskId: task['id'],
      maxIterations: 5,
      validationRules: [
        { type: 'command', name: 'done-file', command: [process.execPath, '-e', "process.exit(require('fs').existsSync('done.txt') ? 0 : 1)"] },
      ],
      prompt: 'Create done.txt in the project root.',
    });
    expect(started).toMatchObject({ taskId: task['id'], iterationNumber: 1, maxIterations: 5, rules: ['done-file'] });
    expect(started['loopId']).toMatch(/^L-[0-9a-f]{10}$/);
    // The PostToolUse hook binds the loop to the calling session through this marker.
    expect(started['message']).toContain(`[isdlc-loop ${started['loopId']} awaiting-session]`);
    expect(started['message']).toMatch(/turn will not end until the rules pass/);

    const context = { filesModified: ['done.txt'], testCommand: 'node check.js', lastError: null };
    const checkpoint = await ok('checkpoint_create', { taskId: task['id'], agentContext: context, executionPhase: 'implementation', executionStep: 1 });
    expect(checkpoint['checkpointId']).toMatch(/^CP-/);
    expect(checkpoint['iterationNumber']).toBe(1);
    expect(typeof checkpoint['sequence']).toBe('number');

    const failed = await ok('iteration_validate', { taskId: task['id'] });
    expect(failed).toMatchObject({ taskId: task['id'], iterationNumber: 1, validationPassed: false, completionSignal: 'CONTINUE' });
    expect(failed['detectedPromise']).toBeUndefined();
    expect((failed['feedback'] as string[]).join('\n')).toContain('done-file');
    expect(failed['validationReport']['results'][0]).toMatchObject({ name: 'done-file', passed: false });
    expect(failed['score']).toBe(0);

    const next = await ok('iteration_next', { taskId: task['id'], notes: 'done.txt is still missing' });
    expect(next).toMatchObject({ taskId: task['id'], iterationNumber: 2, maxIterations: 5 });
    expect(next['checkpointId']).toMatch(/^CP-/);

    writeFile(join(project, 'done.txt'), 'done\n');
    const passed = await ok('iteration_validate', { taskId: task['id'], agentOutput: 'Created done.txt.\n\n<promise>COMPLETE</promise>' });
    expect(passed).toMatchObject({ taskId: task['id'], iterationNumber: 2, validationPassed: true, completionSignal: 'COMPLETE', score: 100 });
    expect(passed['detectedPromise']).toContain('COMPLETE');

    const completed = await ok('iteration_complete', { taskId: task['id'] });
    expect(completed).toMatchObject({ taskId: task['id'], totalIterations: 2, finalValidationScore: 100 });
    expect(completed['iterationHistory']).toEqual([
      { iteration: 1, passed: false, score: 0, signal: 'CONTINUE' },
      { iteration: 2, passed: true, score: 100, signal: 'COMPLETE' },
    ]);
    expect(Date.parse(completed['completedAt'] as string)).not.toBeNaN();

    const product = await ok('work_product_store', { taskId: task['id'], type: 'implementation', title: 'done.txt', content: 'Wrote done.txt.' });
    expect(product).toMatchObject({ taskId: task['id'], type: 'implementation', title: 'done.txt' });
    expect(product['id']).toMatch(/^WP-/);

    const status = await ok('iteration_status', { taskId: task['id'] });
    expect(status).toMatchObject({
      taskId: task['id'],
      loopId: started['loopId'],
      status: 'completed',
      iteration: 2,
      maxIterations: 5,
      bound: false,
      failing: [],
    });
    expect(status['history']).toHaveLength(2);
    expect(status['history'][0]).toMatchObject({ iteration: 1, passed: false, signal: 'CONTINUE', validatedBy: 'tool' });
    expect(status['history'][1]).toMatchObject({ iteration: 2, passed: true, signal: 'COMPLETE', validatedBy: 'tool' });

    const got = await ok('task_get', { id: task['id'] });
    expect(got['task']).toMatchObject({ id: task['id'], status: 'completed', metadata: { ticket: 'MCP-1' } });
    expect(got['loop']).toMatchObject({ id: started['loopId'], status: 'completed', iteration: 2, maxIterations: 5 });
    expect(got['workProducts']).toBe(1);

    const resumed = await ok('checkpoint_resume', { taskId: task['id'] });
    expect(resumed['agentContext']).toEqual(context);
    expect(resumed['iterationNumber']).toBe(2);
    expect(resumed['iterationConfig']).toMatchObject({ maxIterations: 5, rules: ['done-file'] });
    expect(resumed['iterationHistory']).toHaveLength(2);
    expect(resumed['resumeInstructions']).toMatch(/completed/);

    const after = await refused('iteration_next', { taskId: task['id'] });
    expect(after).toMatch(/ended \(completed/);

    expect(existsSync(join(project, '.isdlc/loop.db'))).toBe(true);
  });

  it('resumes a running loop with its agent context and the next step', async () => {
    const task = await ok('task_create', { title: 'Resume me' });
    await ok('iteration_start', { taskId: task['id'], validationRules: [{ type: 'file_exists', name: 'notes-file', path: 'notes.md' }] });
    await ok('checkpoint_create', {
      taskId: task['id'],
      agentContext: { step: 'drafting', files: ['notes.md'] },
      draftContent: '# Notes',
      draftType: 'markdown',
    });
    const resumed = await ok('checkpoint_resume', { taskId: task['id'] });
    expect(resumed).toMatchObject({
      iterationNumber: 1,
      agentContext: { step: 'drafting', files: ['notes.md'] },
      draft: { type: 'markdown', content: '# Notes' },
    });
    expect(resumed['loop']).toMatchObject({ status: 'active', iteration: 1 });
    expect(resumed['resumeInstructions']).toMatch(/iteration 1 of 10, not validated yet/);
    expect(resumed['resumeInstructions']).toMatch(/iteration_validate/);
  });

  it('refuses bad input with a one-line message and goes on serving', async () => {
    const missing = await refused('iteration_validate', {});
    expect(missing).toMatch(/taskId/);
    expect(missing).toMatch(/task id from task_create/);

    expect(await refused('task_get', { id: 'T-0000000000' })).toMatch(/no task T-0000000000: task_create makes one/);
    expect(await refused('iteration_status', { taskId: 'T-0000000000' })).toMatch(/no task T-0000000000/);

    const task = await ok('task_create', { title: 'Limits' });
    expect(await refused('iteration_status', { taskId: task['id'] })).toBe(`task ${task['id']} has no loop: iteration_start begins one`);
    expect(await refused('iteration_start', { taskId: task['id'], maxIterations: 0 })).toMatch(/maxIterations/);
    expect(await refused('iteration_start', { taskId: task['id'], validationRules: [{ type: 'command' }] })).toMatch(/command/);
    expect(await refused('task_update', { id: task['id'], status: 'done' })).toMatch(/one of pending, in_progress, blocked, completed, cancelled/);
    expect(await refused('task_update', { id: task['id'], status: 'blocked' })).toMatch(/blockedReason/);
    expect(await refused('iteration_complete', { taskId: task['id'] })).toMatch(/has no loop/);

    // Still serving, and the refused start left no loop behind.
    const got = await ok('task_get', { id: task['id'] });
    expect(got).toMatchObject({ task: { id: task['id'], status: 'pending' }, loop: null, workProducts: 0 });
  });
});

describe('the workflow tools', () => {
  const PHASE = '11-local-testing';
  const session = 'b5b0c1de-0000-4000-8000-0000000mcp02';
  /** What Claude Code sends after an isdlc tool call (recorded from 2.1.332), with this call's answer. */
  const afterCall = (tool: string, content: unknown) => ({
    ...recorded332In('post-mcp-phase-complete.json', project),
    session_id: session,
    tool_name: `mcp__isdlc__${tool}`,
    tool_response: content,
  });
  const state = (): Record<string, any> => readJson(join(project, '.isdlc/state.json'));

  it('has no tool for what only a person decides', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const forbidden of ['escalation_approve', 'phase_skip', 'loop_cancel', 'loop_approve', 'uninstall', 'accept']) {
      expect(
        names.filter((name) => name.includes(forbidden)),
        forbidden,
      ).toEqual([]);
    }
    // A review's "continue" is the person's; the agent may only ask for more scrutiny.
    const review = tools.find((tool) => tool.name === 'phase_review')!;
    expect((review.inputSchema.properties as Record<string, { enum?: string[] }>)['decision']!.enum).toEqual(['review', 'redo']);
    expect(await refused('phase_review', { decision: 'continue' })).toMatch(/review or redo is required, got "continue"/);
  });

  it('runs a phase: start, activate, delegation prompt, checks, the gate closed then open, completion; the caller is recorded', async () => {
    const before = await ok('status');
    expect(before).toMatchObject({ workflow: null, message: 'No active workflow: `mcp__isdlc__workflow_start` (type) starts one.' });

    const started = await ok('workflow_start', { type: 'test-run', description: 'Run the tests locally' });
    expect(started).toMatchObject({ type: 'test-run', phases: [PHASE, '07-testing'], current_phase: PHASE, state_version: 2 });
    expect(started['message']).toBe(
      `Started test-run workflow "Run the tests locally": ${PHASE} → 07-testing. Current phase: ${PHASE}; artifact folder REQ-0001-run-the-tests-locally. Next: \`mcp__isdlc__phase_activate\` starts ${PHASE}'s clock and names its agent, environment-builder; then the phase's work, and \`mcp__isdlc__phase_complete\` once \`mcp__isdlc__gate_check\` says its gate is open. In Claude Code the /isdlc command does these steps.`,
    );
    expect(await refused('workflow_start', { type: 'test-run' })).toMatch(/^a test-run workflow is already active/);
    expect(await refused('workflow_start', { type: 'nope' })).toMatch(/^unknown workflow type "nope"; the types are: feature, fix/);
    expect(await refused('phase_activate', { phase: '07-testing' })).toMatch(
      /^the workflow has reached 11-local-testing .* Call `mcp__isdlc__phase_activate` for 11-local-testing$/,
    );

    const activated = await ok('phase_activate');
    expect(activated).toMatchObject({ phase: PHASE, index: 0, total: 2, agent: 'environment-builder', retry: false });
    expect(activated['message']).toMatch(/^Activated phase 11-local-testing \(1 of 2\); its agent is environment-builder\./);

    const delegation = await ok('delegation_prompt');
    expect(delegation).toMatchObject({ phase: PHASE, agent: 'environment-builder' });
    expect(delegation['prompt']).toMatch(/^Artifact folder: REQ-0001-run-the-tests-locally\nPhase: 11-local-testing\n/);
    expect(delegation['prompt']).toContain('GATE REQUIREMENTS');
    expect(delegation['message']).toBe(
      'Delegate 11-local-testing to environment-builder (the Agent tool with subagent_type "environment-builder", or Codex\'s spawn_agent with agent_type "environment-builder"): this prompt, then the user\'s request, unchanged.',
    );

    const closed = await ok('gate_check');
    expect(closed).toMatchObject({ phase: PHASE, open: false });
    expect((closed['unmet'] as { requirement: string }[]).map((check) => check.requirement)).toEqual(['constitutional_validation', 'agent_delegation']);
    expect(closed['message']).toContain('`mcp__isdlc__constitution_record` (article, result, note)');
    expect(closed['message']).not.toContain('isdlc constitution');

    const early = await refused('phase_complete', { summary: 'too early' });
    expect(early).toMatch(/^the gate of 11-local-testing is closed, so the phase stays in progress: 1\. constitutional_validation: not started/);
    expect(early).toMatch(/Call `mcp__isdlc__gate_check` to see it again once that is done\.$/);
    expect(state()['phases'][PHASE].status).toBe('in_progress');

    expect(await refused('constitution_record', { article: 'II', result: 'compliant' })).toMatch(
      /^phase 11-local-testing does not require Article II; it requires Article VIII/,
    );
    expect(await refused('constitution_record', { article: 'VIII', result: 'fine' })).toMatch(/compliant or violation is required, got "fine"/);
    // A typo in a phase name is refused, naming the phases there are.
    expect(await refused('gate_check', { phase: '99-nope' })).toMatch(/^unknown phase "99-nope": the phases are .*11-local-testing/);
    const first = await ok('constitution_record', { article: 'viii', result: 'compliant', note: 'docs match the code' });
    expect(first).toMatchObject({ phase: PHASE, article: 'VIII', result: 'compliant', iteration: 1, remaining: ['IX'], completed: false, escalated: false });
    expect((await ok('constitution_record', { article: 'IX', result: 'compliant' }))['completed']).toBe(true);

    // The phase agent ran: what Claude Code reports after the delegation, through the registered hook.
    const checked = agentResult(project, { subagent_type: 'environment-builder', prompt: delegation['prompt'] }, 'Checked.');
    for (const call of subagentWrite(project, checked)) expect(runRegisteredHook(project, call).status).toBe(0);
    const delegated = runRegisteredHook(project, checked);
    expect(delegated.status, delegated.stderr).toBe(0);
    const open = await ok('gate_check');
    // Nothing ran the hook after the two constitution_record calls, so nobody is named as their recorder.
    expect(open).toMatchObject({
      open: true,
      message:
        'The gate of 11-local-testing is open (2 requirements met): - constitutional_validation: all 2 articles compliant; recorded by an unknown caller: VIII, IX ' +
        '- agent_delegation: environment-builder ran in this phase and did its work (a file changed with Write or Edit, or a test run, in this phase)',
    });

    const result = await client.callTool({ name: 'phase_complete', arguments: { summary: 'Local test environment checked' } });
    expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
    const completed = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, any>;
    expect(completed).toMatchObject({ phase: PHASE, next: '07-testing', reviewRequested: false });
    expect(completed['message']).toMatch(/its gate is open\. Next: `mcp__isdlc__phase_activate` starts 07-testing\.$/);

    // Who completed it: the PostToolUse of this very call, through the bundled hook .claude/settings.json registers.
    const after = runRegisteredHook(project, afterCall('phase_complete', result.content));
    expect(after.status, after.stderr).toBe(0);
    const record = state()['phases'][PHASE];
    expect(record).toMatchObject({
      status: 'completed',
      summary: 'Local test environment checked',
      gate_validation: { status: 'passed', passed_at: completed['at'], by: { session } },
    });
    expect((state()['history'] as Record<string, unknown>[]).find((line) => line['timestamp'] === completed['at'])).toMatchObject({
      action: `Completed phase ${PHASE}: Local test environment checked`,
      by: { session },
    });
    expect(record.constitutional_validation.article_results.VIII.by).toBeUndefined();

    // Completion moves the index on; the next phase becomes current when it is activated (BUG-0006).
    expect(await ok('status')).toMatchObject({
      workflow: { currentPhase: PHASE, currentPhaseIndex: 1 },
      message: 'Next: `mcp__isdlc__phase_activate` starts 07-testing, then delegate to integration-tester',
    });
    expect(await ok('escalations')).toEqual({ escalations: [], message: 'No open escalations.' });
    expect(await refused('workflow_finalize', {})).toMatch(
      /^the workflow cannot be finalized while phases are not completed: 07-testing\. Complete them \(`mcp__isdlc__phase_activate`, the work, `mcp__isdlc__phase_complete`\), or end the workflow with `mcp__isdlc__workflow_cancel` \(reason\)$/,
    );
    expect(await refused('phase_review', { decision: 'redo' })).toMatch(/^no phase is waiting for a review/);

    const cancelled = await ok('workflow_cancel', { reason: 'the user stopped it' });
    expect(cancelled).toMatchObject({ type: 'test-run', status: 'cancelled', metrics: { phases_completed: 1, phases_total: 2 } });
    expect(cancelled['message']).toMatch(/^Cancelled the test-run workflow: 1 of 2 phases completed/);
    expect(state()['active_workflow']).toBeNull();
  });

  it('clears escalations when asked, and reviews a supervised phase on the redo the user asked for', async () => {
    await ok('workflow_start', { type: 'test-run', supervised: true });
    const queued = state();
    queued['pending_escalations'] = [
      { type: 'gate_blocked', hook: 'gate-blocker', phase: PHASE, detail: 'agent_delegation', timestamp: new Date().toISOString() },
    ];
    writeFile(join(project, '.isdlc/state.json'), JSON.stringify(queued));
    const open = await ok('escalations');
    expect(open['escalations']).toHaveLength(1);
    expect(open['message']).toBe(
      '1 open; decide with the user: retry (`mcp__isdlc__escalations_clear`), skip (a person runs `isdlc phase skip`), or cancel (`mcp__isdlc__workflow_cancel`).',
    );
    const activated = await ok('phase_activate');
    expect(activated['message']).toContain('Open escalations (1); decide with the user: retry (`mcp__isdlc__escalations_clear`)');
    expect(await ok('escalations_clear')).toMatchObject({ cleared: [{ hook: 'gate-blocker' }] });
    expect(state()['pending_escalations']).toEqual([]);

    const supervised = state();
    supervised['active_workflow'].supervised_review = { phase: PHASE, status: 'awaiting', requested_at: new Date().toISOString() };
    writeFile(join(project, '.isdlc/state.json'), JSON.stringify(supervised));
    expect(await refused('phase_activate', {})).toMatch(
      /they run `isdlc phase review continue` themselves\), review \(`mcp__isdlc__phase_review` \(decision "review"\)\) or redo/,
    );
    const redo = await ok('phase_review', { decision: 'redo', note: 'the user wants another look' });
    expect(redo).toMatchObject({ phase: PHASE, decision: 'redo', retries: 1 });
    expect(state()['active_workflow'].supervised_review).toMatchObject({ status: 'redo', decided_by: 'agent', note: 'the user wants another look' });
    await ok('workflow_cancel', { reason: 'done testing' });
  });

  it("with independent_review, the worker's own checks (named by their calls' PostToolUse) keep the gate closed; another agent's open it", async () => {
    const config = JSON.parse(readFileSync(join(REPO, 'src/config/defaults/iteration-requirements.json'), 'utf8')) as Record<string, any>;
    config['workflow_overrides']['test-run'][PHASE] = { constitutional_validation: { independent_review: true } };
    const configFile = join(project, '.isdlc/config/iteration-requirements.json');
    writeFile(configFile, JSON.stringify(config));
    try {
      await ok('workflow_start', { type: 'test-run' });
      await ok('phase_activate');
      const subagent = recorded332In('post-mcp-constitution-record-subagent.json', project);
      /** Records both articles through the server, each call followed by its PostToolUse from inside `agent`. */
      const recordAs = async (agent: { agent_id: string; agent_type: string }): Promise<string> => {
        let message = '';
        for (const article of ['VIII', 'IX']) {
          const result = await client.callTool({ name: 'constitution_record', arguments: { article, result: 'compliant' } });
          expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
          message = String(JSON.parse((result.content as { text: string }[])[0]!.text)['message']);
          const after = runRegisteredHook(project, { ...subagent, session_id: session, ...agent, tool_response: result.content });
          expect(after.status, after.stderr).toBe(0);
        }
        return message;
      };
      // The answer to the last check says whose checks the gate counts.
      expect(await recordAs({ agent_id: 'a11worker', agent_type: 'environment-builder' })).toMatch(
        /Every article required in 11-local-testing is compliant\. Its gate counts a check only when an agent other than environment-builder recorded it \(`mcp__isdlc__gate_check` says who did\)\.$/,
      );
      const closed = await ok('gate_check');
      expect(closed['message']).toContain(
        "constitutional_validation: this phase needs an independent review of its articles: Article VIII: compliant, recorded by environment-builder (agent a11worker) (the phase's worker): needs a review by an agent other than environment-builder",
      );
      await recordAs({ agent_id: 'a11review', agent_type: 'constitution-reviewer' });
      const reviewed = ((await ok('gate_check'))['checks'] as { requirement: string; met: boolean; detail: string }[]).find(
        (check) => check.requirement === 'constitutional_validation',
      );
      expect(reviewed).toEqual({
        requirement: 'constitutional_validation',
        met: true,
        detail: 'all 2 articles compliant; recorded by constitution-reviewer (agent a11review): VIII, IX',
      });
      expect(state()['phases'][PHASE].constitutional_validation.history.map((entry: Record<string, any>) => entry['by'].agent_id)).toEqual([
        'a11worker',
        'a11worker',
        'a11review',
        'a11review',
      ]);
    } finally {
      await ok('workflow_cancel', { reason: 'done testing' });
      rmSync(configFile);
    }
  });

  it('refuses a project that is not there, saying what is', async () => {
    expect(await refused('status', { project: 'web' })).toBe(
      'project "web" is not one of .isdlc/monorepo.json\'s projects: this is not a monorepo, leave project out',
    );
  });

  it("loop_start makes the task and its loop, with the agent's defaults; its marker binds the loop to the caller", async () => {
    const rule = `${process.execPath} -e "process.exit(1)"`;
    const result = await client.callTool({ name: 'loop_start', arguments: { prompt: 'Write started.txt', rules: [rule], maxIterations: 3 } });
    expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
    const started = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, any>;
    expect(started).toMatchObject({ iterationNumber: 1, maxIterations: 3, rules: [rule] });
    expect(started['message']).toContain(`[isdlc-loop ${started['loopId']} awaiting-session]`);
    expect(decisionOf(runRegisteredHook(project, afterCall('loop_start', result.content))).context).toMatch(/is now bound to this session/);
    expect(await ok('iteration_status', { taskId: started['taskId'] })).toMatchObject({ loopId: started['loopId'], status: 'active', bound: true });
    expect(await ok('task_get', { id: started['taskId'] })).toMatchObject({ task: { title: 'Write started.txt', description: 'Write started.txt' } });

    const developer = await ok('loop_start', { prompt: 'Make the tests pass', agent: 'software-developer' });
    expect(developer).toMatchObject({ rules: ['tests_pass'], maxIterations: 10 });
    expect(await refused('loop_start', { prompt: 'x', agent: 'requirements-analyst' })).toMatch(/^no defaults for agent "requirements-analyst"/);
    expect(await refused('loop_start', { prompt: '   ' })).toMatch(/^say what the task is/);
  });
});

describe('the server as .mcp.json registers it', () => {
  it('starts the way Claude Code starts it: CLAUDE_PROJECT_DIR expanded and given, no --dir, launched from elsewhere', async () => {
    const dir = initedProject('isdlc-mcp-registered-');
    const registered = (JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers['isdlc']!;
    const expand = (text: string): string => text.replace(/\$\{CLAUDE_PROJECT_DIR:-[^}]*\}/g, dir);
    const env = Object.fromEntries(Object.entries(cleanEnv({ CLAUDE_PROJECT_DIR: dir })).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({
      command: registered.command === 'node' ? process.execPath : registered.command,
      args: registered.args.map(expand),
      cwd: tempDir('isdlc-mcp-launch-'),
      env,
      stderr: 'pipe',
    });
    const other = new Client({ name: 'isdlc-test', version: '1.0.0' });
    await other.connect(transport);
    try {
      const created = await other.callTool({ name: 'task_create', arguments: { title: 'Registered' } });
      expect(created.isError).not.toBe(true);
      expect(existsSync(join(dir, '.isdlc/loop.db'))).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('a loop started through the MCP tools is held by the registered Stop hook', () => {
  it('binds to the session from the PostToolUse of iteration_start, then validates each Stop', async () => {
    const task = await ok('task_create', { title: 'Write ready.txt' });
    const rule = { type: 'file_exists', name: 'ready-file', path: 'ready.txt' };
    const result = await client.callTool({ name: 'iteration_start', arguments: { taskId: task['id'], validationRules: [rule] } });
    const session = 'b5b0c1de-0000-4000-8000-00000000mcp1';
    // What Claude Code sends after the tool call: the tool's content blocks as tool_response.
    const post = {
      ...fixture('post-mcp-legacy.json'),
      session_id: session,
      cwd: project,
      tool_name: 'mcp__isdlc__iteration_start',
      tool_input: { taskId: task['id'] },
      tool_response: result.content,
    };
    const bound = decisionOf(runRegisteredHook(project, post));
    expect(bound.context).toMatch(/is now bound to this session/);

    const stopping = (message: string) =>
      decisionOf(runRegisteredHook(project, { ...fixture('stop.json'), session_id: session, cwd: project, last_assistant_message: message }));
    const held = stopping('Done, I think.\n<promise>COMPLETE</promise>');
    expect(held.kind).toBe('block');
    expect(held.reason).toMatch(/ready-file/);
    writeFile(join(project, 'ready.txt'), 'ready\n');
    expect(stopping('ready.txt is there.\n<promise>COMPLETE</promise>').kind).toBe('allow');
    expect(await ok('iteration_status', { taskId: task['id'] })).toMatchObject({ status: 'completed', iteration: 2, bound: true });
  });
});
