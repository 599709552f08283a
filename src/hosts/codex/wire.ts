// The OpenAI Codex CLI's hook wire format: a JSON payload on stdin much like Claude Code's (the same field
// names, plus `turn_id` and `model`), the decision on stdout. What differs: a shell result is one string
// (stdout and stderr merged) with no exit code, and PostToolUse fires after a failing command too; a patch is
// the `apply_patch` tool with the whole patch as `tool_input.command`; a subagent is `spawn_agent`, which
// answers at launch with the new agent's id, and every payload from inside a subagent carries the parent's
// session with the subagent's `agent_id` and `agent_type`; Codex fails open on anything it cannot read, so a
// deny must carry a non-empty reason.
import type { HookEvent, HookEventName, ToolCall, ToolKind, ToolOutcome } from '../../events/hook-event.js';
import { isHookEventName } from '../../events/hook-event.js';
import type { ParseResult } from '../../engine/host.js';
import type { Verdict } from '../../engine/verdict.js';
import { toolName } from '../../config/agent-operations.js';
import { asText, recordOrUndefined } from '../../util/json.js';
import { patchPaths } from './apply-patch.js';
import { CODEX_TOOL_KIND_BY_NAME, SPAWN_TOOL, WAIT_TOOL } from './tool-names.js';

/** Codex names an MCP tool `mcp__<server>__<tool>`; isdlc's server is registered as `isdlc`. */
const ISDLC_TOOL_PREFIX = toolName('');

export function isdlcOperationOf(name: string): string | undefined {
  return name.startsWith(ISDLC_TOOL_PREFIX) && name.length > ISDLC_TOOL_PREFIX.length ? name.slice(ISDLC_TOOL_PREFIX.length) : undefined;
}

export function codexToolKindOf(name: string): ToolKind {
  return CODEX_TOOL_KIND_BY_NAME[name] ?? (isdlcOperationOf(name) ? 'isdlc' : 'other');
}

const STRING_FIELDS = [
  'hook_event_name',
  'session_id',
  'turn_id',
  'transcript_path',
  'cwd',
  'permission_mode',
  'agent_id',
  'agent_type',
  'tool_name',
  'tool_use_id',
  'source',
  'prompt',
] as const;

function payloadProblem(p: Record<string, unknown>): string | null {
  for (const key of STRING_FIELDS) if (p[key] !== undefined && p[key] !== null && typeof p[key] !== 'string') return `payload field ${key}: expected a string`;
  if (p['stop_hook_active'] !== undefined && typeof p['stop_hook_active'] !== 'boolean') return 'payload field stop_hook_active: expected true or false';
  const input = p['tool_input'];
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) return 'payload field tool_input: expected an object';
  return null;
}

const TOOL_EVENTS = new Set<HookEventName>(['PreToolUse', 'PostToolUse']);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function parseCodexPayload(raw: unknown, eventOverride?: string): ParseResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: `payload is ${Array.isArray(raw) ? 'an array' : typeof raw}, not a JSON object` };
  }
  const p = raw as Record<string, unknown>;
  const problem = payloadProblem(p);
  if (problem) return { ok: false, reason: problem };
  // Codex's SubagentStop is Claude Code's: a subagent ended.
  const name = eventOverride ?? str(p['hook_event_name']);
  if (!isHookEventName(name)) return { ok: false, reason: name ? `unsupported hook event "${name}"` : 'payload has no hook_event_name' };

  const event: HookEvent = { name };
  const sessionId = str(p['session_id']);
  const cwd = str(p['cwd']);
  const transcript = str(p['transcript_path']);
  const mode = str(p['permission_mode']);
  if (sessionId) event.sessionId = sessionId;
  if (cwd) event.cwd = cwd;
  if (transcript) event.transcriptPath = transcript;
  if (mode) event.permissionMode = mode;
  const agentId = str(p['agent_id']);
  const agentType = str(p['agent_type']);
  if (agentId) event.agentId = agentId;
  if (agentType) event.agentType = agentType;

  if (TOOL_EVENTS.has(name)) {
    const tool = str(p['tool_name']);
    if (!tool) return { ok: false, reason: `${name} payload has no tool_name` };
    const given = (recordOrUndefined(p['tool_input']) ?? {}) as Record<string, unknown>;
    const input = tool === SPAWN_TOOL ? spawnInput(given) : given;
    event.tool = { name: tool, kind: codexToolKindOf(tool), input };
    const operation = isdlcOperationOf(tool);
    if (operation) event.tool.operation = operation;
    const useId = str(p['tool_use_id']);
    if (useId) event.tool.useId = useId;
    if (event.tool.kind === 'patch') event.tool.paths = patchPaths(asText(input['command']));
    if (name === 'PostToolUse') event.outcome = tool === SPAWN_TOOL ? spawnOutcome(p['tool_response']) : outcomeOf(p['tool_response']);
    if (name === 'PostToolUse' && tool === WAIT_TOOL) {
      const ended = endedAgentsOf(event.outcome?.text ?? '');
      if (ended.length > 0 && event.outcome) event.outcome.endedAgents = ended;
    }
  }
  if (name === 'Stop' || name === 'SubagentStop') {
    event.stop = { hookActive: p['stop_hook_active'] === true };
    const last = str(p['last_assistant_message']);
    if (last) event.stop.lastMessage = last;
  }
  // Inside a subagent the prompt is the task its parent gave it, never the person's words.
  if (name === 'UserPromptSubmit' && !agentId) {
    const prompt = typeof p['prompt'] === 'string' ? p['prompt'] : undefined;
    if (prompt !== undefined) event.prompt = prompt;
  }
  if (name === 'SessionStart') {
    const source = str(p['source']);
    if (source) event.source = source;
  }
  return { ok: true, event };
}

