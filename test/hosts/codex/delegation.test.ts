// A phase agent's run under Codex, through `isdlc hook --host codex` with the payloads Codex 0.171.0 sent
// (test/fixtures/payloads/codex-0.171.0, moved into the test's project): spawn_agent is the delegation the
// guards judge (its `agent_type` the agent, its `message` the task), its answer starts the run, the calls
// inside the subagent are that run's work, and SubagentStop ends it; the gate then counts it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, decisionOf, fixture, hook, readJson, tempDir, writeFile, writeJson, writePlan, type Decision } from '../../helpers/project.js';
import { workflowState } from '../../helpers/states.js';
import { givePassingSuite } from '../../helpers/test-suite.js';

type State = Record<string, any>;
const IMPL = '06-implementation';
const recorded = (name: string, dir: string): State => fixture(`codex-0.171.0/${name}.json`, dir);
const AGENT_ID = String(recorded('post-spawn-agent', '/')['tool_response']).match(/"agent_id":"([^"]+)"/)![1]!;

function implementationProject(): string {
  const dir = tempDir('isdlc-codex-runs-');
  givePassingSuite(dir);
  const run = cli(['init', dir, '--host', 'codex', '--codex-version', '0.171.0']);
  if (run.status !== 0) throw new Error(run.stderr);
  writeJson(join(dir, '.isdlc/state.json'), { ...workflowState('feature', IMPL), state_version: 7 });
  writePlan(dir);
  cli(['changes', 'accept', '--dir', dir]);
  return dir;
}

const send = (dir: string, payload: State): Decision => {
  const run = hook(dir, payload, ['--host', 'codex']);
  expect(run.status, run.stderr).toBe(0);
  return decisionOf(run);
};
const stateOf = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));

/** spawn_agent naming `role`, before (Pre) or after (Post) Codex ran it. */
function spawn(dir: string, when: 'pre' | 'post', role: string, message = 'Implement add().'): State {
  const payload = recorded(`${when}-spawn-agent`, dir);
  return { ...payload, tool_input: { message, agent_type: role } };
}

/** A call inside the subagent: Codex sends the parent's session with the subagent's id and role. */
function inside(payload: State, role = 'software-developer'): State {
  return { ...payload, agent_id: AGENT_ID, agent_type: role };
}

const PATCH = '*** Begin Patch\n*** Add File: src/sum.js\n+module.exports = (a, b) => a + b;\n*** End Patch\n';

function delegationCheck(dir: string): { met: boolean; detail: string } {
  const gate = JSON.parse(cli(['gate', 'check', '--json', '--dir', dir]).stdout) as { checks: { requirement: string; met: boolean; detail: string }[] };
  return gate.checks.find((check) => check.requirement === 'agent_delegation')!;
}

describe('a phase agent run under Codex', () => {
  it("an out-of-order spawn_agent is denied with its reason; the phase's own is let through with its GATE REQUIREMENTS", () => {
    const dir = implementationProject();
    const later = send(dir, spawn(dir, 'pre', 'qa-engineer'));
    expect(later.kind).toBe('deny');
    expect(later.reason).toMatch(/^isdlc phase-sequence-guard: Carry on with phase 06-implementation \(its agent is software-developer\)/);
    expect(later.reason).toContain('out-of-order phase delegation: it targets phase 08-code-review');

    const own = send(dir, spawn(dir, 'pre', 'software-developer'));
    expect(own.kind).toBe('allow');
    const rewritten = (own.raw?.['hookSpecificOutput'] as State)['updatedInput'] as State;
    expect(rewritten).toEqual({
      message: expect.stringMatching(/^Implement add\(\)\.\n\nGATE REQUIREMENTS \(Phase: 06-implementation\)/),
      agent_type: 'software-developer',
    });
  });

  it('the run starts at its launch, its patch is its work, SubagentStop ends it, and the gate counts it', () => {
    const dir = implementationProject();
    expect(send(dir, spawn(dir, 'post', 'software-developer')).kind).toBe('allow');
    expect(stateOf(dir)['skill_usage_log']).toEqual([
      expect.objectContaining({ agent: 'software-developer', agent_phase: IMPL, agent_id: AGENT_ID, outcome: 'launched' }),
    ]);
    expect(delegationCheck(dir)).toMatchObject({ met: false, detail: expect.stringContaining('software-developer is still running') });

    const patch = { tool_name: 'apply_patch', tool_input: { command: PATCH } };
    expect(send(dir, inside({ ...recorded('pre-apply-patch', dir), ...patch })).kind).toBe('allow');
    expect(send(dir, inside({ ...recorded('post-apply-patch', dir), ...patch })).kind).toBe('allow');
    expect(stateOf(dir)['skill_usage_log'][0]).toMatchObject({ first_tool_at: expect.any(String), work_in: { [IMPL]: ['change'] } });
    expect(stateOf(dir)['phases'][IMPL]['changed_files']).toEqual({ 'src/sum.js': expect.any(String) });

    expect(send(dir, inside(recorded('subagent-stop', dir))).kind).toBe('allow');
    expect(stateOf(dir)['skill_usage_log'][0]).toMatchObject({ outcome: 'completed', completed_at: expect.any(String) });
    expect(delegationCheck(dir)).toMatchObject({ met: true, detail: expect.stringContaining('software-developer ran in this phase and did its work') });
  });

  it('wait_agent saying the run ended ends it where SubagentStop did not run (a hook the person has not trusted yet)', () => {
    const dir = implementationProject();
    send(dir, spawn(dir, 'post', 'software-developer'));
    const patch = { tool_name: 'apply_patch', tool_input: { command: PATCH } };
    send(dir, inside({ ...recorded('post-apply-patch', dir), ...patch }));
    const waited = recorded('post-wait-agent', dir);
    send(dir, { ...waited, tool_response: JSON.stringify({ status: { 'another-agent': 'running' }, timed_out: true }) });
    expect(stateOf(dir)['skill_usage_log'][0]).toMatchObject({ outcome: 'launched' });
    send(dir, waited);
    expect(stateOf(dir)['skill_usage_log'][0]).toMatchObject({ outcome: 'completed', completed_at: expect.any(String) });
    expect(delegationCheck(dir)).toMatchObject({ met: true });
  });

  it("the main session's own patch is no run's work, and a run that only talked counts for nothing", () => {
    const dir = implementationProject();
    send(dir, spawn(dir, 'post', 'software-developer'));
    const patch = { tool_name: 'apply_patch', tool_input: { command: PATCH } };
    send(dir, { ...recorded('post-apply-patch', dir), ...patch });
    send(dir, inside(recorded('subagent-stop', dir)));
    expect(delegationCheck(dir)).toMatchObject({ met: false, detail: expect.stringContaining("software-developer ran but did none of this phase's work") });
  });

  it("a reviewer's shell printing what the phase changed is its reading of it", () => {
    const dir = implementationProject();
    const patch = { tool_name: 'apply_patch', tool_input: { command: PATCH } };
    send(dir, { ...recorded('post-apply-patch', dir), ...patch });
    send(dir, spawn(dir, 'post', 'constitution-reviewer'));
    writeFile(join(dir, 'src/sum.js'), 'module.exports = (a, b) => a + b;\n');
    send(dir, inside({ ...recorded('post-bash-in-subagent', dir), tool_input: { command: 'cat src/sum.js' } }, 'constitution-reviewer'));
    expect(stateOf(dir)['skill_usage_log'][0]['read_in']).toEqual({ [IMPL]: { 'src/sum.js': expect.any(String) } });
  });
});
