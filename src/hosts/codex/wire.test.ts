// Codex's payloads as the canonical event, and verdicts in the form Codex honours: a table over the shapes
// Codex sends (the field names of its hooks, a shell result with no exit code, a patch naming its files).
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
