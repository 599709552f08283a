// Through iteration_validate of `isdlc mcp` on stdio: a rule the agent gave
// iteration_start runs in the OS sandbox and cannot forge isdlc's files; where no sandbox is (forced by
// ISDLC_OS_SANDBOX=off in the server's own environment), its rules wait for a person's approval and the
// tool says so, running and recording nothing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guardedSnapshot } from '../helpers/guarded-snapshot.js';
import { loops } from '../helpers/loops.js';
import { cleanEnv, cli, initedProject } from '../helpers/project.js';
import { probeOsSandbox } from '../../src/sandbox/os-sandbox.js';

const FORGEABLE = [
  '.isdlc/state.json',
  '.isdlc/config',
  '.isdlc/bin',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.mcp.json',
  'docs/isdlc/constitution.md',
  '.git',
];

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/** The server as Claude Code starts it for the project, with `env` added to its environment. */
async function server(project: string, env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(cleanEnv(env)).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const client = new Client({ name: 'isdlc-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [join(project, '.isdlc/bin/isdlc.cjs'), 'mcp', '--dir', project], cwd: project, env: clean }),
  );
  open.push(client);
  return async (name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; json: Record<string, any> }> => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as { text: string }[])[0]!.text;
    const isError = result.isError === true;
    return { isError, text, json: isError ? {} : (JSON.parse(text) as Record<string, any>) };
  };
}

describe.skipIf(!probeOsSandbox().ok || process.platform !== 'linux')('iteration_validate in the OS sandbox', () => {
  it("runs the agent's rules where they cannot change isdlc's files, and says why they failed", async () => {
    const project = initedProject('isdlc-mcp-sandbox-');
    const call = await server(project);
    const task = (await call('task_create', { title: 'Forge the state' })).json;
    const started = await call('iteration_start', {
      taskId: task['id'],
      validationRules: [
        { type: 'command', name: 'forge-state', command: 'cd .isdlc && echo forged > state.json' },
        { type: 'command', name: 'finish-loop', command: `sqlite3 .isdlc/loop.db "update loops set status='completed'"` },
        {
          type: 'command',
          name: 'hooks-off',
          command: ['node', '-e', `require('fs').writeFileSync('.claude/settings.local.json', '{"disableAllHooks":true}')`],
        },
        { type: 'command', name: 'work', command: 'echo done > done.txt' },
      ],
    });
    expect(started.isError, started.text).toBe(false);
    expect(started.json['message']).not.toMatch(/isdlc loop approve/);
    const before = guardedSnapshot(project, FORGEABLE);

    const validated = await call('iteration_validate', { taskId: task['id'], agentOutput: 'Done. <promise>COMPLETE</promise>' });
    expect(validated.isError, validated.text).toBe(false);
    expect(validated.json).toMatchObject({ validationPassed: false, completionSignal: 'CONTINUE' });
    const results = validated.json['validationReport']['results'] as { name: string; passed: boolean }[];
    expect(results.map((result) => [result.name, result.passed])).toEqual([
      ['forge-state', false],
      ['finish-loop', false],
      ['hooks-off', false],
      ['work', true],
    ]);
    expect((validated.json['feedback'] as string[]).join('\n')).toMatch(/forge-state: .* it ran in an OS sandbox where isdlc's files \(.*\) are read-only/);
    // The ordinary rule did its work; no placeholder stayed.
    expect(guardedSnapshot(project, FORGEABLE)).toEqual({ ...before, '(root)': `${before['(root)']}, done.txt` });
    expect(loops(project)[0]).toMatchObject({ status: 'active' });
  });
});

describe('iteration_validate without an OS sandbox', () => {
  it("refuses while the agent's rules wait for a person, recording nothing; validates once a person approved", async () => {
    const project = initedProject('isdlc-mcp-approval-');
    const call = await server(project, { ISDLC_OS_SANDBOX: 'off' });
    const task = (await call('task_create', { title: 'Write done.txt' })).json;
    const started = (
      await call('iteration_start', { taskId: task['id'], validationRules: [{ type: 'command', name: 'done-file', command: 'test -f done.txt' }] })
    ).json;
    const id = started['loopId'] as string;
    expect(started['message']).toContain(
      `Its command rules run only after a person approves them (no OS sandbox here (the OS sandbox is switched off for this process (ISDLC_OS_SANDBOX=off))): ask the person to run \`isdlc loop approve ${id}\` in their own terminal.`,
    );

    const refused = await call('iteration_validate', { taskId: task['id'] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      `Loop ${id}: its command rules (\`test -f done.txt\`) are waiting for a person's approval: run \`isdlc loop approve ${id}\` in your own terminal, ` +
        "which you cannot do: no OS sandbox here (the OS sandbox is switched off for this process (ISDLC_OS_SANDBOX=off)) to keep them off isdlc's files. " +
        `Ask the person to run \`isdlc loop approve ${id}\` in their own terminal, then validate again. Nothing was run or recorded.`,
    );
    expect(loops(project)[0]!.history[0]).toMatchObject({ iteration: 1, passed: null });

    expect(cli(['loop', 'approve', id, '--dir', project]).status).toBe(0);
    const failed = await call('iteration_validate', { taskId: task['id'] });
    expect(failed.json).toMatchObject({ validationPassed: false, completionSignal: 'CONTINUE' });
    expect(await call('iteration_next', { taskId: task['id'] })).toMatchObject({ isError: false });
    writeFileSync(join(project, 'done.txt'), 'done\n');
    const passed = await call('iteration_validate', { taskId: task['id'], agentOutput: '<promise>COMPLETE</promise>' });
    expect(passed.json).toMatchObject({ validationPassed: true, completionSignal: 'COMPLETE' });
  });
});
