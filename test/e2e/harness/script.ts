// The tool calls a scripted model makes, written the way Claude Code's tools take them.
import type { Reply, ToolCall } from './mock-api.js';

export const ISDLC_CMD = 'node .isdlc/bin/isdlc.cjs';

export function bash(command: string, extra: Record<string, unknown> = {}): ToolCall {
  return { name: 'Bash', input: { command, description: 'scripted step', ...extra } };
}

export function write(filePath: string, content: string): ToolCall {
  return { name: 'Write', input: { file_path: filePath, content } };
}

export function edit(filePath: string, oldString: string, newString: string): ToolCall {
  return { name: 'Edit', input: { file_path: filePath, old_string: oldString, new_string: newString } };
}

/** A delegation; Claude Code 2.1.198+ runs it in the background unless `run_in_background: false`. */
export function agent(subagentType: string, prompt: string, extra: Record<string, unknown> = {}): ToolCall {
  return { name: 'Agent', input: { description: `work for ${subagentType}`, prompt, subagent_type: subagentType, ...extra } };
}

export function skill(name: string, args: string): ToolCall {
  return { name: 'Skill', input: { skill: name, args } };
}

/** One of isdlc's MCP tools, by its short name (`phase_complete`). */
export function isdlcTool(name: string, input: Record<string, unknown> = {}): ToolCall {
  return { name: `mcp__isdlc__${name}`, input };
}

/** 2.1.332 defers MCP tools behind a tool search: a conversation loads their schemas first. */
export function loadIsdlcTools(...names: string[]): Reply {
  return call({ name: 'ToolSearch', input: { query: `select:${names.map((name) => `mcp__isdlc__${name}`).join(',')}` } });
}

export function call(...tools: ToolCall[]): Reply {
  return { tools };
}

export function say(text: string): Reply {
  return { text };
}

/** Prompts that begin with `prefix` (a subagent's delegation prompt, whatever isdlc appended to it). */
export function startsWith(prefix: string): (firstPrompt: string) => boolean {
  return (firstPrompt) => firstPrompt.trimStart().startsWith(prefix);
}
