// Iteration loops with the real Claude Code: a loop the agent starts holds that session's turn while
// its rule fails, whatever the agent claims, and releases it when the rule passes and the agent says so;
// another session is never held. The MCP tools are listed and work through Claude Code's own client.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MockApi, type TurnContext } from './harness/mock-api.js';
import { call, say, write } from './harness/script.js';
import { activity, e2eProject, isdlc, runClaude, type E2eProject } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

const TEST_JS =
  "const add = require('./add.js');\n" +
  "if (add(1, 2) !== 3) { console.error('FAIL add(1, 2) should be 3, got ' + add(1, 2)); process.exit(1); }\n" +
  "console.log('1 passing');\n";
const BROKEN = 'module.exports = (a, b) => a - b;\n';
const FIXED = 'module.exports = (a, b) => a + b;\n';

function projectWithTests(): E2eProject {
  return e2eProject({
    files: {
      'package.json': JSON.stringify({ name: 'sum', version: '1.0.0', private: true, scripts: { test: 'node test.js' } }, null, 2),
      'test.js': TEST_JS,
      'add.js': BROKEN,
    },
  });
}

interface LoopJson {
  id: string;
  status: string;
  iteration: number;
  sessionId: string | null;
  history: { iteration: number; passed: boolean | null; signal: string | null }[];
}

function loops(project: E2eProject): LoopJson[] {
  return JSON.parse(isdlc(project, ['loop', 'status', '--all', '--json'])) as LoopJson[];
}

/** The text Claude Code gave the model after a held Stop, taken from the next request. */
function heldReasonIn(request: MockApi['requests'][number]): string {
  return MockApi.shown(request);
}

