// Codex's payloads as the canonical event, and verdicts in the form Codex honours: a table over the shapes
// Codex sends (the field names of its hooks, a shell result with no exit code, a patch naming its files).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCodexPayload, renderCodexVerdict } from './wire.js';
import { patchedFiles, patchPaths } from './apply-patch.js';

const base = { session_id: 's1', turn_id: 't1', transcript_path: null, cwd: '/p', permission_mode: 'bypassPermissions', model: 'gpt-5.5' };
const PATCH = [
  '*** Begin Patch',
  '*** Add File: src/new.ts',
  '+export {};',
  '*** Update File: src/old.ts',
  '*** Move to: src/renamed.ts',
  '@@',
  '-a',
  '+b',
  '*** Delete File: .isdlc/state.json',
  '*** End Patch',
].join('\n');

describe('parseCodexPayload', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'a shell call',
      { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'call_1' },
      { name: 'PreToolUse', tool: { name: 'Bash', kind: 'shell', input: { command: 'npm test' }, useId: 'call_1' } },
    ],
    [
      'a shell result: the merged output, and no exit code (Codex sends none)',
      { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: 'Tests: 1 failed\n' },
      { outcome: { failed: false, text: 'Tests: 1 failed\n', interrupted: false, backgrounded: false } },
    ],
    [
      'a patch: every file it adds, changes, moves or deletes',
      { hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: PATCH } },
      { tool: { kind: 'patch', paths: ['src/new.ts', 'src/old.ts', 'src/renamed.ts', '.isdlc/state.json'] } },
    ],
    [
      "one of isdlc's MCP tools",
      { hook_event_name: 'PreToolUse', tool_name: 'mcp__isdlc__phase_complete', tool_input: {} },
      { tool: { kind: 'isdlc', operation: 'phase_complete' } },
    ],
    [
      'an MCP result that failed',
      { hook_event_name: 'PostToolUse', tool_name: 'mcp__other__x', tool_input: {}, tool_response: { content: [{ type: 'text', text: 'no' }], isError: true } },
      { tool: { kind: 'other' }, outcome: { failed: true, text: 'no' } },
    ],
    ['Stop', { hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'Done.' }, { stop: { hookActive: true, lastMessage: 'Done.' } }],
    ['SessionStart', { hook_event_name: 'SessionStart', source: 'startup' }, { source: 'startup', sessionId: 's1', cwd: '/p' }],
    ['UserPromptSubmit', { hook_event_name: 'UserPromptSubmit', prompt: 'fix it' }, { prompt: 'fix it' }],
    [
      "a subagent launched: its role and task under the names the guards read, Codex's own fields kept",
      { hook_event_name: 'PreToolUse', tool_name: 'spawn_agent', tool_input: { message: 'Do it.', agent_type: 'software-developer' } },
      {
        tool: {
          kind: 'agent',
          input: { message: 'Do it.', agent_type: 'software-developer', subagent_type: 'software-developer', prompt: 'Do it.' },
        },
      },
    ],
    [
      'a subagent given its task as items',
      { hook_event_name: 'PreToolUse', tool_name: 'spawn_agent', tool_input: { items: [{ type: 'text', text: 'Part one.' }] } },
      { tool: { input: { prompt: 'Part one.' } } },
    ],
    [
      'SubagentStop: which subagent ended, and its last message',
      { hook_event_name: 'SubagentStop', agent_id: 'a1', agent_type: 'reviewer', stop_hook_active: false, last_assistant_message: 'Reviewed.' },
      { name: 'SubagentStop', agentId: 'a1', agentType: 'reviewer', stop: { hookActive: false, lastMessage: 'Reviewed.' } },
    ],
  ])('%s', (_name, payload, expected) => {
    const parsed = parseCodexPayload({ ...base, ...payload });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.event).toMatchObject(expected);
  });

  it.each([
    ['no event name', {}],
    ['an event isdlc does not answer', { hook_event_name: 'PermissionRequest' }],
    ['a tool event without a tool', { hook_event_name: 'PreToolUse' }],
    ['a tool_input that is no object', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: 'ls' }],
  ])('refuses %s', (_name, payload) => expect(parseCodexPayload({ ...base, ...payload }).ok).toBe(false));
});

