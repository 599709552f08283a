// Claude Code's tools by name, as the canonical kinds the guards see. Its own module: the executable reads
// it too (to pick a hook bundle's code cache), and the executable is kept small.
import type { ToolKind } from '../../events/hook-event.js';

export const TOOL_KIND_BY_NAME: Readonly<Record<string, ToolKind>> = Object.freeze({
  Agent: 'agent',
  Task: 'agent', // the subagent tool's name before Claude Code 2.1.63
  Skill: 'skill',
  Bash: 'shell',
  PowerShell: 'shell',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'notebook',
  Read: 'read',
  Glob: 'read',
  Grep: 'read',
  LS: 'read',
});

/** `tool_name` read straight from a payload's bytes, without parsing the rest. */
export function peekToolName(bytes: Buffer): string | undefined {
  const at = bytes.indexOf('"tool_name"');
  if (at < 0) return undefined;
  return /^"tool_name"\s*:\s*"([\w-]+)"/.exec(bytes.toString('latin1', at, at + 120))?.[1];
}
