// The GATE REQUIREMENTS block in the delegation prompt through `isdlc delegation-prompt`, and its injection
// through the hook command `isdlc init` registered: the block appended once, and given again after
// a compaction.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activate, isdlc, send, stateOf, type State } from '../helpers/handshake.js';
import { agentCall } from '../helpers/payloads.js';
import { cli, fixture, initedProject, writeFile, writeJson } from '../helpers/project.js';

function fixAt01(): string {
  const dir = initedProject('isdlc-gatereq-');
  isdlc(dir, ['workflow', 'start', 'fix', '--description', 'crash on empty cart']);
  activate(dir);
  return dir;
}

const prompt = (dir: string, ...args: string[]) => {
  const run = cli(['delegation-prompt', ...args], { cwd: dir });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

describe('the delegation prompt', () => {
  it('the GATE REQUIREMENTS block comes after the context and before the gate line', () => {
    const dir = fixAt01();
    const text = prompt(dir);
    expect(text).toBe(
      [
        'Artifact folder: BUG-0001-crash-on-empty-cart',
        'Phase: 01-requirements',
        'Workflow modifiers: {"scope":"bug-report","artifact_prefix":"BUG","require_external_id":true}',
        '',
        cli(['gate-requirements', '--phase', '01-requirements', '--artifact-folder', 'BUG-0001-crash-on-empty-cart', '--workflow', 'fix'], {
          cwd: dir,
        }).stdout.trimEnd(),
        '',
        'Validate GATE-01 on completion.',
        '',
      ].join('\n'),
    );
  });

  it('without a block the prompt is the same, with no empty block and no extra blank line', () => {
    const dir = fixAt01();
    const withBlock = prompt(dir);
    writeFile(join(dir, '.isdlc/config/iteration-requirements.json'), '{ broken');
    const without = prompt(dir);
    expect(without).toBe(withBlock.replace(/\n\nGATE REQUIREMENTS[\s\S]*?\n\nValidate/, '\n\nValidate'));
    expect(without).not.toMatch(/\n\n\n/);
    expect(without).not.toContain('GATE REQUIREMENTS');
  });

  it('each requirement the gate checks is in the block the agent reads', () => {
    const dir = fixAt01();
    const text = prompt(dir);
    const gate = JSON.parse(cli(['gate', 'check', '--json'], { cwd: dir }).stdout) as { checks: { requirement: string }[] };
    const names: Record<string, string> = {
      agent_delegation: 'agent_delegation',
      constitutional_validation: 'constitutional_validation',
      interactive_elicitation: 'interactive_elicitation',
      test_iteration: 'test_iteration',
      artifact_presence: 'artifact_validation',
    };
    for (const check of gate.checks) expect(text, check.requirement).toContain(`- ${names[check.requirement]}: enabled`);
  });

  it('discovery context for phases 02 and 03 only, flagged when older than a day; ATDD modifiers in ATDD mode', () => {
    const dir = initedProject('isdlc-gatereq-');
    isdlc(dir, ['workflow', 'start', 'feature', '--atdd']);
    const state = stateOf(dir);
    state['discovery_context'] = { completed_at: new Date(Date.now() - 30 * 3600_000).toISOString(), tech_stack: ['typescript'] };
    writeJson(join(dir, '.isdlc/state.json'), state);
    expect(prompt(dir, '--phase', '02-impact-analysis')).toMatch(
      /Discovery context: \{.*"tech_stack":\["typescript"\]\}\n\(The discovery context is 30 hours old and may be stale/,
    );
    expect(prompt(dir, '--phase', '03-architecture')).toContain('Discovery context:');
    expect(prompt(dir, '--phase', '04-design')).not.toContain('Discovery context');
    expect(prompt(dir, '--phase', '06-implementation')).toContain(
      'Workflow modifiers: {"track_red_green_transitions":true,"require_priority_order":true,"all_priorities_must_pass":true}',
    );
  });

  it('without an active workflow it says so', () => {
    const run = cli(['delegation-prompt'], { cwd: initedProject('isdlc-gatereq-') });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('no active workflow');
  });
});

describe('the block reaches the agent even when the orchestrator forgets it', () => {
  it('a phase delegation without the block gets it appended once; a second pass adds nothing', () => {
    const dir = fixAt01();
    const call = agentCall(dir, { subagent_type: 'requirements-analyst', prompt: 'Write the bug report requirements.' });
    const first = send(dir, call);
    const specific = (first.raw?.['hookSpecificOutput'] ?? {}) as State;
    expect(specific['permissionDecision']).toBe('allow');
    const updated = specific['updatedInput'] as State;
    expect(updated['prompt']).toBe(
      `Write the bug report requirements.\n\n${cli(['gate-requirements', '--phase', '01-requirements', '--artifact-folder', 'BUG-0001-crash-on-empty-cart', '--workflow', 'fix'], { cwd: dir }).stdout.trimEnd()}`,
    );
    expect(updated['subagent_type']).toBe('requirements-analyst');
    const second = send(dir, { ...call, tool_input: updated });
    expect(second.raw?.['hookSpecificOutput']).toBeUndefined();
    // A prompt built with `isdlc delegation-prompt` carries it already.
    expect(send(dir, agentCall(dir, { subagent_type: 'requirements-analyst', prompt: prompt(dir) })).raw).toBeUndefined();
  });

  it('a denied delegation is never rewritten', () => {
    const dir = fixAt01();
    const denied = send(dir, agentCall(dir, { subagent_type: 'software-developer', prompt: 'Fix it.' }));
    expect(denied.kind).toBe('deny');
    expect(JSON.stringify(denied.raw)).not.toContain('updatedInput');
  });

  it('after a compaction the agent is told its phase and gate requirements', () => {
    const dir = fixAt01();
    const compacted = send(dir, { ...fixture('session-start-compact.json'), cwd: dir });
    expect(compacted.context).toContain('The current phase is 01-requirements, in progress');
    expect(compacted.context).toContain('GATE REQUIREMENTS (Phase: 01-requirements):');
  });
});
