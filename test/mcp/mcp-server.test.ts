// `isdlc mcp` as an MCP client sees it: a real stdio session with the SDK's client against the installed
// bundle (`.isdlc/bin/isdlc.cjs mcp`), started from a directory that is neither the package nor the project
// (the old iteration-loop server failed whenever it was not started from its own package root).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, decisionOf, fixture, initedProject, tempDir, writeFile } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const TOOLS = [
  'checkpoint_create',
  'checkpoint_resume',
  'iteration_complete',
  'iteration_next',
  'iteration_start',
  'iteration_status',
  'iteration_validate',
  'task_create',
  'task_get',
  'task_update',
  'work_product_store',
];
/** Bytes of tool schema every agent session pays for; the old server's 55 tools cost about 6,400 tokens. */
const TOOLS_LIST_BUDGET = 6_000;

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

  it('lists exactly the loop tools, within the schema budget', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    const bytes = Buffer.byteLength(JSON.stringify(tools));
    console.log(`isdlc mcp tools/list: ${tools.length} tools, ${bytes} bytes of JSON`);
    expect(bytes).toBeLessThan(TOOLS_LIST_BUDGET);
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
    expect(status).toMatchObject({ taskId: task['id'], loopId: started['loopId'], status: 'completed', iteration: 2, maxIterations: 5, bound: false, failing: [] });
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
    await ok('checkpoint_create', { taskId: task['id'], agentContext: { step: 'drafting', files: ['notes.md'] }, draftContent: '# Notes', draftType: 'markdown' });
    const resumed = await ok('checkpoint_resume', { taskId: task['id'] });
    expect(resumed).toMatchObject({ iterationNumber: 1, agentContext: { step: 'drafting', files: ['notes.md'] }, draft: { type: 'markdown', content: '# Notes' } });
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

describe('the server as .mcp.json registers it', () => {
  it('starts the way Claude Code starts it: CLAUDE_PROJECT_DIR expanded and given, no --dir, launched from elsewhere', async () => {
    const dir = initedProject('isdlc-mcp-registered-');
    const registered = (JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers['isdlc']!;
    const expand = (text: string): string => text.replace(/\$\{CLAUDE_PROJECT_DIR:-[^}]*\}/g, dir);
    const env = Object.fromEntries(Object.entries(cleanEnv({ CLAUDE_PROJECT_DIR: dir })).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({ command: registered.command === 'node' ? process.execPath : registered.command, args: registered.args.map(expand), cwd: tempDir('isdlc-mcp-launch-'), env, stderr: 'pipe' });
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
    const post = { ...fixture('post-mcp-legacy.json'), session_id: session, cwd: project, tool_name: 'mcp__isdlc__iteration_start', tool_input: { taskId: task['id'] }, tool_response: result.content };
    const bound = decisionOf(runRegisteredHook(project, post));
    expect(bound.context).toMatch(/is now bound to this session/);

    const stopping = (message: string) => decisionOf(runRegisteredHook(project, { ...fixture('stop.json'), session_id: session, cwd: project, last_assistant_message: message }));
    const held = stopping('Done, I think.\n<promise>COMPLETE</promise>');
    expect(held.kind).toBe('block');
    expect(held.reason).toMatch(/ready-file/);
    writeFile(join(project, 'ready.txt'), 'ready\n');
    expect(stopping('ready.txt is there.\n<promise>COMPLETE</promise>').kind).toBe('allow');
    expect(await ok('iteration_status', { taskId: task['id'] })).toMatchObject({ status: 'completed', iteration: 2, bound: true });
  });
});
