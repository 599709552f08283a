// Codex's tools by the names its hook payloads give them, as the canonical kinds the guards see. Its own
// module: the executable reads it too (to pick a hook bundle's code cache) and is kept small.
import type { ToolKind } from '../../events/hook-event.js';

export const SHELL_TOOL = 'Bash';
export const PATCH_TOOL = 'apply_patch';
/** A subagent: `agent_type` names its role, `message` (or `items`) its task; it answers at launch. */
export const SPAWN_TOOL = 'spawn_agent';
/** Waiting for subagents: its namespace and name run together, unlike spawn_agent's. */
export const WAIT_TOOL = 'multi_agent_v1wait_agent';

export const CODEX_TOOL_KIND_BY_NAME: Readonly<Record<string, ToolKind>> = Object.freeze({
  [SHELL_TOOL]: 'shell',
  [PATCH_TOOL]: 'patch',
  [SPAWN_TOOL]: 'agent',
});

/** `tool_name` read straight from a payload's bytes, without parsing the rest. */
export function peekCodexToolName(bytes: Buffer): string | undefined {
  const at = bytes.indexOf('"tool_name"');
  if (at < 0) return undefined;
  return /^"tool_name"\s*:\s*"([\w-]+)"/.exec(bytes.toString('latin1', at, at + 120))?.[1];
}
