// Claude Code's hook wire format: the JSON payload on stdin in, the decision on stdout out.
import type { FileChange, FileChanges, HookEvent, HookEventName, HostNotification, ToolKind, ToolOutcome } from '../../events/hook-event.js';
import { isHookEventName } from '../../events/hook-event.js';
import type { ParseResult } from '../../engine/host.js';
import type { Verdict } from '../../engine/verdict.js';
import { asText, recordOrUndefined } from '../../util/json.js';
import { toolName } from '../../config/agent-operations.js';
import { TOOL_KIND_BY_NAME } from './tool-names.js';

/** Claude Code names an MCP tool `mcp__<server>__<tool>`; isdlc's server is registered as `isdlc`. */
const ISDLC_TOOL_PREFIX = toolName('');

/** The isdlc MCP tool a tool name calls, or undefined. */
export function isdlcOperationOf(toolName: string): string | undefined {
  return toolName.startsWith(ISDLC_TOOL_PREFIX) && toolName.length > ISDLC_TOOL_PREFIX.length ? toolName.slice(ISDLC_TOOL_PREFIX.length) : undefined;
}

export function toolKindOf(toolName: string): ToolKind {
  return TOOL_KIND_BY_NAME[toolName] ?? (isdlcOperationOf(toolName) ? 'isdlc' : 'other');
}

/** The payload fields the adapter reads; everything else in the payload is ignored. */
interface Payload {
  hook_event_name?: string;
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  permission_mode?: string;
  agent_id?: string;
  agent_type?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  tool_use_id?: string;
  tool_response?: unknown;
  tool_result?: unknown;
  error?: unknown;
  is_interrupt?: boolean;
  stop_hook_active?: boolean;
  last_assistant_message?: unknown;
  source?: string;
  prompt?: string;
  command_name?: string;
  command_args?: string;
  duration_ms?: number;
}

const STRING_FIELDS = [
  'hook_event_name',
  'session_id',
  'transcript_path',
  'cwd',
  'permission_mode',
  'agent_id',
  'agent_type',
  'tool_name',
  'tool_use_id',
  'source',
  'prompt',
  'command_name',
  'command_args',
] as const;
const BOOLEAN_FIELDS = ['is_interrupt', 'stop_hook_active'] as const;

/**
 * What is wrong with the payload's shape, or null. Plain checks rather than a schema library: this runs
 * on every hook call, where building a schema costs more than the checks (docs/hot-path.md).
 */
function payloadProblem(p: Record<string, unknown>): string | null {
  for (const key of STRING_FIELDS) if (p[key] !== undefined && typeof p[key] !== 'string') return `payload field ${key}: expected a string`;
  for (const key of BOOLEAN_FIELDS) if (p[key] !== undefined && typeof p[key] !== 'boolean') return `payload field ${key}: expected true or false`;
  const input = p['tool_input'];
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) return 'payload field tool_input: expected an object';
  if (p['duration_ms'] !== undefined && typeof p['duration_ms'] !== 'number') return 'payload field duration_ms: expected a number';
  return null;
}

const TOOL_EVENTS = new Set<HookEventName>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/**
 * Turns a parsed stdin payload into the canonical event. `eventOverride` comes from `--event` and
 * wins over `hook_event_name`.
 */
export function parseClaudeCodePayload(raw: unknown, eventOverride?: string): ParseResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: `payload is ${Array.isArray(raw) ? 'an array' : typeof raw}, not a JSON object` };
  }
  const problem = payloadProblem(raw as Record<string, unknown>);
  if (problem) return { ok: false, reason: problem };
  const p = raw as Payload;
  const name = eventOverride ?? p.hook_event_name;
  if (!isHookEventName(name)) {
    return { ok: false, reason: name ? `unsupported hook event "${name}"` : 'payload has no hook_event_name' };
  }

  const event: HookEvent = { name };
  assignDefined(event, {
    sessionId: p.session_id,
    cwd: p.cwd,
    transcriptPath: p.transcript_path,
    permissionMode: p.permission_mode,
    agentId: p.agent_id,
    agentType: p.agent_type,
  });

  if (TOOL_EVENTS.has(name)) {
    if (!p.tool_name) return { ok: false, reason: `${name} payload has no tool_name` };
    event.tool = { name: p.tool_name, kind: toolKindOf(p.tool_name), input: p.tool_input ?? {} };
    const operation = isdlcOperationOf(p.tool_name);
    if (operation) event.tool.operation = operation;
    if (p.tool_use_id) event.tool.useId = p.tool_use_id;
    if (name === 'PostToolUse') event.outcome = successOutcome(p);
    if (name === 'PostToolUseFailure') event.outcome = failureOutcome(p);
    if (event.outcome && p.duration_ms !== undefined) event.outcome.durationMs = p.duration_ms;
  }
  if (name === 'Stop' || name === 'SubagentStop') {
    event.stop = { hookActive: p.stop_hook_active === true };
    const last = textOf(p.last_assistant_message);
    if (last) event.stop.lastMessage = last;
  }
  if (name === 'UserPromptSubmit' && p.prompt !== undefined) {
    // Claude Code submits a background task's end as a prompt; guards must never read it as the user's words.
    const notification = taskNotificationOf(p.prompt);
    if (notification) event.notification = notification;
    else event.prompt = p.prompt;
  }
  if (name === 'UserPromptExpansion') {
    event.expansion = { command: p.command_name ?? '', args: p.command_args ?? '' };
  }
  if (name === 'SessionStart' && p.source) event.source = p.source;
  return { ok: true, event };
}

