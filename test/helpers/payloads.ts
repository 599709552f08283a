// Hook payloads shaped exactly like the recorded ones in test/fixtures/payloads (same fields, same
// nesting), with the parts a test varies filled in. Skill calls have no recording; they follow the
// documented `{skill, args}` input.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES } from './project.js';

type Payload = Record<string, unknown>;

function recorded(name: string): Payload {
  return JSON.parse(readFileSync(join(FIXTURES, 'payloads', name), 'utf8')) as Payload;
}

export function agentCall(project: string, input: Payload): Payload {
  const payload = recorded('pre-agent.json');
  return { ...payload, cwd: project, tool_input: { description: 'Phase work', prompt: 'Carry out the work.', ...input } };
}

export function agentResult(project: string, input: Payload, resultText: string): Payload {
  const payload = recorded('post-agent-completed.json');
  const response = payload['tool_response'] as Payload;
  return {
    ...payload,
    cwd: project,
    tool_input: { description: 'Phase work', prompt: 'Carry out the work.', ...input },
    tool_response: { ...response, agentType: input['subagent_type'] ?? 'general-purpose', content: [{ type: 'text', text: resultText }] },
  };
}

export function skillCall(project: string, skill: string, args: string): Payload {
  const payload = recorded('pre-bash.json');
  return { ...payload, cwd: project, tool_name: 'Skill', tool_input: { skill, args } };
}

export function bashCall(project: string, command: string): Payload {
  const payload = recorded('pre-bash.json');
  return { ...payload, cwd: project, tool_input: { command, description: 'Run a command' } };
}

/** A command that exited 0: PostToolUse with stdout and stderr. */
export function bashPassed(project: string, command: string, stdout: string, stderr = ''): Payload {
  const payload = recorded('post-bash.json');
  return {
    ...payload,
    cwd: project,
    tool_input: { command, description: 'Run a command' },
    tool_response: { ...(payload['tool_response'] as Payload), stdout, stderr },
  };
}

/** A command that exited non-zero: PostToolUseFailure, `Exit code N` then the output. */
export function bashFailed(project: string, command: string, exitCode: number, output: string): Payload {
  const payload = recorded('post-failure-bash.json');
  return { ...payload, cwd: project, tool_input: { command, description: 'Run a command' }, error: `Exit code ${exitCode}\n${output}` };
}

export function stop(project: string, lastMessage: string): Payload {
  return { ...recorded('stop.json'), cwd: project, last_assistant_message: lastMessage };
}

export function userPrompt(project: string, prompt: string): Payload {
  return { ...recorded('user-prompt-submit.json'), cwd: project, prompt };
}

/** A runner's recorded output from test/fixtures/runners. */
export function runnerOutput(runner: string, scenario: string): string {
  return readFileSync(join(FIXTURES, 'runners', runner, `${scenario}.txt`), 'utf8');
}

/** A Write about to happen: the recorded PostToolUse Write without its result, as PreToolUse sends it. */
export function writeCall(project: string, filePath: string, content: string): Payload {
  const { tool_response: _result, duration_ms: _ms, ...payload } = recorded('post-write.json');
  return { ...payload, hook_event_name: 'PreToolUse', cwd: project, tool_input: { file_path: filePath, content } };
}

/** An Edit about to happen (from the recorded Windows PostToolUse Edit, without its result). */
export function editCall(project: string, filePath: string, oldString: string, newString: string, replaceAll = false): Payload {
  const { tool_response: _result, duration_ms: _ms, ...payload } = recorded('post-edit-windows.json');
  return {
    ...payload,
    hook_event_name: 'PreToolUse',
    cwd: project,
    tool_input: { file_path: filePath, old_string: oldString, new_string: newString, replace_all: replaceAll },
  };
}

/** A Write or Edit that has happened. */
export function writeDone(project: string, filePath: string, content: string): Payload {
  const payload = recorded('post-write.json');
  return {
    ...payload,
    cwd: project,
    tool_input: { file_path: filePath, content },
    tool_response: { ...(payload['tool_response'] as Payload), filePath, content },
  };
}

/** Recorded from Claude Code 2.1.332 (test/fixtures/payloads/claude-code-2.1.332). */
export function recorded332(name: string): Payload {
  return recorded(`claude-code-2.1.332/${name}`);
}

