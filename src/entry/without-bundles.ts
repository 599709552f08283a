// When no bundle of `.isdlc/bin/` can answer (all missing, or none loads), the executable answers by
// itself rather than crash: Claude Code takes a crashed hook for a non-blocking error and goes ahead
// silently. Without config or state only the plain signs of an advance are known (isdlc's transition
// tools and commands, the isdlc skill or an orchestrator asked to advance); those are denied, anything
// else goes ahead with the problem told to the model and the person.
import { ADVANCE_KEYWORDS, ADVANCING_COMMAND, ADVANCING_TOOLS, isWorkflowSkill, skillArgsNeverAdvance } from '../detect/advance-words.js';
import { writeAllSync, type HookInput } from './stdio.js';

const MCP_PREFIX = 'mcp__isdlc__';
const CONTEXT_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'UserPromptSubmit', 'UserPromptExpansion']);

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function advanceIn(tool: string, input: Record<string, unknown>): string | null {
  if (tool.startsWith(MCP_PREFIX)) return ADVANCING_TOOLS.has(tool.slice(MCP_PREFIX.length)) ? tool : null;
  if (tool === 'Bash' || tool === 'PowerShell') return ADVANCING_COMMAND.test(text(input['command'])) ? `\`${text(input['command']).trim()}\`` : null;
  if (tool === 'Skill') return isWorkflowSkill(text(input['skill'])) && !skillArgsNeverAdvance(text(input['args'])) && ADVANCE_KEYWORDS.test(text(input['args'])) ? 'the isdlc skill asked to advance' : null;
  if (tool === 'Agent' || tool === 'Task') {
    const asked = `${text(input['description'])}\n${text(input['prompt'])}`;
    return /orchestrator/i.test(text(input['subagent_type'])) && ADVANCE_KEYWORDS.test(asked) ? 'a delegation asking the orchestrator to advance' : null;
  }
  return null;
}

export function answerWithoutBundles(input: HookInput, missing: readonly string[]): void {
  let payload: Record<string, unknown> = {};
  try {
    if ('bytes' in input) payload = JSON.parse(input.bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    // an unreadable payload is still answered: the problem is told, nothing is denied
  }
  const event = text(payload['hook_event_name']);
  const toolInput = payload['tool_input'] && typeof payload['tool_input'] === 'object' ? (payload['tool_input'] as Record<string, unknown>) : {};
  const what = `none of isdlc's hook bundles in .isdlc/bin/ can run (${missing.join('; ')}), so none of its checks ran`;
  const repair = 'a person runs `isdlc init` in the project to reinstall them; `isdlc doctor` checks the install';
  const advance = event === 'PreToolUse' ? advanceIn(text(payload['tool_name']), toolInput) : null;
  const out: Record<string, unknown> = { systemMessage: `isdlc is broken in this project: ${what}. The agent's ordinary work goes on unchecked, and the workflow cannot move on until you repair it: ${repair}.` };
  if (advance) {
    out['hookSpecificOutput'] = {
      hookEventName: event,
      permissionDecision: 'deny',
      permissionDecisionReason:
        `isdlc install-integrity: Stop and ask the user to repair isdlc before the workflow moves on: ${repair}. isdlc is not whole in this project: ${what}. ` +
        `This call (${advance}) would move the workflow on, and nothing can vouch for the evidence that step rests on. This step will be denied again until the repair is done.`,
    };
  } else if (CONTEXT_EVENTS.has(event)) {
    out['hookSpecificOutput'] = {
      hookEventName: event,
      additionalContext: `isdlc install-integrity: isdlc is not whole in this project: ${what}. This call goes ahead unchecked; any step that moves the workflow on is refused until a person repairs it: ${repair}. Tell the user.`,
    };
  }
  writeAllSync(1, JSON.stringify(out));
  writeAllSync(2, `isdlc hook: ${what}\n`);
}
