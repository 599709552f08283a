// A reader that goes away before the output ends (`isdlc doctor | head -1`): the command still does its
// work and exits as it would have, and says nothing about the pipe. The read end is closed before the
// process writes anything, so every run meets the closed pipe.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, initedProject } from '../helpers/project.js';

interface Ending {
  code: number | null;
  stderr: string;
}

/** Runs `isdlc …` with its stdout read by nobody, or by us when `read` is set. */
function run(args: string[], options: { input?: string; read: boolean; env?: NodeJS.ProcessEnv }): Promise<Ending & { stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    if (options.read) child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    else child.stdout.destroy();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, stdout }));
    child.stdin.end(options.input ?? '');
  });
}

describe('a closed pipe on stdout', () => {
  const project = initedProject('isdlc-closed-pipe-');

  it.each([
    ['doctor', ['doctor', project]],
    ['config list', ['config', 'list', '--dir', project]],
    ['status --json', ['status', '--json', '--dir', project]],
    ['--help', ['--help']],
  ])('%s: the same exit status, no error, no stack', async (_name, args) => {
    const read = await run(args, { read: true });
    expect(read.stdout.length).toBeGreaterThan(0);
    const closed = await run(args, { read: false });
    expect(closed.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(closed.stderr).toBe(read.stderr);
    expect(closed.code).toBe(read.code);
  });

  it('a command whose output nobody reads still does its work', async () => {
    const closed = await run(['workflow', 'start', 'feature', '--description', 'Nobody reads this', '--dir', project], { read: false });
    expect(closed.stderr).not.toMatch(/EPIPE/);
    expect(closed.code).toBe(0);
    const status = await run(['status', '--json', '--dir', project], { read: true });
    expect(JSON.parse(status.stdout)).toMatchObject({ workflow: { type: 'feature', description: 'Nobody reads this' } });
  });

  it('the hook, answering a host that is gone, exits quietly and logs no internal error', async () => {
    const payload = JSON.stringify({
      session_id: 's-closed-pipe',
      transcript_path: '',
      cwd: project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      // A command only a person may run: the hook answers with a word about it on stdout.
      tool_input: { command: 'node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation' },
      tool_use_id: 'toolu_closed_pipe',
    });
    const hook = join(project, '.isdlc/bin/isdlc.cjs');
    const closed = await new Promise<Ending>((resolve, reject) => {
      const child = spawn(process.execPath, [hook, 'hook'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, CLAUDE_PROJECT_DIR: project } });
      let stderr = '';
      child.stdout.destroy();
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end(payload);
    });
    expect(closed.stderr).toBe('');
    expect(closed.code).toBe(0);
    const log = readFileSync(join(project, '.isdlc/hook-activity.log'), 'utf8');
    expect(log).toMatch(/human-only-commands/);
    expect(log).not.toMatch(/internal|EPIPE/);
  });
});