describe('an iteration loop under the real Claude Code', () => {
  test('a false COMPLETE is held with a short reason; the fixed code and a true COMPLETE end the turn', async () => {
    const project = projectWithTests();
    const run = await runClaude(project, {
      prompt: 'Make add() add.',
      scripts: [
        {
          name: 'main',
          turns: [
            // The agent's shell cannot write .isdlc/ in the sandbox: loops start through isdlc's MCP tool.
            call({ name: 'ToolSearch', input: { query: 'select:mcp__isdlc__loop_start' } }),
            call({ name: 'mcp__isdlc__loop_start', input: { prompt: 'Make add() add', rules: ['npm test'], maxIterations: 5 } }),
            say('It works now.\n\n<promise>COMPLETE</promise>'),
            call(write(join(project.dir, 'add.js'), FIXED)),
            say('add() adds; npm test passes.\n\n<promise>COMPLETE</promise>'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [loop] = loops(project);
    expect(loop).toMatchObject({ status: 'completed', iteration: 2, sessionId: run.sessionId });
    expect(loop!.history.map((entry) => [entry.iteration, entry.passed])).toEqual([
      [1, false],
      [2, true],
    ]);

    // The request after the held stop carries the reason; it is short and says what to do first.
    const stops = activity(project).filter((entry) => entry.event === 'Stop');
    expect(stops.map((entry) => entry.decision)).toEqual(['block', 'allow']);
    const reason = String(stops[0]!.reason);
    expect(reason.length).toBeLessThanOrEqual(320);
    expect(reason).toContain('npm test');
    expect(reason).toMatch(/isdlc loop status/);
    const afterHold = run.api.conversation('main')[3]!;
    expect(heldReasonIn(afterHold)).toContain(reason.slice(0, 80));
    // The person was told the loop completed.
    const lastStop = run.hookResponses.filter((response) => response.hook_event === 'Stop').at(-1)!;
    expect(lastStop.stdout).toMatch(/completed at iteration 2/);
  });

  test('a live loop bound to one session does not hold another; it holds its own', async () => {
    const project = projectWithTests();
    const owner = randomUUID();
    isdlc(project, ['loop', 'start', '--session', owner, '--rule', 'npm test', 'Make add() add']);

    const other = await runClaude(project, { prompt: 'Something else.', scripts: [{ name: 'main', turns: [say('Done with something else.')] }] });
    expect(other.exitCode, other.stderr).toBe(0);
    expect(other.api.conversation('main')).toHaveLength(1);
    expect(
      activity(project)
        .filter((entry) => entry.event === 'Stop' && entry.session === other.sessionId)
        .map((entry) => entry.decision),
    ).toEqual(['allow']);

    const own = await runClaude(project, {
      prompt: 'Carry on.',
      args: ['--session-id', owner],
      scripts: [
        { name: 'main', turns: [say('Nothing to do.'), call(write(join(project.dir, 'add.js'), FIXED)), say('Fixed.\n\n<promise>COMPLETE</promise>')] },
      ],
    });
    expect(own.exitCode, own.stderr).toBe(0);
    expect(own.sessionId).toBe(owner);
    expect(own.api.conversation('main')).toHaveLength(3);
    expect(loops(project)[0]).toMatchObject({ status: 'completed', sessionId: owner });
  });

  test('the MCP tools are listed and work: a task and a loop made through them hold the turn until the rule passes', async () => {
    const project = projectWithTests();
    const taskIdFrom = ({ api }: TurnContext): string => {
      const created = api.toolResult(api.toolUseIds('mcp__isdlc__task_create')[0]!);
      return (JSON.parse(created!.text) as { id: string }).id;
    };
    const run = await runClaude(project, {
      prompt: 'Use the isdlc tools.',
      scripts: [
        {
          name: 'main',
          turns: [
            // 2.1.332 defers MCP tools behind a tool search: load their schemas first.
            call({ name: 'ToolSearch', input: { query: 'select:mcp__isdlc__task_create,mcp__isdlc__iteration_start,mcp__isdlc__iteration_status' } }),
            call({ name: 'mcp__isdlc__task_create', input: { title: 'Make add() add' } }),
            (context) =>
              call({
                name: 'mcp__isdlc__iteration_start',
                input: { taskId: taskIdFrom(context), validationRules: [{ type: 'command', command: 'npm test' }], maxIterations: 4 },
              }),
            (context) => call({ name: 'mcp__isdlc__iteration_status', input: { taskId: taskIdFrom(context) } }),
            say('Done.\n\n<promise>COMPLETE</promise>'),
            call(write(join(project.dir, 'add.js'), FIXED)),
            say('Fixed.\n\n<promise>COMPLETE</promise>'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const init = run.events.find((event) => event.type === 'system' && event.subtype === 'init')!;
    expect(init['mcp_servers']).toContainEqual(expect.objectContaining({ name: 'isdlc', status: 'connected' }));
    const tools = init['tools'] as string[];
    for (const name of ['task_create', 'iteration_start', 'iteration_validate', 'iteration_status', 'checkpoint_create'])
      expect(tools).toContain(`mcp__isdlc__${name}`);
    for (const sent of run.api.calls.filter((sent) => sent.name.startsWith('mcp__isdlc__'))) {
      expect(run.api.toolResult(sent.id)?.isError, `${sent.name}: ${run.api.toolResult(sent.id)?.text}`).toBe(false);
    }
    // Bound to this session by the PostToolUse hook of iteration_start, before the next tool ran.
    const status = JSON.parse(run.api.toolResult(run.api.toolUseIds('mcp__isdlc__iteration_status')[0]!)!.text) as Record<string, unknown>;
    expect(status).toMatchObject({ status: 'active', iteration: 1, maxIterations: 4, bound: true });
    expect(loops(project)[0]).toMatchObject({ status: 'completed', iteration: 2, sessionId: run.sessionId });
  });

  test("a rule that writes isdlc's files runs in isdlc's own sandbox: at the Stop and through iteration_validate it fails, and nothing changes", async () => {
    const project = projectWithTests();
    const stateFile = join(project.dir, '.isdlc', 'state.json');
    const before = readFileSync(stateFile, 'utf8');
    // The Stop hook and the MCP server run outside Claude Code's sandbox: the rule must not be a way out.
    const FORGE = `sh -c "echo forged > .isdlc/state.json"`;
    const taskId = ({ api }: TurnContext): string =>
      (JSON.parse(api.toolResult(api.toolUseIds('mcp__isdlc__loop_start')[0]!)!.text) as { taskId: string }).taskId;
    const run = await runClaude(project, {
      prompt: 'Keep the state as I like it.',
      scripts: [
        {
          name: 'main',
          turns: [
            call({ name: 'ToolSearch', input: { query: 'select:mcp__isdlc__loop_start,mcp__isdlc__iteration_validate' } }),
            call({ name: 'mcp__isdlc__loop_start', input: { prompt: 'Keep the state as I like it', rules: [FORGE], maxIterations: 3 } }),
            (context) => call({ name: 'mcp__isdlc__iteration_validate', input: { taskId: taskId(context) } }),
            say('Done.\n\n<promise>COMPLETE</promise>'),
            say('I cannot change that file.\n\n<promise>BLOCKED</promise> isdlc keeps it read-only.'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const validated = JSON.parse(run.api.toolResult(run.api.toolUseIds('mcp__isdlc__iteration_validate')[0]!)!.text) as {
      validationPassed: boolean;
      validationReport: { results: { message: string }[] };
    };
    expect(validated.validationPassed).toBe(false);
    expect(validated.validationReport.results[0]!.message).toContain("OS sandbox where isdlc's files");
    const stops = activity(project).filter((entry) => entry.event === 'Stop');
    expect(stops[0]).toMatchObject({ decision: 'block' });
    expect(String(stops[0]!.reason)).toContain("isdlc's files: read-only");
    expect(readFileSync(stateFile, 'utf8')).toBe(before);
    expect(loops(project)[0]).toMatchObject({ status: 'blocked' });
  });

  test("where no OS sandbox can hold a rule, the agent's rule waits for a person: nothing runs until `isdlc loop approve`", async () => {
    const project = projectWithTests();
    const stateFile = join(project.dir, '.isdlc', 'state.json');
    const before = readFileSync(stateFile, 'utf8');
    const run = await runClaude(project, {
      prompt: 'Keep the state as I like it.',
      // Read by the Stop hook and the MCP server, which Claude Code starts; the agent's shell cannot set it for them.
      env: { ISDLC_OS_SANDBOX: 'off' },
      scripts: [
        {
          name: 'main',
          turns: [
            call({ name: 'ToolSearch', input: { query: 'select:mcp__isdlc__loop_start' } }),
            call({ name: 'mcp__isdlc__loop_start', input: { prompt: 'Keep the state as I like it', rules: ['sh -c "echo forged > .isdlc/state.json"'] } }),
            say('Done.\n\n<promise>COMPLETE</promise>'),
          ],
        },
      ],
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const started = run.api.toolResult(run.api.toolUseIds('mcp__isdlc__loop_start')[0]!)!.text;
    expect(started).toContain('isdlc loop approve');
    // The turn ended (nothing ran to hold it), the person is told what to run, and the rule never ran.
    expect(run.api.conversation('main')).toHaveLength(3);
    const stop = run.hookResponses.filter((response) => response.hook_event === 'Stop').at(-1)!;
    expect(stop.stdout).toContain('isdlc loop approve');
    expect(readFileSync(stateFile, 'utf8')).toBe(before);
    expect(loops(project)[0]).toMatchObject({ status: 'active', iteration: 1 });
  });
});
