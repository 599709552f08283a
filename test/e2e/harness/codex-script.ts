// The output items a scripted model sends Codex, written the way Codex's tools take them. A call's
// `call_id` is made by the mock unless given (the hooks see it as `tool_use_id`).
import type { CodexReply, OutputItem } from './codex-mock-api.js';

export { say } from './codex-mock-api.js';

/** A shell command through `exec_command` (the hooks see `tool_name: "Bash"`). */
export function shell(cmd: string, extra: Record<string, unknown> = {}): OutputItem {
  return { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd, ...extra }) };
}

/**
 * An interactive shell (`exec_command` with `tty`): Codex answers with a session id the model then types
 * into with `writeStdin`. `yield_time_ms` is how long Codex waits for output before answering.
 */
export function ttyShell(cmd: string, extra: Record<string, unknown> = {}): OutputItem {
  return shell(cmd, { tty: true, yield_time_ms: 500, ...extra });
}

/** Characters typed into an interactive shell `ttyShell` started (its session id is in that call's output). */
export function writeStdin(sessionId: number, chars: string, extra: Record<string, unknown> = {}): OutputItem {
  return { type: 'function_call', name: 'write_stdin', arguments: JSON.stringify({ session_id: sessionId, chars, yield_time_ms: 500, ...extra }) };
}

/** The `apply_patch` tool, a custom (freeform) tool: its input is the raw patch. */
export function applyPatch(patch: string): OutputItem {
  return { type: 'custom_tool_call', name: 'apply_patch', input: patch };
}

/** A patch adding one file (`path` relative to the working folder). */
export function addFile(path: string, content: string): string {
  const lines = content.replace(/\n$/, '').split('\n');
  return ['*** Begin Patch', `*** Add File: ${path}`, ...lines.map((line) => `+${line}`), '*** End Patch'].join('\n');
}

/** A patch replacing lines of an existing file. */
export function updateFile(path: string, oldLines: string[], newLines: string[]): string {
  return [
    '*** Begin Patch',
    `*** Update File: ${path}`,
    '@@',
    ...oldLines.map((line) => `-${line}`),
    ...newLines.map((line) => `+${line}`),
    '*** End Patch',
  ].join('\n');
}

/** A tool of an MCP server `[mcp_servers.<server>]` declares: the server's namespace and the tool's bare name. */
export function mcpTool(server: string, tool: string, args: Record<string, unknown> = {}): OutputItem {
  return { type: 'function_call', namespace: `mcp__${server}`, name: tool, arguments: JSON.stringify(args) };
}

/** Several calls in one reply (Codex runs them, then sends their outputs in one request). */
export function call(...items: OutputItem[]): CodexReply {
  return { items };
}

/** The session id Codex gave an interactive shell, from the text of that call's output. */
export function shellSession(output: string | undefined): number {
  const match = /session ID (\d+)/i.exec(output ?? '');
  if (!match) throw new Error(`no session id in: ${output ?? '(no output)'}`);
  return Number(match[1]);
}

/** Codex's client-side tool search (how the model finds deferred tools: MCP servers' and the subagent tools). */
export function toolSearch(query: string): OutputItem {
  return { type: 'tool_search_call', execution: 'client', arguments: { query } };
}

/**
 * A subagent (`spawn_agent` of the deferred `multi_agent_v1` namespace; callable without a search first).
 * `agent_type` names a role: `default`, `explorer`, `worker`, or one a `.codex/agents/<name>.toml` defines.
 */
export function spawnAgent(message: string, extra: Record<string, unknown> = {}): OutputItem {
  return { type: 'function_call', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: JSON.stringify({ message, ...extra }) };
}

/** Waits for subagents to finish (their ids are in the `spawn_agent` outputs). */
export function waitAgent(ids: string[], timeoutMs = 10_000): OutputItem {
  return { type: 'function_call', namespace: 'multi_agent_v1', name: 'wait_agent', arguments: JSON.stringify({ targets: ids, timeout_ms: timeoutMs }) };
}

/** The id of the agent a `spawn_agent` call started, from that call's output (`{"agent_id": …, "nickname": …}`). */
export function spawnedAgentId(output: string | undefined): string {
  const parsed = JSON.parse(output ?? '{}') as { agent_id?: unknown };
  if (typeof parsed.agent_id !== 'string') throw new Error(`no agent id in: ${output ?? '(no output)'}`);
  return parsed.agent_id;
}