function assignDefined<T extends object>(target: T, values: Partial<T>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}

function successOutcome(p: Payload): ToolOutcome {
  // `tool_result` is what the earlier JavaScript framework read; Claude Code sends `tool_response`.
  const response = p.tool_response !== undefined ? p.tool_response : p.tool_result;
  const record = recordOrUndefined(response);
  const outcome: ToolOutcome = {
    failed: false,
    text: textOf(response),
    interrupted: record?.['interrupted'] === true,
    backgrounded: record?.['status'] === 'async_launched' || typeof record?.['backgroundTaskId'] === 'string',
  };
  const kind = p.tool_name ? toolKindOf(p.tool_name) : 'other';
  if (kind === 'agent' && typeof record?.['agentId'] === 'string' && record['agentId'] !== '') outcome.agentId = record['agentId'];
  // A synchronous run's result counts its tool calls (a background launch's has no count yet).
  const toolCalls = kind === 'agent' ? countOf(record?.['totalToolUseCount']) : undefined;
  if (toolCalls !== undefined) outcome.toolCalls = toolCalls;
  if (kind === 'shell') {
    const changes = fileChangesOf(record?.['bashEditDiff']);
    if (changes) outcome.fileChanges = changes;
    const exitCode = p.tool_response !== undefined ? shellExitCode(record, outcome.text) : legacyExitCode(record, outcome.text);
    if (exitCode !== undefined) outcome.exitCode = exitCode;
  }
  return outcome;
}

/** An exit status a response names itself (the JavaScript framework's `{output, exitCode}` and the like). */
function namedExitCode(record: Record<string, unknown> | undefined): number | undefined {
  for (const key of ['exitCode', 'exit_code', 'code']) {
    const value = record?.[key];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  return undefined;
}

/**
 * A shell command's exit status on PostToolUse. Claude Code's own shell result (`stdout` and `interrupted`,
 * no exit code) arrives only for a command that exited 0: a failing one fires PostToolUseFailure instead.
 * Any other shape says its status itself, or it is unknown.
 */
function shellExitCode(record: Record<string, unknown> | undefined, text: string): number | undefined {
  const named = namedExitCode(record);
  if (named !== undefined) return named;
  if (typeof record?.['stdout'] === 'string' && typeof record['interrupted'] === 'boolean') return 0;
  return legacyExitCode(undefined, text);
}

const LEGACY_FAILED_EXIT = /^Exit code (-?\d+)\s*$|\bexited with code ([1-9]\d*)\b/im;

/**
 * The legacy `tool_result` (what the JavaScript framework read) carries no exit status: only one it names,
 * or a failing one its text states. Never 0 by default: a pass must then come from the output itself.
 */
function legacyExitCode(record: Record<string, unknown> | undefined, text: string): number | undefined {
  const named = namedExitCode(record);
  if (named !== undefined) return named;
  const match = LEGACY_FAILED_EXIT.exec(text);
  const code = match ? Number(match[1] ?? match[2]) : undefined;
  return code !== undefined && code !== 0 ? code : undefined;
}

/**
 * Claude Code 2.1.332's `bashEditDiff`: `{files: [{filePath, hunks, created?, deleted?}], moreFiles, changedFiles}`.
 * `changedFiles` may name files `files` leaves out; both are taken.
 */
function fileChangesOf(value: unknown): FileChanges | undefined {
  const diff = recordOrUndefined(value);
  if (!diff) return undefined;
  const byPath = new Map<string, FileChange>();
  for (const item of Array.isArray(diff['files']) ? diff['files'] : []) {
    const file = recordOrUndefined(item);
    const path = file?.['filePath'];
    if (!file || typeof path !== 'string' || path === '') continue;
    const change: FileChange = { path };
    if (file['created'] === true) change.created = true;
    if (file['deleted'] === true) change.deleted = true;
    const lines = (Array.isArray(file['hunks']) ? file['hunks'] : []).flatMap((hunk) => {
      const hunkLines = recordOrUndefined(hunk)?.['lines'];
      return Array.isArray(hunkLines) ? hunkLines.filter((line): line is string => typeof line === 'string') : [];
    });
    if (lines.length > 0) change.lines = lines;
    byPath.set(path, change);
  }
  let namedOnlyInChangedFiles = 0;
  for (const path of Array.isArray(diff['changedFiles']) ? diff['changedFiles'] : []) {
    if (typeof path !== 'string' || path === '' || byPath.has(path)) continue;
    byPath.set(path, { path });
    namedOnlyInChangedFiles += 1;
  }
  // `moreFiles` counts the changed files left out of `files`; those `changedFiles` names are not unknown.
  const more = diff['moreFiles'];
  const unlisted = typeof more === 'number' && Number.isFinite(more) ? Math.max(0, Math.floor(more) - namedOnlyInChangedFiles) : 0;
  if (byPath.size === 0 && unlisted === 0) return undefined;
  return { files: [...byPath.values()], unlisted };
}

const TASK_NOTIFICATION = /^\s*<task-notification>/;

/** A `<task-notification>` prompt, or undefined for anything a person could have typed. */
function taskNotificationOf(prompt: string): HostNotification | undefined {
  if (!TASK_NOTIFICATION.test(prompt)) return undefined;
  const notification: HostNotification = { kind: 'task', text: prompt };
  const taskId = /<task-id>\s*([^<\s]+)\s*<\/task-id>/.exec(prompt)?.[1];
  const status = /<status>\s*([^<\s]+)\s*<\/status>/.exec(prompt)?.[1];
  if (taskId) notification.taskId = taskId;
  if (status) notification.status = status;
  const toolUses = countOf(/<tool_uses>\s*(\d+)\s*<\/tool_uses>/.exec(prompt)?.[1]);
  if (toolUses !== undefined) notification.toolUses = toolUses;
  return notification;
}

/** A non-negative whole number, from a number or its digits. */
function countOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

const EXIT_CODE_LINE = /^Exit code (-?\d+)\s*(?:\r?\n|$)/;

function failureOutcome(p: Payload): ToolOutcome {
  const errorText = textOf(p.error);
  const match = EXIT_CODE_LINE.exec(errorText);
  const outcome: ToolOutcome = {
    failed: true,
    text: match ? errorText.slice(match[0].length) : errorText,
    interrupted: p.is_interrupt === true,
    backgrounded: false,
  };
  if (match) outcome.exitCode = Number(match[1]);
  return outcome;
}

/** The readable text inside a tool response, whatever its shape. */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join('\n');
  const record = recordOrUndefined(value);
  if (!record) return asText(value);
  if (typeof record['stdout'] === 'string' || typeof record['stderr'] === 'string') {
    return [record['stdout'], record['stderr']].filter((s) => typeof s === 'string' && s !== '').join('\n');
  }
  if (typeof record['text'] === 'string') return record['text'];
  if ('content' in record) return textOf(record['content']);
  if (typeof record['result'] === 'string') return record['result'];
  return JSON.stringify(value);
}

