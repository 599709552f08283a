// One convention across the command line, through the built CLI: every command that works on a project
// takes --dir, every command that changes state takes --json, doctor's JSON says its overall result as
// its exit status does, and the exit statuses are the ones --help and the README list.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustedHome, withClaude } from '../helpers/claude-code.js';
import { cli, initedProject, readJson, tempDir, writeJson } from '../helpers/project.js';
import { testRecord, withTests, workflowState } from '../helpers/states.js';

/** The options a command's --help lists. */
function optionsOf(command: string[]): string[] {
  const help = cli([...command, '--help']);
  expect(help.status, `${command.join(' ')}: ${help.stderr}`).toBe(0);
  return [...help.stdout.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)].map((match) => match[1]!);
}

// Every command there is, from `isdlc --help` and each group's help: a new one must be placed here.
const READS = [
  ['status'],
  ['gate', 'check'],
  ['escalations'],
  ['gate-requirements'],
  ['delegation-prompt'],
  ['replay'],
  ['config', 'list'],
  ['config', 'show'],
  ['loop', 'status'],
  ['loop', 'claim'],
  ['changes', 'list'],
  ['tests', 'show'],
  ['doctor'],
];
const CHANGES = [
  ['init'],
  ['uninstall'],
  ['workflow', 'start'],
  ['workflow', 'finalize'],
  ['workflow', 'cancel'],
  ['constitution', 'record'],
  ['escalation', 'approve'],
  ['branch', 'acknowledge'],
  ['phase', 'activate'],
  ['phase', 'complete'],
  ['phase', 'skip'],
  ['phase', 'review'],
  ['loop', 'start'],
  ['loop', 'cancel'],
  ['loop', 'approve'],
  ['changes', 'accept'],
  ['changes', 'reject'],
  ['tests', 'accept'],
  ['config', 'set'],
  ['config', 'unset'],
];
// `hook` reads its project from the host (CLAUDE_PROJECT_DIR); `mcp` takes --dir too.
const OTHERS = [['hook'], ['mcp'], ['help']];

describe('every command', () => {
  it('is listed here: the lists cover what --help shows', () => {
    const top = (args: string[]): string[] =>
      [
        ...cli([...args, '--help'])
          .stdout.split('Commands:\n')[1]!
          .split('\n\n')[0]!
          .matchAll(/^ {2}([\w-]+)/gm),
      ]
        .map((match) => match[1]!)
        .filter((name) => name !== 'help');
    const shown = top([]).flatMap((name) => {
      const inner = cli([name, '--help']).stdout;
      return inner.includes('Commands:') ? top([name]).map((sub) => `${name} ${sub}`) : [name];
    });
    const listed = [...READS, ...CHANGES, ...OTHERS].map((command) => command.join(' '));
    expect(shown.filter((command) => !listed.includes(command))).toEqual([]);
  });

  it.each([...READS, ...CHANGES, ['mcp']].map((command) => [command.join(' '), command]))('%s takes --dir', (_name, command) => {
    expect(optionsOf(command)).toContain('--dir');
  });

  it.each(CHANGES.map((command) => [command.join(' '), command]))('%s, which changes state, takes --json', (_name, command) => {
    expect(optionsOf(command)).toContain('--json');
  });
});

