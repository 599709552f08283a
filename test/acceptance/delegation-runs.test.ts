// A phase's delegation counts when its agent's run ended having made a tool call, and the phase cannot be
// completed while that agent still runs. Driven through the hook command `isdlc init` registered (payloads
// recorded from Claude Code 2.1.332, moved into the test's project), the CLI and the MCP server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refused, satisfyGate, send, stateOf } from '../helpers/handshake.js';
import { agentResult, bashCall, bashPassed, isdlcToolResult, recorded332In, taskNotification, writeCall, writeDone } from '../helpers/payloads.js';
import { cleanEnv, cli, initedProject, tempDir, writeJson, writePlan } from '../helpers/project.js';
import { workflowState } from '../helpers/states.js';
import { givePassingSuite } from '../helpers/test-suite.js';

type State = Record<string, any>;
const IMPL = '06-implementation';

function implementationProject(): string {
  const dir = initedProject('isdlc-runs-');
  writeJson(join(dir, '.isdlc/state.json'), workflowState('feature', IMPL));
  givePassingSuite(dir);
  writePlan(dir);
  return dir;
}

/** The background launch Claude Code 2.1.332 reports, as a delegation to the phase's agent. */
function launch(dir: string): { payload: State; agentId: string } {
  const payload = recorded332In('post-agent-async.json', dir);
  payload['tool_input'] = {
    ...(payload['tool_input'] as State),
    subagent_type: 'software-developer',
    description: 'Implement CSV export',
    prompt: 'Implement the CSV export.',
  };
  return { payload, agentId: String((payload['tool_response'] as State)['agentId']) };
}

/** A tool call the subagent makes: Claude Code adds its id and type to the payload. */
const subagentCall = (dir: string, agentId: string) => ({ ...bashCall(dir, 'npm test'), agent_id: agentId, agent_type: 'software-developer' });
/** The run's Write came back: the change that is an implementation phase's work. */
const subagentWrote = (dir: string, agentId: string) => ({
  ...writeDone(dir, join(dir, 'src/sum.js'), 'module.exports = (a, b) => a + b;\n'),
  agent_id: agentId,
  agent_type: 'software-developer',
});
const subagentEnd = (dir: string) => recorded332In('subagent-stop-background.json', dir);

function delegationCheck(dir: string): { met: boolean; detail: string; action?: string } {
  const run = cli(['gate', 'check', '--json'], { cwd: dir });
  const gate = JSON.parse(run.stdout) as { checks: { requirement: string; met: boolean; detail: string; action?: string }[] };
  const check = gate.checks.find((c) => c.requirement === 'agent_delegation');
  expect(check, run.stdout).toBeDefined();
  return check!;
}