/** Claude Code shows at most 10,000 characters of a hook's text fields. */
export const HOST_TEXT_LIMIT = 10_000;

function capText(text: string): string {
  if (text.length <= HOST_TEXT_LIMIT) return text;
  const marker = '\n[... cut by isdlc to fit the host limit]';
  return text.slice(0, HOST_TEXT_LIMIT - marker.length) + marker;
}

const CONTEXT_EVENTS = new Set<HookEventName>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'SessionStart', 'UserPromptSubmit', 'UserPromptExpansion']);

/** The decision as Claude Code's wire carries it: a PreToolUse deny is `deny`, any other deny is `block`. */
export function claudeCodeDecision(eventName: HookEventName, verdict: Verdict): 'allow' | 'deny' | 'block' {
  if (!verdict.deny) return 'allow';
  return eventName === 'PreToolUse' ? 'deny' : 'block';
}

/**
 * The JSON Claude Code honours for a verdict, or '' for a plain allow. Never `continue: false`
 * (that halts the whole agent and tells only the user), and `permissionDecision: "allow"` only to carry
 * a rewritten input, which Claude Code ignores without it.
 */
export function renderClaudeCodeVerdict(eventName: HookEventName, verdict: Verdict): string {
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const context = verdict.notes.join('\n\n');

  if (verdict.deny) {
    const reason = capText(verdict.deny.reason);
    if (claudeCodeDecision(eventName, verdict) === 'deny') {
      specific['permissionDecision'] = 'deny';
      specific['permissionDecisionReason'] = reason;
    } else {
      out['decision'] = 'block';
      out['reason'] = reason;
    }
  } else if (verdict.updatedInput && eventName === 'PreToolUse') {
    // Claude Code applies updatedInput only beside an allow. Deny and ask rules still apply after a hook's
    // allow, so the user's own permission rules keep their say; this is the one place isdlc says allow.
    specific['permissionDecision'] = 'allow';
    specific['updatedInput'] = verdict.updatedInput;
  }
  if (context && CONTEXT_EVENTS.has(eventName)) specific['additionalContext'] = capText(context);
  if (Object.keys(specific).length > 0) out['hookSpecificOutput'] = { hookEventName: eventName, ...specific };
  if (verdict.userMessages.length > 0) out['systemMessage'] = capText(verdict.userMessages.join('\n'));
  return Object.keys(out).length > 0 ? JSON.stringify(out) : '';
}
