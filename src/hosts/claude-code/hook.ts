// Claude Code as the engine sees it (src/engine/host.ts): its wire format, the project it names in
// CLAUDE_PROJECT_DIR, and whether its sandbox holds the agent's shell in this project.
import type { HookHost } from '../../engine/host.js';
import { sandboxState, settingsByPrecedence } from './sandbox-status.js';
import { claudeCodeDecision, parseClaudeCodePayload, renderClaudeCodeVerdict } from './wire.js';

/** What Claude Code sets for its hooks and for the agent's shell: the project's folder. */
export const PROJECT_DIR_VARIABLE = 'CLAUDE_PROJECT_DIR';

export const CLAUDE_CODE_HOOK: HookHost = {
  id: 'claude-code',
  name: 'Claude Code',
  projectDir: (env) => env[PROJECT_DIR_VARIABLE] || undefined,
  parse: parseClaudeCodePayload,
  decision: claudeCodeDecision,
  render: renderClaudeCodeVerdict,
  shellSandboxed: (root) => sandboxState(settingsByPrecedence(root), root).sandboxed,
};
