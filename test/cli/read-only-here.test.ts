// Inside Claude Code's sandbox `.isdlc/` is mounted read-only for the agent's shell. The same mount made
// here with bubblewrap (what Claude Code uses on Linux): every isdlc command that would write fails,
// changes nothing, and says what works instead.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, cli, initedProject } from '../helpers/project.js';

function inReadOnlySandbox(project: string, args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string } {
  const isdlcDir = join(project, '.isdlc');
  const run = spawnSync('bwrap', ['--dev-bind', '/', '/', '--ro-bind', isdlcDir, isdlcDir, '--', process.execPath, BIN, ...args, '--dir', project], {
    encoding: 'utf8',
    env: cleanEnv(env),
  });
  return { status: run.status, stderr: run.stderr };
}

describe("isdlc commands where isdlc's files are read-only", () => {
  const project = initedProject();
  expect(cli(['workflow', 'start', 'feature', '--dir', project, '--description', 'x']).status).toBe(0);
  const state = (): string => readFileSync(join(project, '.isdlc', 'state.json'), 'utf8');

  it.each([
    [['phase', 'activate'], 'mcp__isdlc__phase_activate'],
    [['phase', 'complete', '--summary', 'done'], 'mcp__isdlc__phase_complete'],
    [['constitution', 'record', '--article', 'I', '--result', 'compliant'], 'mcp__isdlc__constitution_record'],
    [['workflow', 'cancel', '--reason', 'no'], 'mcp__isdlc__workflow_cancel'],
    [['escalations', '--clear'], 'mcp__isdlc__escalations_clear'],
  ])('%j points the agent to %s and changes nothing', (args, tool) => {
    const before = state();
    const run = inReadOnlySandbox(project, args);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("isdlc's files are read-only here");
    expect(run.stderr).toContain(`Use the isdlc MCP tool ${tool} instead`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(state()).toBe(before);
  });

  it.each([[['escalation', 'approve', '--phase', '00-quick-scan']], [['phase', 'skip', '--reason', 'because']]])(
    '%j, run without CLAUDECODE, says it is a decision for a person and changes nothing',
    (args) => {
      const before = state();
      const run = inReadOnlySandbox(project, args);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('It is a decision for a person: ask the user to run it in their own terminal');
      expect(state()).toBe(before);
    },
  );

  const readOnly = (args: string[]) =>
    spawnSync(
      'bwrap',
      ['--dev-bind', '/', '/', '--ro-bind', join(project, '.isdlc'), join(project, '.isdlc'), '--', process.execPath, BIN, ...args, '--dir', project],
      { encoding: 'utf8', env: cleanEnv() },
    );

  it('uninstall and loop cancel, whose refusals look different (EBUSY, SQLite), say the same', () => {
    const isdlcDir = join(project, '.isdlc');
    const settings = join(project, '.claude', 'settings.json');
    const uninstall = spawnSync(
      'bwrap',
      ['--dev-bind', '/', '/', '--ro-bind', isdlcDir, isdlcDir, '--ro-bind', settings, settings, '--', process.execPath, BIN, 'uninstall', project],
      { encoding: 'utf8', env: cleanEnv() },
    );
    expect(uninstall.status).toBe(1);
    expect(uninstall.stderr).toContain('It is a decision for a person');
    expect(cli(['loop', 'start', '--rule', 'true', 'Stay green', '--dir', project]).status).toBe(0);
    const cancel = inReadOnlySandbox(project, ['loop', 'cancel']);
    expect(cancel.status).toBe(1);
    expect(cancel.stderr).toContain('It is a decision for a person');
    expect(cancel.stderr).not.toMatch(/\n\s+at /);
  });

  it('reading still works: the status, and the loops (a WAL store read from a copy)', () => {
    const status = readOnly(['status']);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain('Current phase: 00-quick-scan');
    expect(cli(['loop', 'start', '--rule', 'true', 'Keep it green', '--dir', project]).status).toBe(0);
    const loops = readOnly(['loop', 'status']);
    expect(loops.status, loops.stderr).toBe(0);
    expect(loops.stdout).toMatch(/^L-\w+ +active +iteration 1 of 10 +task T-\w+ "Keep it green"/m);
  });
});