describe('a phase agent run, from its launch to its end', () => {
  it('a background run counts once it changed a file and ended; until then the gate says it runs and phase complete is refused', () => {
    const dir = implementationProject();
    const { payload, agentId } = launch(dir);
    expect(send(dir, payload).kind).toBe('allow');
    expect(delegationCheck(dir)).toMatchObject({
      met: false,
      detail: expect.stringMatching(/^software-developer is still running since \d\d:\d\d UTC \(0 min\)$/),
    });
    satisfyGateButDelegation(dir);
    const said = refused(dir, ['phase', 'complete', '--summary', 'done']);
    expect(said).toMatch(/06-implementation cannot be completed while its agent is still running: software-developer \(running since \d\d:\d\d UTC, 0 min\)/);

    // Its first tool call is recorded; its later ones write nothing.
    expect(send(dir, subagentCall(dir, agentId)).kind).toBe('allow');
    const afterFirst = stateOf(dir);
    expect(afterFirst['skill_usage_log'][0]).toMatchObject({ agent_id: agentId, outcome: 'launched', first_tool_at: expect.any(String) });
    expect(send(dir, subagentCall(dir, agentId)).kind).toBe('allow');
    expect(stateOf(dir)['state_version']).toBe(afterFirst['state_version']);
    expect(delegationCheck(dir).detail).toMatch(/still running/);
    expect(send(dir, subagentWrote(dir, agentId)).kind).toBe('allow');
    expect(stateOf(dir)['skill_usage_log'][0]['work_in']).toEqual({ [IMPL]: ['change'] });

    expect(send(dir, subagentEnd(dir)).kind).toBe('allow');
    expect(delegationCheck(dir)).toEqual({
      requirement: 'agent_delegation',
      met: true,
      detail: 'software-developer ran in this phase and did its work (a file changed with Write or Edit in this phase)',
    });
    const done = JSON.parse(cli(['phase', 'complete', '--summary', 'done', '--json'], { cwd: dir }).stdout) as State;
    expect(done['phase']).toBe(IMPL);
  });

  it("a run that only gestured does not count: `true`, a test run, isdlc's own tools, a call the hooks denied", () => {
    const dir = implementationProject();
    const { payload, agentId } = launch(dir);
    send(dir, payload);
    const inside = (event: State) => ({ ...event, agent_id: agentId, agent_type: 'software-developer' });
    send(dir, inside(bashCall(dir, 'true')));
    send(dir, inside(bashPassed(dir, 'true', '')));
    send(dir, inside(bashPassed(dir, 'npm test', '# pass 1\n# fail 0\n')));
    send(dir, inside(isdlcToolResult(dir, 'status', { ok: true }, 'subagent')));
    // A write isdlc denies has no result: the host sends none.
    expect(send(dir, inside(writeCall(dir, join(dir, '.isdlc/state.json'), '{}'))).kind).toBe('deny');
    send(dir, subagentEnd(dir));
    expect(delegationCheck(dir)).toMatchObject({
      met: false,
      detail: "software-developer ran but did none of this phase's work (a file changed with Write or Edit in this phase)",
    });
  });

  it('work done while another phase was active does not count for the agent’s own phase', () => {
    const dir = implementationProject();
    const { payload, agentId } = launch(dir);
    send(dir, payload);
    const state = stateOf(dir);
    // The same run, its write seen while the workflow was still in requirements.
    writeJson(join(dir, '.isdlc/state.json'), {
      ...state,
      current_phase: '01-requirements',
      active_workflow: { ...state['active_workflow'], current_phase: '01-requirements' },
    });
    send(dir, subagentWrote(dir, agentId));
    expect(stateOf(dir)['skill_usage_log'][0]['work_in']).toEqual({ '01-requirements': ['change'] });
    writeJson(join(dir, '.isdlc/state.json'), {
      ...stateOf(dir),
      current_phase: IMPL,
      active_workflow: { ...stateOf(dir)['active_workflow'], current_phase: IMPL },
    });
    send(dir, subagentEnd(dir));
    expect(delegationCheck(dir)).toMatchObject({ met: false, detail: expect.stringMatching(/did none of this phase's work/) });
  });

  it('a run that made no tool call does not count, even after the host reports its end', () => {
    const dir = implementationProject();
    const { payload } = launch(dir);
    send(dir, payload);
    send(dir, subagentEnd(dir));
    const check = delegationCheck(dir);
    expect(check).toMatchObject({
      met: false,
      detail: "software-developer ran but did none of this phase's work (a file changed with Write or Edit in this phase)",
    });
    expect(check.action).toMatch(/delegate the phase's work to software-developer again/);
    send(dir, taskNotification(dir, 'OK'));
    expect(stateOf(dir)['skill_usage_log'][0]).toMatchObject({ outcome: 'completed', tool_calls: 0 });
    expect(delegationCheck(dir).met).toBe(false);
    satisfyGateButDelegation(dir);
    expect(refused(dir, ['phase', 'complete'])).toContain("software-developer ran but did none of this phase's work");
  });

  it('a synchronous run: its tool calls come before its result, which completes the same entry', () => {
    const dir = implementationProject();
    const call = { subagent_type: 'software-developer', description: 'Implement CSV export' };
    const result = agentResult(dir, call, 'Implemented.');
    const agentId = String((result['tool_response'] as State)['agentId']);
    send(dir, subagentCall(dir, agentId));
    expect(stateOf(dir)['skill_usage_log']).toEqual([expect.objectContaining({ agent_id: agentId, outcome: 'running', agent_phase: IMPL })]);
    send(dir, subagentWrote(dir, agentId));
    // Running, seen only through its tool call: phase complete waits for it too.
    satisfyGateButDelegation(dir);
    expect(refused(dir, ['phase', 'complete'])).toContain('software-developer (running since');
    send(dir, { ...subagentEnd(dir), agent_id: agentId });
    send(dir, result);
    const log = stateOf(dir)['skill_usage_log'] as State[];
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      agent_id: agentId,
      outcome: 'completed',
      description: 'Implement CSV export',
      tool_calls: 1,
      first_tool_at: expect.any(String),
    });
    expect(log[0]!['launch_pending']).toBeUndefined();
    expect(delegationCheck(dir).met).toBe(true);

    // A second run starts after the first did the work: the delegation is met, and gate check still says
    // what phase complete would refuse for.
    send(dir, launch(dir).payload);
    expect(delegationCheck(dir).met).toBe(true);
    const check = cli(['gate', 'check', '--json'], { cwd: dir });
    expect(check.status).toBe(1);
    expect((JSON.parse(check.stdout) as { unmet: unknown[] }).unmet).toEqual([
      expect.objectContaining({
        requirement: 'phase_agent_finished',
        detail: expect.stringMatching(/^still running: software-developer \(since \d\d:\d\d UTC/),
      }),
    ]);
    expect(refused(dir, ['phase', 'complete'])).toContain('cannot be completed while its agent is still running');
  });

  it("the MCP tool phase_complete is refused the same way while the phase's agent runs", async () => {
    const dir = implementationProject();
    send(dir, launch(dir).payload);
    satisfyGateButDelegation(dir);
    const env = Object.fromEntries(Object.entries(cleanEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(dir, '.isdlc/bin/isdlc.cjs'), 'mcp', '--dir', dir],
      cwd: tempDir('isdlc-runs-cwd-'),
      env,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'isdlc-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'phase_complete', arguments: { summary: 'done' } });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(
        /cannot be completed while its agent is still running: software-developer \(running since/,
      );
      expect(stateOf(dir)['phases'][IMPL].status).toBe('in_progress');
    } finally {
      await client.close();
    }
  });
});

/** Everything the implementation gate asks for but the delegation (tests, articles, artifacts). */
function satisfyGateButDelegation(dir: string): void {
  const before = structuredClone(stateOf(dir)['skill_usage_log']);
  try {
    satisfyGate(dir, IMPL, { type: 'feature' });
  } catch {
    // It stays closed on the delegation, which is the point.
  }
  // satisfyGate delegates when the delegation is unmet; this test's runs are its own.
  const state = stateOf(dir);
  state['skill_usage_log'] = before;
  writeJson(join(dir, '.isdlc/state.json'), state);
}