describe('what Codex sends around a subagent (its recorded payloads)', () => {
  const recorded = (name: string) =>
    JSON.parse(readFileSync(join(__dirname, '../../../test/fixtures/payloads/codex-0.171.0', `${name}.json`), 'utf8')) as Record<string, unknown>;
  const parsed = (name: string) => {
    const result = parseCodexPayload(recorded(name));
    if (!result.ok) throw new Error(result.reason);
    return result.event;
  };

  it('spawn_agent answers at launch: the run is in the background, followed by the id it answered', () => {
    const event = parsed('post-spawn-agent');
    expect(event.tool).toMatchObject({ kind: 'agent', input: { subagent_type: 'reviewer', prompt: 'Review the work.' } });
    expect(event.outcome).toMatchObject({ backgrounded: true, agentId: '01a21de7-6897-75c1-bac8-d0255067c3eb' });
    expect(event.agentId).toBeUndefined();
  });

  it("a call inside the subagent carries the parent's session and the subagent's id and role", () => {
    expect(parsed('pre-bash-in-subagent')).toMatchObject({
      sessionId: '01a21de7-67dc-7a93-ab9d-1fea53527ee3',
      agentId: '01a21de7-6897-75c1-bac8-d0255067c3eb',
      agentType: 'reviewer',
      tool: { kind: 'shell' },
    });
    expect(parsed('post-bash-in-subagent').agentId).toBe('01a21de7-6897-75c1-bac8-d0255067c3eb');
  });

  it("the subagent's task is not taken for the person's words; the person's prompt is", () => {
    expect(parsed('user-prompt-submit-subagent').prompt).toBeUndefined();
    expect(parsed('user-prompt-submit').prompt).toBe(recorded('user-prompt-submit')['prompt']);
  });

  it('SubagentStop ends the run it names', () => {
    expect(parsed('subagent-stop')).toMatchObject({
      name: 'SubagentStop',
      agentId: '01a21de7-6897-75c1-bac8-d0255067c3eb',
      stop: { lastMessage: 'Reviewed.' },
    });
  });

  it('wait_agent names the subagents that ended; one still running is not among them', () => {
    expect(parsed('post-wait-agent').outcome?.endedAgents).toEqual(['01a21de7-6897-75c1-bac8-d0255067c3eb']);
    const status = { a: { completed: 'Done.' }, b: 'running', c: { errored: 'boom' }, d: 'shutdown', e: 'pending_init' };
    const waited = parseCodexPayload({ ...recorded('post-wait-agent'), tool_response: JSON.stringify({ status, timed_out: true }) });
    expect(waited.ok && waited.event.outcome?.endedAgents).toEqual(['a', 'c', 'd']);
  });

  it('an answer without an id launched nothing: no run to wait for', () => {
    const event = parseCodexPayload({ ...recorded('post-spawn-agent'), tool_response: 'collab spawn failed: agent limit reached' });
    expect(event.ok && event.event.outcome).toMatchObject({ backgrounded: false });
    expect(event.ok && event.event.outcome?.agentId).toBeUndefined();
  });
});

describe('renderCodexVerdict', () => {
  const verdict = (over: Record<string, unknown> = {}) => ({ notes: [], userMessages: [], ...over }) as never;
  it('a PreToolUse deny carries a non-empty reason (Codex runs the tool on an empty one)', () => {
    expect(JSON.parse(renderCodexVerdict('PreToolUse', verdict({ deny: { reason: 'no' } })))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no' },
    });
    expect(JSON.parse(renderCodexVerdict('PreToolUse', verdict({ deny: { reason: '  ' } }))).hookSpecificOutput.permissionDecisionReason).not.toBe('');
  });
  it('a held Stop is a block with its reason', () => {
    expect(JSON.parse(renderCodexVerdict('Stop', verdict({ deny: { reason: 'rules fail' } })))).toEqual({ decision: 'block', reason: 'rules fail' });
  });
  it('a plain allow prints nothing', () => expect(renderCodexVerdict('PreToolUse', verdict())).toBe(''));
  it("a subagent's rewritten task goes back into `message`, beside an allow, without the names isdlc added", () => {
    const tool = {
      name: 'spawn_agent',
      kind: 'agent' as const,
      input: { message: 'Do it.', agent_type: 'software-developer', subagent_type: 'software-developer', prompt: 'Do it.' },
    };
    const updatedInput = { ...tool.input, prompt: 'Do it.\n\nGATE REQUIREMENTS' };
    expect(JSON.parse(renderCodexVerdict('PreToolUse', verdict({ updatedInput, notes: ['appended'] }), tool))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { message: 'Do it.\n\nGATE REQUIREMENTS', agent_type: 'software-developer' },
        additionalContext: 'appended',
      },
    });
  });
  it('no other rewritten input reaches Codex', () => {
    const tool = { name: 'Bash', kind: 'shell' as const, input: { command: 'ls' } };
    expect(renderCodexVerdict('PreToolUse', verdict({ updatedInput: { command: 'rm -rf /' } }), tool)).toBe('');
  });
});

describe('apply_patch', () => {
  it('reads the files of a patch, a move as its two names', () => {
    expect(patchedFiles(PATCH)).toEqual([
      { action: 'add', path: 'src/new.ts' },
      { action: 'update', path: 'src/old.ts', moveTo: 'src/renamed.ts' },
      { action: 'delete', path: '.isdlc/state.json' },
    ]);
    expect(patchPaths('*** Begin Patch\r\n*** Update File: a.ts\r\n@@\r\n-x\r\n+y\r\n*** End Patch')).toEqual(['a.ts']);
    expect(patchPaths('not a patch')).toEqual([]);
  });
});
