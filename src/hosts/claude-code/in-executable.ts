// What the executable knows of Claude Code (src/hosts/executable.ts), kept to a few lines since every hook
// call compiles it: the kind of tool a payload names, and the answer when none of isdlc's hook bundles can
// run (src/entry/without-bundles.ts). Without config or state only the plain signs of an advance are known
// there: isdlc's transition tools and commands, the isdlc skill or an orchestrator asked to advance.
import { ADVANCE_KEYWORDS, ADVANCING_COMMAND, ADVANCING_TOOLS, isWorkflowSkill, skillArgsNeverAdvance } from '../../detect/advance-words.js';
import type { HostInExecutable, LastResort } from '../host.js';
import { peekToolName, TOOL_KIND_BY_NAME } from './tool-names.js';

const MCP_PREFIX = 'mcp__isdlc__';
const CONTEXT_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'UserPromptSubmit', 'UserPromptExpansion']);

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** What the call would advance, in words, or null. */
function advanceIn(tool: string, input: Record<string, unknown>): string | null {
  if (tool.startsWith(MCP_PREFIX)) return ADVANCING_TOOLS.has(tool.slice(MCP_PREFIX.length)) ? tool : null;
  if (tool === 'Bash' || tool === 'PowerShell') return ADVANCING_COMMAND.test(text(input['command'])) ? `\`${text(input['command']).trim()}\`` : null;
  if (tool === 'Skill')
    return isWorkflowSkill(text(input['skill'])) && !skillArgsNeverAdvance(text(input['args'])) && ADVANCE_KEYWORDS.test(text(input['args']))
      ? 'the isdlc skill asked to advance'
      : null;
  if (tool === 'Agent' || tool === 'Task') {
    const asked = `${text(input['description'])}\n${text(input['prompt'])}`;
    return /orchestrator/i.test(text(input['subagent_type'])) && ADVANCE_KEYWORDS.test(asked) ? 'a delegation asking the orchestrator to advance' : null;
  }
  return null;
}

const lastResort: LastResort = (payload, say) => {
  const event = text(payload['hook_event_name']);
  const toolInput = payload['tool_input'] && typeof payload['tool_input'] === 'object' ? (payload['tool_input'] as Record<string, unknown>) : {};
  const advance = event === 'PreToolUse' ? advanceIn(text(payload['tool_name']), toolInput) : null;
  const out: Record<string, unknown> = { systemMessage: say.person };
  if (advance) {
    out['hookSpecificOutput'] = { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: say.deny(advance) };
  } else if (CONTEXT_EVENTS.has(event)) {
    out['hookSpecificOutput'] = { hookEventName: event, additionalContext: say.note };
  }
  return JSON.stringify(out);
};

export const CLAUDE_CODE_IN_EXECUTABLE: HostInExecutable = {
  toolKindIn(bytes) {
    const name = peekToolName(bytes);
    return name === undefined ? undefined : TOOL_KIND_BY_NAME[name];
  },
  lastResort,
};
