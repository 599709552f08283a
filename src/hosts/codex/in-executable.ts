// What the executable knows of Codex (src/hosts/executable.ts): the kind of tool a payload names, and the
// answer when none of isdlc's hook bundles can run. Codex reads the same answer fields as Claude Code; a
// call that would move the workflow on is refused, the rest goes on with a note.
import { ADVANCING_COMMAND, ADVANCING_TOOLS } from '../../detect/advance-words.js';
import type { HostInExecutable, LastResort } from '../host.js';
import { CODEX_TOOL_KIND_BY_NAME, peekCodexToolName } from './tool-names.js';

const MCP_PREFIX = 'mcp__isdlc__';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function advanceIn(tool: string, input: Record<string, unknown>): string | null {
  if (tool.startsWith(MCP_PREFIX)) return ADVANCING_TOOLS.has(tool.slice(MCP_PREFIX.length)) ? tool : null;
  if (tool === 'Bash') return ADVANCING_COMMAND.test(text(input['command'])) ? `\`${text(input['command']).trim()}\`` : null;
  return null;
}

const lastResort: LastResort = (payload, say) => {
  const event = text(payload['hook_event_name']);
  const input = payload['tool_input'] && typeof payload['tool_input'] === 'object' ? (payload['tool_input'] as Record<string, unknown>) : {};
  const advance = event === 'PreToolUse' ? advanceIn(text(payload['tool_name']), input) : null;
  const out: Record<string, unknown> = { systemMessage: say.person };
  if (advance) out['hookSpecificOutput'] = { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: say.deny(advance) };
  else if (event === 'PreToolUse' || event === 'PostToolUse' || event === 'SessionStart' || event === 'UserPromptSubmit')
    out['hookSpecificOutput'] = { hookEventName: event, additionalContext: say.note };
  return JSON.stringify(out);
};

export const CODEX_IN_EXECUTABLE: HostInExecutable = {
  toolKindIn(bytes) {
    const name = peekCodexToolName(bytes);
    if (name === undefined) return undefined;
    return CODEX_TOOL_KIND_BY_NAME[name] ?? (name.startsWith(MCP_PREFIX) ? 'isdlc' : 'other');
  },
  lastResort,
};