/** The `<task-notification>` Claude Code submits as a prompt when a background agent ends, with its result text replaced. */
export function taskNotification(project: string, result: string): Payload {
  const payload = recorded332('user-prompt-task-notification.json');
  return { ...payload, cwd: project, prompt: String(payload['prompt']).replace(/<result>[\s\S]*?<\/result>/, () => `<result>${result}</result>`) };
}

/** Where the 2.1.332 recordings were made; tests move them into their own project. */
export const RECORDED_332_PROJECT = '/tmp/exp/rec-332/proj';

/** A recorded 2.1.332 payload with every path under the recording's project moved under `project`. */
export function recorded332In(name: string, project: string): Payload {
  const text = JSON.stringify(recorded332(name)).split(RECORDED_332_PROJECT).join(project);
  return { ...(JSON.parse(text) as Payload), cwd: project };
}

export interface EditedFile {
  /** Relative to the project. */
  path: string;
  created?: boolean;
  deleted?: boolean;
  lines?: string[];
}

/**
 * A Bash command that exited 0 and changed files: the recorded 2.1.332 PostToolUse with its
 * `bashEditDiff` listing `files` (absolute paths under `project`, as Claude Code sends them).
 */
export function bashEdited(project: string, command: string, files: EditedFile[], stdout = ''): Payload {
  const payload = recorded332In('post-bash-edit-diff.json', project);
  const response = payload['tool_response'] as Payload;
  const absolute = (path: string) => `${project}/${path}`;
  return {
    ...payload,
    tool_input: { command, description: 'Run a command' },
    tool_response: {
      ...response,
      stdout,
      bashEditDiff: {
        files: files.map((file) => ({
          filePath: absolute(file.path),
          hunks: file.lines ? [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: file.lines }] : [],
          ...(file.created ? { created: true } : {}),
          ...(file.deleted ? { deleted: true } : {}),
        })),
        moreFiles: 0,
        changedFiles: files.map((file) => absolute(file.path)),
      },
    },
  };
}

/**
 * The PostToolUse of one of isdlc's MCP tools as Claude Code 2.1.332 sends it (recorded): the tool's answer
 * as its one text block; from the main agent, or from inside the recorded subagent (environment-builder).
 */
export function isdlcToolResult(project: string, tool: string, answer: Record<string, unknown>, from: 'main' | 'subagent' = 'main'): Payload {
  const payload = recorded332In(from === 'main' ? 'post-mcp-phase-complete.json' : 'post-mcp-constitution-record-subagent.json', project);
  return { ...payload, tool_name: `mcp__isdlc__${tool}`, tool_input: {}, tool_response: [{ type: 'text', text: JSON.stringify(answer) }] };
}

/**
 * A file the subagent of `result` (an agentResult) wrote with Write during its run, as the host sends it
 * from inside that run: the call, then its result. The work a phase's delegation counts.
 */
export function subagentWrite(project: string, result: Payload, file = 'notes/work.md'): Payload[] {
  const response = result['tool_response'] as Payload;
  const inside = { agent_id: String(response['agentId']), agent_type: String(response['agentType']) };
  return [
    { ...writeCall(project, join(project, file), 'work\n'), ...inside },
    { ...writeDone(project, join(project, file), 'work\n'), ...inside },
  ];
}

/** A Read that has happened: the tool's result as the host sends it. */
export function readDone(project: string, filePath: string, content = ''): Payload {
  const payload = recorded('post-write.json');
  return {
    ...payload,
    cwd: project,
    tool_name: 'Read',
    tool_input: { file_path: filePath },
    tool_response: { type: 'text', file: { filePath, content, numLines: content.split('\n').length, startLine: 1, totalLines: content.split('\n').length } },
  };
}

/** A reviewer's run reading `files` (relative to the project): its first call opens the run, then each Read's result. */
export function reviewerReads(project: string, reviewer: { agent_id: string; agent_type: string }, files: readonly string[]): Payload[] {
  const inside = { agent_id: reviewer.agent_id, agent_type: reviewer.agent_type };
  const opening = { ...recorded('pre-bash.json'), cwd: project, tool_input: { command: 'git diff --stat' }, ...inside };
  return [opening, ...files.map((file) => ({ ...readDone(project, join(project, file)), ...inside }))];
}
