// The canonical shapes every guard sees. Only host adapters know a wire format; nothing in here does.

export const HOOK_EVENT_NAMES = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'UserPromptSubmit',
  'UserPromptExpansion',
] as const;

export type HookEventName = (typeof HOOK_EVENT_NAMES)[number];

export function isHookEventName(value: unknown): value is HookEventName {
  return typeof value === 'string' && (HOOK_EVENT_NAMES as readonly string[]).includes(value);
}

/**
 * `isdlc`: one of isdlc's own operations, called through its MCP server (the operation is in `ToolCall.operation`).
 * `patch`: one edit of several files at once (a unified patch), the files in `ToolCall.paths`.
 */
export const TOOL_KINDS = ['agent', 'skill', 'shell', 'write', 'edit', 'notebook', 'patch', 'read', 'isdlc', 'other'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

export interface ToolCall {
  /** The host's own tool name, e.g. `Agent`, `Task`, `Bash`. */
  name: string;
  kind: ToolKind;
  input: Record<string, unknown>;
  useId?: string;
  /** Kind `isdlc`: which of isdlc's MCP tools (`phase_complete`, `loop_start`, ...). */
  operation?: string;
  /** Kind `patch`: every file it adds, changes, deletes, or moves from or to, as the patch names them. */
  paths?: string[];
}

/** What a tool produced, on PostToolUse and PostToolUseFailure. */
export interface ToolOutcome {
  failed: boolean;
  /** The text the tool produced (stdout and stderr for shells, the error text on failure). */
  text: string;
  /**
   * Known only when the host reports it: a failed shell command's `Exit code N`, 0 for a host's own
   * shell result on PostToolUse, a code the response names. Absent means unknown, never 0.
   */
  exitCode?: number;
  interrupted: boolean;
  /** The tool was launched in the background and has not finished yet. */
  backgrounded: boolean;
  /** How long the tool ran, when the host says. */
  durationMs?: number;
  /** A subagent tool's result: the subagent's id, which its SubagentStop carries as `agentId` (also for a background launch). */
  agentId?: string;
  /** A synchronous subagent's result: how many tool calls the subagent made, as the host counted them. */
  toolCalls?: number;
  /** A wait for subagents: those it says have ended, by the id their SubagentStop carries as `agentId`. */
  endedAgents?: string[];
  /** A shell command's result: the files it changed, when the host reports them. */
  fileChanges?: FileChanges;
}

/** One file a command changed, as the host saw it. */
export interface FileChange {
  /** Absolute, as the host gives it. */
  path: string;
  created?: boolean;
  deleted?: boolean;
  /** Unified-diff lines of the change (`+`, `-`, ` ` prefixed), when the host sends them. */
  lines?: string[];
}

/**
 * The files a command changed. The host only reports files its own diff sees: Claude Code leaves out what
 * git ignores and anything outside the project, so this is a signal, never a complete account.
 */
export interface FileChanges {
  files: FileChange[];
  /** Files the host counted as changed but did not list. */
  unlisted: number;
}

/** Something the host submitted as a prompt that nobody typed (a background task's end). */
export interface HostNotification {
  kind: 'task';
  /** The background task (a subagent's id) the notification is about. */
  taskId?: string;
  /** completed, failed, killed, ... as the host says. */
  status?: string;
  /** How many tool calls the background task made, as the host counted them. */
  toolUses?: number;
  text: string;
}

export interface StopInfo {
  /** The host is already continuing because a Stop hook blocked before. */
  hookActive: boolean;
  lastMessage?: string;
}

export interface HookEvent {
  name: HookEventName;
  /** The id of the agent host that sent the call (`claude-code`, `codex`). */
  host?: string;
  sessionId?: string;
  cwd?: string;
  transcriptPath?: string;
  permissionMode?: string;
  /** Set when the event fired inside a subagent. */
  agentId?: string;
  agentType?: string;
  tool?: ToolCall;
  outcome?: ToolOutcome;
  stop?: StopInfo;
  /** UserPromptSubmit: what the user typed. Never set for a prompt the host made up itself (see notification). */
  prompt?: string;
  /** UserPromptSubmit: the host reported something (a background task ended); nobody typed it. */
  notification?: HostNotification;
  /** UserPromptExpansion: a slash command the user typed. */
  expansion?: { command: string; args: string };
  /** SessionStart: startup, resume, clear, compact, fork. */
  source?: string;
}
