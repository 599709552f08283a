// The Claude Code adapter against recorded payloads: every event parses into the canonical event, and
// every kind of verdict renders the way the host honours it.
import { describe, expect, it } from 'vitest';
import { claudeCodeDecision, parseClaudeCodePayload, renderClaudeCodeVerdict, textOf, toolKindOf } from '../../../src/hosts/claude-code/wire.js';
import type { HookEvent } from '../../../src/events/hook-event.js';
import { emptyVerdict } from '../../../src/engine/verdict.js';
import { recorded332 } from '../../helpers/payloads.js';
import { fixture } from '../../helpers/project.js';

function parsed(name: string): HookEvent {
  const result = parseClaudeCodePayload(fixture(name));
  if (!result.ok) throw new Error(result.reason);
  return result.event;
}

describe('parsing recorded payloads', () => {
  it.each([
    ['pre-agent.json', 'PreToolUse', 'agent'],
    ['pre-task-legacy.json', 'PreToolUse', 'agent'],
    ['pre-bash.json', 'PreToolUse', 'shell'],
    ['post-bash.json', 'PostToolUse', 'shell'],
    ['post-failure-bash.json', 'PostToolUseFailure', 'shell'],
    ['post-failure-read.json', 'PostToolUseFailure', 'read'],
    ['post-agent-completed.json', 'PostToolUse', 'agent'],
    ['post-write.json', 'PostToolUse', 'write'],
    ['post-edit-windows.json', 'PostToolUse', 'edit'],
  ])('%s is a %s event on a %s tool', (name, event, kind) => {
    const e = parsed(name);
    expect(e.name).toBe(event);
    expect(e.tool?.kind).toBe(kind);
  });

  it('keeps the subagent fields of a call made inside a subagent', () => {
    const e = parsed('pre-bash-in-subagent-windows.json');
    expect(e.agentId).toBe('ab60045d5947af2de');
    expect(e.agentType).toBe('pantonic-executor');
    expect(e.cwd).toBe('d:\\workspaces\\PantonicApp');
  });

  it('reads a successful Bash run from tool_response: stdout, and exit 0 (a failing command fires PostToolUseFailure instead)', () => {
    const e = parsed('post-bash.json');
    expect(e.outcome).toEqual({ failed: false, text: 'hello', interrupted: false, backgrounded: false, durationMs: 49, exitCode: 0 });
    expect(parsed('post-bash-legacy.json').outcome?.exitCode).toBe(0);
  });

  it('accepts the legacy tool_result field as an alias of tool_response, without taking its exit status for 0', () => {
    const payload = fixture('post-bash.json');
    payload['tool_result'] = payload['tool_response'];
    delete payload['tool_response'];
    const result = parseClaudeCodePayload(payload);
    expect(result.ok && result.event.outcome?.text).toBe('hello');
    expect(result.ok && result.event.outcome).not.toHaveProperty('exitCode');
  });

  it.each([
    ['a legacy tool_result string', { tool_result: 'FAIL src/x.test.ts\n Tests: 1 failed, 3 passed' }, undefined],
    ['a legacy string that states a failing exit', { tool_result: 'Process exited with code 1' }, 1],
    ['a legacy string that states exit 0 (not taken: a pass must come from the output)', { tool_result: 'Process exited with code 0' }, undefined],
    ['the legacy {output, exitCode} object', { tool_result: { output: '3 passing', exitCode: 2 } }, 2],
    ['a tool_response object with no exit code and not the shell shape', { tool_response: { output: 'Error: boom' } }, undefined],
    ['a tool_response object naming its exit code', { tool_response: { stdout: 'x', interrupted: false, exit_code: 4 } }, 4],
  ])('a shell PostToolUse with %s has exit status %s', (_name, fields, exitCode) => {
    const { tool_response: _r, ...payload } = fixture('post-bash.json');
    const result = parseClaudeCodePayload({ ...payload, ...fields });
    expect(result.ok && result.event.outcome?.exitCode).toBe(exitCode);
  });

  it('takes the exit code of a failed Bash run from the first line of error', () => {
    expect(parsed('post-failure-bash.json').outcome).toMatchObject({ failed: true, exitCode: 1, text: '' });
    expect(parsed('post-failure-bash-exit3.json').outcome?.exitCode).toBe(3);
    const payload = fixture('post-failure-bash.json');
    payload['error'] = 'Exit code 2\nFAIL src/a.test.ts\nTests: 1 failed, 3 passed, 4 total';
    const result = parseClaudeCodePayload(payload);
    expect(result.ok && result.event.outcome).toMatchObject({ exitCode: 2, text: 'FAIL src/a.test.ts\nTests: 1 failed, 3 passed, 4 total' });
  });

  it('has no exit code for a failure that is not a command exit', () => {
    const outcome = parsed('post-failure-read.json').outcome;
    expect(outcome?.exitCode).toBeUndefined();
    expect(outcome?.text).toContain('File does not exist');
  });

  it('reads a completed subagent result text, and knows a background launch has none yet', () => {
    expect(parsed('post-agent-completed.json').outcome?.text).toBe('Done.');
    expect(parsed('post-agent-async.json').outcome?.backgrounded).toBe(true);
  });

  it('reads Stop and SubagentStop: stop_hook_active and the last message', () => {
    expect(parsed('stop.json').stop).toEqual({ hookActive: false, lastMessage: 'DONE' });
    expect(parsed('stop-legacy.json').stop).toEqual({ hookActive: false });
    const sub = parsed('subagent-stop.json');
    expect(sub.name).toBe('SubagentStop');
    expect(sub.agentType).toBe('general-purpose');
    expect(sub.stop?.lastMessage).toBe('Done.');
  });

  it('reads SessionStart, UserPromptSubmit and UserPromptExpansion', () => {
    expect(parsed('session-start-compact.json').source).toBe('compact');
    expect(parsed('user-prompt-submit.json').prompt).toContain('TaskCreate');
    expect(parsed('user-prompt-expansion.json').expansion).toEqual({ command: 'shpecho', args: 'EXPANDED' });
  });

  it("keeps a <task-notification> prompt apart: it is the host's report of a background task, not what the user typed", () => {
    const e = parsed('claude-code-2.1.332/user-prompt-task-notification.json');
    expect(e.prompt).toBeUndefined();
    expect(e.notification).toMatchObject({ kind: 'task', taskId: 'a49d57a7463b2321b', status: 'completed' });
    expect(e.notification?.text).toContain('<result>Done.</result>');
    const indented = fixture('claude-code-2.1.332/user-prompt-task-notification.json');
    indented['prompt'] = `\n   ${String(indented['prompt'])}`;
    const result = parseClaudeCodePayload(indented);
    expect(result.ok && result.event.prompt).toBeUndefined();
    expect(result.ok && result.event.notification?.kind).toBe('task');
    // Typed text that merely mentions the tag further in is the user's.
    const typed = fixture('user-prompt-submit.json');
    typed['prompt'] = 'why did <task-notification> show up?';
    const own = parseClaudeCodePayload(typed);
    expect(own.ok && own.event.prompt).toBe('why did <task-notification> show up?');
    expect(own.ok && own.event.notification).toBeUndefined();
  });

  it("exposes a subagent's id from its Agent result, launched in the background (2.1.332) or finished", () => {
    const launched = parsed('claude-code-2.1.332/post-agent-async.json');
    expect(launched.outcome).toMatchObject({ backgrounded: true, agentId: 'a49d57a7463b2321b' });
    // The SubagentStop of that agent carries the same id.
    expect(parsed('claude-code-2.1.332/subagent-stop-background.json').agentId).toBe('a49d57a7463b2321b');
    expect(parsed('post-agent-completed.json').outcome).toMatchObject({ backgrounded: false, agentId: 'a7154de3fc719065c' });
  });

  it("reads a Bash result's bashEditDiff (2.1.332) as the files the command changed", () => {
    const e = parsed('claude-code-2.1.332/post-bash-edit-diff.json');
    expect(e.outcome?.text).toBe('');
    expect(e.outcome?.fileChanges).toEqual({ files: [{ path: '/tmp/exp/rec-332/proj/notes.txt', created: true, lines: ['+A', '+b'] }], unlisted: 0 });
    const state = parsed('claude-code-2.1.332/post-bash-edit-diff-state.json');
    expect(state.outcome?.fileChanges?.files.map((file) => file.path)).toEqual(['/tmp/exp/rec-332/proj/.isdlc/state.json']);
    expect(state.outcome?.fileChanges?.files[0]?.lines).toContain('+  "forged": true');
    // changedFiles may name more files than carry hunks; moreFiles counts those named nowhere.
    const payload = fixture('claude-code-2.1.332/post-bash-edit-diff.json');
    const diff = (payload['tool_response'] as Record<string, any>)['bashEditDiff'];
    diff.changedFiles.push('/tmp/exp/rec-332/proj/.mcp.json');
    diff.moreFiles = 3;
    const result = parseClaudeCodePayload(payload);
    expect(result.ok && result.event.outcome?.fileChanges).toMatchObject({
      files: [{ path: '/tmp/exp/rec-332/proj/notes.txt' }, { path: '/tmp/exp/rec-332/proj/.mcp.json' }],
      unlisted: 2,
    });
    expect(parsed('post-bash.json').outcome?.fileChanges).toBeUndefined();
  });

  it('takes the event from --event when the payload lacks hook_event_name', () => {
    const payload = fixture('pre-bash.json');
    delete payload['hook_event_name'];
    expect(parseClaudeCodePayload(payload).ok).toBe(false);
    const result = parseClaudeCodePayload(payload, 'PreToolUse');
    expect(result.ok && result.event.tool?.name).toBe('Bash');
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', 'PreToolUse'],
    ['null', null],
    ['an unknown event', { hook_event_name: 'Teleport' }],
    ['a tool event without tool_name', { hook_event_name: 'PreToolUse', tool_input: {} }],
    ['tool_input that is not an object', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: 'ls' }],
    ['session_id that is a number', { hook_event_name: 'Stop', session_id: 7 }],
  ])('refuses %s with a reason', (_label, payload) => {
    const result = parseClaudeCodePayload(payload);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason.length).toBeGreaterThan(5);
  });
});

