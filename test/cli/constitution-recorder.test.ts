// `isdlc constitution record` in a shell: what the command keeps about where it ran, what the shell call's
// PostToolUse (through the hook `isdlc init` registers) adds, and what `isdlc gate check` makes of it.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SANDBOXED_PROJECT } from '../helpers/guard-table.js';
import { bashPassed } from '../helpers/payloads.js';
import { cli, initedProject, readJson, withoutSandbox, writeJson } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { workflowState } from '../helpers/states.js';

type State = Record<string, any>;
const PHASE = '06-implementation';
const WORKER = { agent_id: 'a5dev0002', agent_type: 'software-developer' };

/** An inited project in 06-implementation, its worker's run logged. */
function project(sandboxed: boolean): string {
  const dir = initedProject('isdlc-recorder-');
  if (!sandboxed) withoutSandbox(dir);
  else
    writeJson(join(dir, '.claude/settings.json'), {
      ...readJson<Record<string, unknown>>(join(dir, '.claude/settings.json')),
      ...SANDBOXED_PROJECT['.claude/settings.json']!,
    });
  const state = workflowState('feature', PHASE);
  state['skill_usage_log'].push({
    timestamp: new Date().toISOString(),
    agent: 'software-developer',
    agent_phase: PHASE,
    current_phase: PHASE,
    agent_id: WORKER.agent_id,
    outcome: 'launched',
  });
  writeJson(join(dir, '.isdlc/state.json'), state);
  return dir;
}

const check = (dir: string, article: string): State =>
  readJson<State>(join(dir, '.isdlc/state.json'))['phases'][PHASE].constitutional_validation.article_results[article];
const record = (dir: string, env: Record<string, string> = {}) =>
  cli(['constitution', 'record', '--article', 'VII', '--result', 'compliant', '--note', 'checked', '--dir', dir], { env });
const constitutional = (dir: string): string => {
  const run = cli(['gate', 'check', '--dir', dir]);
  return run.stdout.split('\n').find((line) => line.includes('constitutional_validation')) ?? run.stdout;
};

describe('an article check recorded with the isdlc command', () => {
  it("in the worker's shell (no sandbox): the shell call's PostToolUse names the worker, found by time; the gate shows it and does not count it", () => {
    const dir = project(false);
    const recorded = record(dir, { CLAUDECODE: '1' });
    expect(recorded.status, recorded.stderr).toBe(0);
    expect(check(dir, 'VII')).toMatchObject({ result: 'compliant', recorded_with: 'cli', terminal: { agent_shell: true, sandboxed: false } });
    expect(check(dir, 'VII').by).toBeUndefined();
    expect(constitutional(dir)).toContain("recorded by an agent's shell (an isdlc command no shell call was seen to run): VII");

    const after = runRegisteredHook(dir, {
      ...bashPassed(dir, 'node .isdlc/bin/isdlc.cjs constitution record --article VII --result compliant', 'Article VII: compliant'),
      ...WORKER,
      duration_ms: 30_000,
    });
    expect(after.status, after.stderr).toBe(0);
    const session = String(bashPassed(dir, 'x', '')['session_id']);
    expect(check(dir, 'VII').by).toEqual({ session, ...WORKER, via: 'shell' });
    expect(constitutional(dir)).toContain("recorded by software-developer (agent a5dev0002), by the time of its shell call (the phase's worker): VII");
  });

  it("from a person's terminal in a sandboxed project: kept as theirs, and no shell call claims it", () => {
    const dir = project(true);
    const recorded = record(dir);
    expect(recorded.status, recorded.stderr).toBe(0);
    const made = check(dir, 'VII');
    expect(made).toMatchObject({ recorded_with: 'cli', terminal: { agent_shell: false, sandboxed: true } });
    const after = runRegisteredHook(dir, { ...bashPassed(dir, 'npm test', 'ok'), ...WORKER, duration_ms: 30_000 });
    expect(after.status, after.stderr).toBe(0);
    expect(check(dir, 'VII').by).toBeUndefined();
    expect(constitutional(dir)).toContain(`recorded by ${String(made.terminal.user)} in their own terminal: VII`);
  });
});