describe('init, uninstall and doctor take the folder as their argument or as --dir', () => {
  it('init --dir sets up the folder it names, and uninstall --dir and doctor --dir work on it', () => {
    const dir = tempDir();
    const init = cli(['init', '--dir', dir, '--json']);
    expect(init.status, init.stderr).toBe(0);
    expect(existsSync(join(dir, '.isdlc/install.json'))).toBe(true);
    const doctor = cli(['doctor', '--dir', dir, '--json']);
    expect((JSON.parse(doctor.stdout) as { findings: unknown[] }).findings.length).toBeGreaterThan(0);
    // Both at once naming the same folder is fine.
    expect(cli(['doctor', dir, '--dir', join(dir, '.')]).stdout).toContain('.mcp.json starts the isdlc MCP server');
    const uninstall = cli(['uninstall', '--dir', dir, '--purge', '--json']);
    expect(uninstall.status, uninstall.stderr).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  it.each([['init'], ['uninstall'], ['doctor']])('%s refuses two different folders, with exit 2, and changes nothing', (command) => {
    const one = initedProject();
    const other = tempDir();
    const run = cli([command, one, '--dir', other]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`the project directory is given twice, as ${one} and as --dir ${other}: give one`);
    expect(readdirSync(other)).toEqual([]);
    expect(existsSync(join(one, '.isdlc/install.json'))).toBe(true);
  });
});

describe('--json of the commands that change state', () => {
  it('escalation approve prints the phase, what was approved and the state version', () => {
    const dir = initedProject();
    const phase = '06-implementation';
    writeJson(
      join(dir, '.isdlc/state.json'),
      withTests(
        workflowState('feature', phase),
        phase,
        testRecord('failed', 3, { status: 'escalated', completed: true, escalation_reason: 'circuit_breaker' }),
      ),
    );
    const run = cli(['escalation', 'approve', '--phase', phase, '--dir', dir, '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ phase, approved: ['test_iteration'], state_version: 8 });
  });

  it('branch acknowledge prints the acknowledged commits and the state version', () => {
    const dir = initedProject();
    const violation = {
      branch: 'main',
      rule: 'main',
      from: 'a'.repeat(40),
      to: 'b'.repeat(40),
      commits: [],
      commit_count: 1,
      phase: '06-implementation',
      workflow_started_at: '2026-11-25T10:00:00.000Z',
      detected_at: '2026-11-25T11:00:00.000Z',
    };
    writeJson(join(dir, '.isdlc/state.json'), { ...workflowState('feature', '06-implementation'), branch_violations: [violation] });
    const run = cli(['branch', 'acknowledge', '--note', 'reverted', '--dir', dir, '--json']);
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      acknowledged: [{ ...violation, acknowledged: { by: expect.any(String), at: expect.any(String), note: 'reverted' } }],
      state_version: 8,
    });
  });

  it('loop approve and loop cancel print the loop', () => {
    const dir = initedProject();
    // Rules the agent set wait for a person's approval.
    const start = cli(['loop', 'start', '--dir', dir, '--rule', 'npm test', '--json', 'Fix the build'], { env: { CLAUDECODE: '1' } });
    expect(start.status, start.stderr).toBe(0);
    const id = (JSON.parse(start.stdout) as { loop: { id: string } }).loop.id;
    const approve = cli(['loop', 'approve', id, '--dir', dir, '--json']);
    expect(approve.status, approve.stderr).toBe(0);
    expect(JSON.parse(approve.stdout)).toMatchObject({
      loop: { id, rulesApprovedBy: expect.stringContaining('isdlc loop approve') },
      rules: ['`npm test`'],
      approved: true,
      already: false,
    });
    expect(JSON.parse(cli(['loop', 'approve', id, '--dir', dir, '--json']).stdout)).toMatchObject({ approved: false, already: true });
    const cancel = cli(['loop', 'cancel', id, '--reason', 'done by hand', '--dir', dir, '--json']);
    expect(cancel.status, cancel.stderr).toBe(0);
    expect(JSON.parse(cancel.stdout)).toMatchObject({ loop: { id, status: 'cancelled' } });
  });
});

describe('doctor --json', () => {
  type Report = { ok: boolean; result: string; findings: { severity: string }[] };
  const doctor = (dir: string, env: Record<string, string> = {}): { status: number | null; report: Report } => {
    const run = cli(['doctor', dir, '--json'], { env });
    return { status: run.status, report: JSON.parse(run.stdout) as Report };
  };

  it('says pass, warn or fail as its findings and its exit status do', () => {
    const dir = tempDir();
    writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } });
    const claude = withClaude('2.1.332');
    expect(cli(['init', dir], { env: claude }).status).toBe(0);
    // No phase wants a mutation score here (16-quality-loop does by default, and Stryker is not installed).
    const lift = ['config', 'set', 'iteration-requirements', 'phase_requirements.16-quality-loop.test_iteration.success_criteria.min_mutation_score', 'null'];
    expect(cli([...lift, '--dir', dir]).status).toBe(0);
    const pass = doctor(dir, { ...claude, ...trustedHome(dir) });
    expect(pass).toMatchObject({ status: 0, report: { ok: true, result: 'pass' } });
    expect(pass.report.findings.every((finding) => finding.severity === 'ok')).toBe(true);
    // Not trusted yet: a warning, still exit 0.
    const warn = doctor(dir, { ...claude, HOME: tempDir('isdlc-home-'), CLAUDE_CONFIG_DIR: '' });
    expect(warn).toMatchObject({ status: 0, report: { ok: true, result: 'warn' } });
    expect(warn.report.findings.some((finding) => finding.severity === 'warn')).toBe(true);
    // A registration gone: a failure, exit 1.
    const settings = readJson<{ hooks: Record<string, unknown> }>(join(dir, '.claude/settings.json'));
    delete settings.hooks['Stop'];
    writeJson(join(dir, '.claude/settings.json'), settings);
    expect(doctor(dir, { ...claude, ...trustedHome(dir) })).toMatchObject({ status: 1, report: { ok: false, result: 'fail' } });
  });
});

describe('exit statuses', () => {
  it('0 done, 1 refused, 2 wrong usage: commander’s refusals included, as --help says', () => {
    const dir = initedProject();
    expect(cli(['status', '--dir', dir]).status).toBe(0);
    // No workflow: the gate of a named phase is closed.
    expect(cli(['gate', 'check', '--phase', '06-implementation', '--dir', dir]).status).toBe(1);
    expect(cli(['workflow', 'finalize', '--dir', dir]).status).toBe(1);
    for (const wrong of [
      ['status', '--bogus'],
      ['frobnicate'],
      ['workflow', 'start'],
      ['gate', 'check', '--phase', 'nope', '--dir', dir],
      ['init', dir, '--claude-version', 'latest'],
    ]) {
      const run = cli(wrong);
      expect(run.status, wrong.join(' ')).toBe(2);
      expect(run.stderr, wrong.join(' ')).not.toBe('');
    }
    const help = cli(['--help']).stdout;
    expect(help).toMatch(/Exit status:\n {2}0 {2}done[^\n]*\n {2}1 {2}refused or failed[\s\S]*\n {2}2 {2}wrong usage/);
  });
});

describe('isdlc mcp --help', () => {
  it("says it serves the workflow's and the loop's tools", () => {
    const help = cli(['mcp', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain("serve the workflow's and the loop's tools to the agent over MCP on stdio");
    expect(help).not.toContain('(loop tools)');
  });
});