describe('tool kinds', () => {
  it.each([
    ['Agent', 'agent'],
    ['Task', 'agent'],
    ['Skill', 'skill'],
    ['Bash', 'shell'],
    ['PowerShell', 'shell'],
    ['Write', 'write'],
    ['Edit', 'edit'],
    ['MultiEdit', 'edit'],
    ['NotebookEdit', 'notebook'],
    ['Read', 'read'],
    ['Grep', 'read'],
    ['TaskCreate', 'other'],
    ['TaskUpdate', 'other'],
    ['mcp__github__create_issue', 'other'],
    ['mcp__isdlc__phase_complete', 'isdlc'],
    ['mcp__isdlc__', 'other'],
    ['mcp__isdlcx__status', 'other'],
  ])('%s is %s', (name, kind) => expect(toolKindOf(name)).toBe(kind));

  it("names the operation of one of isdlc's own tools, from a recorded 2.1.332 payload", () => {
    const parsed = parseClaudeCodePayload(recorded332('post-mcp-phase-complete.json'));
    expect(parsed.ok && parsed.event.tool).toMatchObject({ name: 'mcp__isdlc__phase_complete', kind: 'isdlc', operation: 'phase_complete' });
    expect(parsed.ok && parsed.event.outcome?.text).toMatch(/^\{"phase":"11-local-testing".*"at":"/);
  });
});

describe('rendering verdicts', () => {
  const deny = { ...emptyVerdict(), deny: { guard: 'g', reason: 'because' } };

  it('a plain allow is empty stdout', () => {
    expect(renderClaudeCodeVerdict('PreToolUse', emptyVerdict())).toBe('');
  });

  it('a PreToolUse deny is permissionDecision deny with the reason for the model, never continue:false', () => {
    const out = JSON.parse(renderClaudeCodeVerdict('PreToolUse', deny));
    expect(out).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'because' } });
    expect(out).not.toHaveProperty('continue');
  });

  it('notes on an allowed PreToolUse add context without approving the call', () => {
    const out = JSON.parse(renderClaudeCodeVerdict('PreToolUse', { ...emptyVerdict(), notes: ['a', 'b'] }));
    expect(out.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', additionalContext: 'a\n\nb' });
  });

  it('feedback after a tool is additionalContext', () => {
    const out = JSON.parse(renderClaudeCodeVerdict('PostToolUseFailure', { ...emptyVerdict(), notes: ['iteration 1 of 10'] }));
    expect(out).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'iteration 1 of 10' } });
  });

  it.each(['Stop', 'SubagentStop'] as const)('a %s deny is decision block with the reason', (event) => {
    expect(JSON.parse(renderClaudeCodeVerdict(event, deny))).toEqual({ decision: 'block', reason: 'because' });
  });

  it('names the decision as the wire does: deny before a tool, block anywhere else, allow without a deny', () => {
    expect(claudeCodeDecision('PreToolUse', deny)).toBe('deny');
    for (const event of ['Stop', 'SubagentStop', 'PostToolUse', 'UserPromptSubmit'] as const) expect(claudeCodeDecision(event, deny)).toBe('block');
    expect(claudeCodeDecision('Stop', emptyVerdict())).toBe('allow');
  });

  it('a line for the human is systemMessage', () => {
    expect(JSON.parse(renderClaudeCodeVerdict('Stop', { ...emptyVerdict(), userMessages: ['hello human'] }))).toEqual({ systemMessage: 'hello human' });
  });

  it('cuts text past the host limit of 10,000 characters', () => {
    const out = JSON.parse(renderClaudeCodeVerdict('PreToolUse', { ...emptyVerdict(), deny: { guard: 'g', reason: 'x'.repeat(20_000) } }));
    expect(out.hookSpecificOutput.permissionDecisionReason.length).toBeLessThanOrEqual(10_000);
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('cut by isdlc');
  });
});

describe('textOf', () => {
  it.each([
    [{ stdout: 'out', stderr: 'err' }, 'out\nerr'],
    [
      {
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      'one\ntwo',
    ],
    ['plain', 'plain'],
    [undefined, ''],
  ])('%j → %j', (value, text) => expect(textOf(value)).toBe(text));
});
