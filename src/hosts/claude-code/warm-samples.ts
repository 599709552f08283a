// Sample hook calls of every kind Claude Code sends, as its wire carries them: `isdlc hook --warm-cache`
// sends them through the engine so that each hook bundle's code cache covers every path
// (src/entry/warm-cache.ts).
import { join } from 'node:path';

const FAILING_RUN = ' FAIL  src/cart.test.js\n  ● cart › adds totals\n\n    Expected: 4\n    Received: 3\n\nTests:       1 failed, 2 passed, 3 total\n';
const PASSING_RUN = ' PASS  src/cart.test.js\nTests:       3 passed, 3 total\nAll files |   90 |   80 |   90 |   90 |\n';
const MENU = 'Draft ready.\n[A] Adjust [R] Refine [C] Continue [S] Save';

export function claudeCodeWarmSamples(project: string): Record<string, unknown>[] {
  const base = { session_id: 'isdlc-warm-cache', transcript_path: '', cwd: project, permission_mode: 'default' };
  const tool = (event: string, name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...base,
    hook_event_name: event,
    tool_name: name,
    tool_input: input,
    tool_use_id: 'toolu_warm',
    ...extra,
  });
  return [
    tool('PreToolUse', 'Agent', { description: 'work', prompt: 'Implement it', subagent_type: 'software-developer' }),
    tool('PreToolUse', 'Agent', { description: 'gate', prompt: 'Advance to the next phase', subagent_type: 'sdlc-orchestrator' }),
    tool('PreToolUse', 'Skill', { skill: 'isdlc', args: 'advance' }),
    tool('PreToolUse', 'Bash', { command: 'node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation' }),
    tool('PreToolUse', 'Bash', { command: 'npm test' }),
    tool('PreToolUse', 'Write', { file_path: join(project, 'src/a.ts'), content: 'x' }),
    tool(
      'PostToolUse',
      'Write',
      { file_path: join(project, 'src/a.ts'), content: 'x' },
      { tool_response: { type: 'create', filePath: join(project, 'src/a.ts'), content: 'x', structuredPatch: [] } },
    ),
    tool('PostToolUseFailure', 'Bash', { command: 'npm test' }, { error: `Exit code 1\n${FAILING_RUN}`, is_interrupt: false }),
    tool(
      'PostToolUse',
      'Bash',
      { command: 'npm test' },
      {
        tool_response: {
          stdout: PASSING_RUN,
          stderr: '',
          interrupted: false,
          isImage: false,
          bashEditDiff: {
            files: [{ filePath: join(project, '.isdlc/state.json'), hunks: [{ lines: ['-  "state_version": 1', '+  "state_version": 2'] }] }],
            moreFiles: 0,
            changedFiles: [join(project, '.isdlc/state.json'), join(project, 'src/cart.js')],
          },
        },
      },
    ),
    tool(
      'PostToolUse',
      'Agent',
      { description: 'work', prompt: 'Implement it', subagent_type: 'software-developer' },
      { tool_response: { isAsync: true, status: 'async_launched', agentId: 'a1' } },
    ),
    tool(
      'PostToolUse',
      'mcp__isdlc__phase_activate',
      {},
      { tool_response: [{ type: 'text', text: '{"phase":"06-implementation","at":"2026-01-01T00:00:00.000Z"}' }] },
    ),
    tool(
      'PostToolUse',
      'Agent',
      { description: 'work', prompt: 'Implement it', subagent_type: 'software-developer' },
      { tool_response: { status: 'completed', content: [{ type: 'text', text: MENU }] } },
    ),
    { ...base, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: MENU },
    { ...base, hook_event_name: 'SubagentStop', stop_hook_active: false, agent_id: 'a1', agent_type: 'software-developer', last_assistant_message: 'done' },
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'C' },
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: '<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>' },
    { ...base, hook_event_name: 'SessionStart', source: 'startup' },
  ];
}