/**
 * A `spawn_agent` call under the names the guards read (src/events/hook-event.ts): the role as
 * `subagent_type`, the task as `prompt`. Codex's own fields stay; `codexInput` takes the added ones out again.
 */
function spawnInput(input: Record<string, unknown>): Record<string, unknown> {
  const canonical = { ...input };
  const role = str(input['agent_type']);
  const task = typeof input['message'] === 'string' ? input['message'] : textOf(input['items']);
  if (role) canonical['subagent_type'] = role;
  if (task) canonical['prompt'] = task;
  return canonical;
}

/**
 * `spawn_agent` answers at launch (`{"agent_id":…,"nickname":…}`): the run goes on in the background and
 * ends at its SubagentStop. An answer without an id launched nothing.
 */
function spawnOutcome(response: unknown): ToolOutcome {
  const text = textOf(response);
  let agentId: string | undefined;
  try {
    agentId = str(recordOrUndefined(JSON.parse(text))?.['agent_id']);
  } catch {
    agentId = undefined;
  }
  return { failed: false, text, interrupted: false, backgrounded: agentId !== undefined, ...(agentId ? { agentId } : {}) };
}

/** A status wait_agent gives a subagent that has ended: `{"completed": <last message>}`, `{"errored": …}`, `"shutdown"`. */
const ENDED = (status: unknown): boolean => status === 'shutdown' || ['completed', 'errored'].some((key) => recordOrUndefined(status)?.[key] !== undefined);

/**
 * The subagents wait_agent says have ended (`{"status":{"<id>":{"completed":…}},"timed_out":false}`): the
 * end of their runs even where SubagentStop did not run (a hook the person has not trusted yet).
 */
function endedAgentsOf(text: string): string[] {
  try {
    const status = recordOrUndefined(recordOrUndefined(JSON.parse(text))?.['status']) ?? {};
    return Object.entries(status)
      .filter(([id, value]) => id !== '' && ENDED(value))
      .map(([id]) => id);
  } catch {
    return [];
  }
}

/**
 * A tool's result. A shell's is its merged output and nothing else: no exit code, so `exitCode` stays unknown
 * and a test run is judged from what the runner printed. An MCP tool's says whether it failed.
 */
function outcomeOf(response: unknown): ToolOutcome {
  const record = recordOrUndefined(response);
  return { failed: record?.['isError'] === true, text: textOf(response), interrupted: false, backgrounded: false };
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join('\n');
  const record = recordOrUndefined(value);
  if (!record) return asText(value);
  if (typeof record['text'] === 'string') return record['text'];
  if ('content' in record) return textOf(record['content']);
  if (typeof record['output'] === 'string') return record['output'];
  return JSON.stringify(value);
}

/** A PreToolUse deny is `deny`; a deny at any other event is `block`. */
export function codexDecision(eventName: HookEventName, verdict: Verdict): 'allow' | 'deny' | 'block' {
  if (!verdict.deny) return 'allow';
  return eventName === 'PreToolUse' ? 'deny' : 'block';
}

/** Codex reads at most this much of a reason with comfort; the model sees it in the tool's output. */
const TEXT_LIMIT = 10_000;

function capText(text: string): string {
  if (text.length <= TEXT_LIMIT) return text;
  const marker = '\n[... cut by isdlc to fit]';
  return text.slice(0, TEXT_LIMIT - marker.length) + marker;
}

const CONTEXT_EVENTS = new Set<HookEventName>(['PreToolUse', 'PostToolUse', 'SessionStart', 'UserPromptSubmit']);

/**
 * A rewritten input in the names Codex takes, or undefined where isdlc does not rewrite: only a subagent's
 * task (the GATE REQUIREMENTS appended to it), back into `message`, without the fields spawnInput added.
 */
function codexInput(tool: ToolCall | undefined, updated: Record<string, unknown>): Record<string, unknown> | undefined {
  if (tool?.name !== SPAWN_TOOL || typeof tool.input['message'] !== 'string' || typeof updated['prompt'] !== 'string') return undefined;
  const { subagent_type: _role, prompt, ...rest } = updated;
  return { ...rest, message: prompt };
}

/**
 * The JSON Codex honours for a verdict, or '' for a plain allow. A deny always carries a reason: Codex lets
 * the tool run when the reason is empty. Never `ask` (Codex runs the tool). A rewritten input only for a
 * subagent's task: Codex applies `updatedInput` beside an `allow`, which for spawn_agent skips no check.
 */
export function renderCodexVerdict(eventName: HookEventName, verdict: Verdict, tool?: ToolCall): string {
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const context = verdict.notes.join('\n\n');
  if (verdict.deny) {
    const reason = capText(verdict.deny.reason.trim() || 'isdlc refused this call.');
    if (eventName === 'PreToolUse') {
      specific['permissionDecision'] = 'deny';
      specific['permissionDecisionReason'] = reason;
    } else {
      out['decision'] = 'block';
      out['reason'] = reason;
    }
  } else if (verdict.updatedInput && eventName === 'PreToolUse') {
    const rewritten = codexInput(tool, verdict.updatedInput);
    if (rewritten) {
      specific['permissionDecision'] = 'allow';
      specific['updatedInput'] = rewritten;
    }
  }
  if (context && CONTEXT_EVENTS.has(eventName)) specific['additionalContext'] = capText(context);
  if (Object.keys(specific).length > 0) out['hookSpecificOutput'] = { hookEventName: eventName, ...specific };
  if (verdict.userMessages.length > 0) out['systemMessage'] = capText(verdict.userMessages.join('\n'));
  return Object.keys(out).length > 0 ? JSON.stringify(out) : '';
}
