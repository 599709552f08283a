// What Claude Code's sandbox costs per Bash call, measured with the real Claude Code: the same calls in a
// project `isdlc init` set up with the sandbox and in one set up with `--no-sandbox`. A measurement, not a
// check: it runs only with ISDLC_E2E_COST=1 and prints its figures (docs/sandbox.md has them).
import { expect, test } from 'vitest';
import { bash, call, say } from './harness/script.js';
import { activity, e2eProject, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

const CALLS = 15;
const COMMANDS = ['true', 'node -e 0'];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

interface Figures {
  /** From the PreToolUse hook's log line to the PostToolUse hook's: the command itself, as Claude Code runs it. */
  tool: number;
  /** From one request of the model to the next: the whole round, hooks and Claude Code's own work included. */
  round: number;
}

async function measure(initArgs: string[]): Promise<{ byCommand: Record<string, Figures>; sessionMs: number }> {
  const project = e2eProject({ initArgs });
  const turns = COMMANDS.flatMap((command) => Array.from({ length: CALLS }, () => call(bash(command))));
  const run = await runClaude(project, { prompt: 'Go.', timeoutMs: 180_000, scripts: [{ name: 'main', turns: [...turns, say('Done.')] }] });
  expect(run.exitCode, run.stderr).toBe(0);
  const bashEntries = activity(project).filter((entry) => entry.tool === 'Bash' && (entry.event === 'PreToolUse' || entry.event === 'PostToolUse'));
  const tool: number[] = [];
  for (let i = 0; i + 1 < bashEntries.length; i += 2) {
    expect([bashEntries[i]!.event, bashEntries[i + 1]!.event]).toEqual(['PreToolUse', 'PostToolUse']);
    tool.push(Date.parse(String(bashEntries[i + 1]!['ts'])) - Date.parse(String(bashEntries[i]!['ts'])));
  }
  const requests = run.api.conversation('main');
  const rounds = requests.slice(1).map((request, i) => request.at! - requests[i]!.at!);
  const byCommand: Record<string, Figures> = {};
  COMMANDS.forEach((command, index) => {
    const range = [index * CALLS, (index + 1) * CALLS] as const;
    byCommand[command] = { tool: median(tool.slice(...range)), round: median(rounds.slice(...range)) };
  });
  return { byCommand, sessionMs: run.ms };
}

test.skipIf(process.env['ISDLC_E2E_COST'] !== '1')(
  `a sandboxed Bash call against an unsandboxed one (median of ${CALLS} each)`,
  async () => {
    const sandboxed = await measure([]);
    const plain = await measure(['--no-sandbox']);
    const rows = COMMANDS.map((command) => ({
      command,
      'tool, sandboxed (ms)': sandboxed.byCommand[command]!.tool,
      'tool, not sandboxed (ms)': plain.byCommand[command]!.tool,
      'round, sandboxed (ms)': sandboxed.byCommand[command]!.round,
      'round, not sandboxed (ms)': plain.byCommand[command]!.round,
    }));
    console.table(rows);
    console.log(`whole session of ${CALLS * COMMANDS.length} calls: sandboxed ${sandboxed.sessionMs} ms, not sandboxed ${plain.sessionMs} ms`);
  },
  400_000,
);
