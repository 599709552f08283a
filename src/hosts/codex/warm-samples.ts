// Sample hook calls of every kind Codex sends, as its wire carries them, for warming the hook bundles' code
// cache (src/entry/warm-cache.ts).
import { join } from 'node:path';

const PASSING_RUN = ' PASS  src/cart.test.js\nTests:       3 passed, 3 total\n';

export function codexWarmSamples(project: string): Record<string, unknown>[] {
  const base = { session_id: 'isdlc-warm-cache', turn_id: 'warm', transcript_path: null, cwd: project, permission_mode: 'bypassPermissions', model: 'gpt-5.5' };
  const tool = (event: string, name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...base,
    hook_event_name: event,
    tool_name: name,
    tool_input: input,
    tool_use_id: 'call_warm',
    ...extra,
  });
  const patch = `*** Begin Patch\n*** Add File: ${join('src', 'a.ts')}\n+x\n*** End Patch\n`;
  return [
    tool('PreToolUse', 'Bash', { command: 'npm test' }),
    tool('PreToolUse', 'apply_patch', { command: patch }),
    tool('PreToolUse', 'mcp__isdlc__phase_complete', { summary: 'done' }),
    tool('PreToolUse', 'spawn_agent', { message: 'Implement the cart.', agent_type: 'software-developer' }),
    tool(
      'PostToolUse',
      'spawn_agent',
      { message: 'Implement the cart.', agent_type: 'software-developer' },
      { tool_response: '{"agent_id":"warm-agent","nickname":"Warm"}' },
    ),
    tool('PostToolUse', 'Bash', { command: 'npm test' }, { tool_response: PASSING_RUN }),
    tool('PostToolUse', 'apply_patch', { command: patch }, { tool_response: 'Success. Updated the following files:\nA src/a.ts\n' }),
    { ...base, hook_event_name: 'SessionStart', source: 'startup' },
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'Implement the cart.' },
    { ...base, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Done.' },
    {
      ...base,
      hook_event_name: 'SubagentStop',
      stop_hook_active: false,
      agent_id: 'warm-agent',
      agent_type: 'software-developer',
      last_assistant_message: 'Done.',
    },
  ];
}
