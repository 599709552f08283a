import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandRule, ValidationContext } from '../types.js';
import { runCommandRule } from './command.js';
import { goneWithin } from '../../../test/helpers/processes.js';

const rule = (command: string | string[], fields: Partial<CommandRule> = {}): CommandRule => ({
  type: 'command',
  name: 'rule',
  enabled: true,
  command,
  expectedExitCode: 0,
  timeoutSeconds: 30,
  ...fields,
});

const readPid = (root: string) => Number(readFileSync(join(root, 'child.pid'), 'utf8').trim());

describe.skipIf(process.platform === 'win32')('runCommandRule', () => {
  let root: string;
  let ctx: ValidationContext;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'loop-command-')));
    mkdirSync(join(root, 'pkg'));
    ctx = { root, agentOutput: '' };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  describe('exit codes', () => {
    const rows: { name: string; rule: CommandRule; passed: boolean; errored: boolean; exitCode: number | null; message: RegExp }[] = [
      { name: 'exit 0 passes', rule: rule('echo hello', { name: 'tests_pass' }), passed: true, errored: false, exitCode: 0, message: /^tests_pass: `echo hello` exited 0 as expected$/ },
      { name: 'a non-zero exit fails and says what would pass', rule: rule('exit 1', { name: 'tests_pass' }), passed: false, errored: false, exitCode: 1, message: /^tests_pass: `exit 1` exited 1 \(expected 0\)$/ },
      { name: 'an expected non-zero exit passes', rule: rule('exit 3', { expectedExitCode: 3 }), passed: true, errored: false, exitCode: 3, message: /exited 3 as expected/ },
      { name: 'exit 0 fails when 3 is expected', rule: rule('true', { expectedExitCode: 3 }), passed: false, errored: false, exitCode: 0, message: /exited 0 \(expected 3\)/ },
      { name: 'a name equal to the command is not repeated', rule: rule('exit 2', { name: 'exit 2' }), passed: false, errored: false, exitCode: 2, message: /^`exit 2` exited 2 \(expected 0\)$/ },
      { name: 'a program the shell cannot find (127) is errored', rule: rule('no-such-program-4711 --flag'), passed: false, errored: true, exitCode: 127, message: /exited 127: the shell could not find a program it was asked to run \(.*no-such-program-4711.*\)/ },
      { name: 'an argv program that does not exist is errored', rule: rule(['no-such-program-4711', 'x']), passed: false, errored: true, exitCode: null, message: /could not be started: program "no-such-program-4711" not found/ },
      { name: 'a program killed by a signal fails', rule: rule('kill -9 $$'), passed: false, errored: false, exitCode: null, message: /was killed by SIGKILL/ },
    ];
    it.each(rows)('$name', async ({ rule, passed, errored, exitCode, message }) => {
      const result = await runCommandRule(rule, ctx);
      expect(result).toMatchObject({ name: rule.name, type: 'command', passed, errored, exitCode });
      expect(result.message).toMatch(message);
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    });
  });

  it('an argument vector runs without a shell: spaces and $ stay in their argument', async () => {
    const result = await runCommandRule(rule([process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', 'a b', '$HOME']), ctx);
    expect(result.passed).toBe(true);
    expect(result.outputTail).toBe('["a b","$HOME"]');
  });

  it('runs in the root, or in cwd under it, with colour switched off', async () => {
    const script = 'pwd; echo "$FORCE_COLOR/$NO_COLOR"';
    expect((await runCommandRule(rule(script), ctx)).outputTail).toBe(`${root}\n0/1`);
    expect((await runCommandRule(rule(script, { cwd: 'pkg' }), ctx)).outputTail).toBe(`${join(root, 'pkg')}\n0/1`);
  });

  it.each([
    { cwd: '..', message: /was not run: its cwd ".." is outside the project root/ },
    { cwd: '/etc', message: /outside the project root/ },
    { cwd: 'missing', message: /is not a directory in the project/ },
  ])('refuses cwd $cwd', async ({ cwd, message }) => {
    const result = await runCommandRule(rule('true', { cwd }), ctx);
    expect(result).toMatchObject({ passed: false, errored: true });
    expect(result.message).toMatch(message);
  });

  it('keeps stdout and stderr', async () => {
    const result = await runCommandRule(rule('echo to-stdout; echo to-stderr >&2; exit 1'), ctx);
    expect(result.outputTail?.split('\n').sort()).toEqual(['to-stderr', 'to-stdout']);
  });

  it('keeps only the tail of the output, colour codes removed', async () => {
    const script = [
      'let out = "";',
      'for (let i = 0; i < 5000; i++) out += "line " + i + " " + "x".repeat(50) + "\\n";',
      'process.stdout.write(out + "\\u001b[31mred at the end\\u001b[0m\\n");',
      'process.exitCode = 1;',
    ].join('\n');
    const result = await runCommandRule(rule([process.execPath, '-e', script]), ctx);
    const tail = result.outputTail ?? '';
    expect(result.passed).toBe(false);
    expect(tail.length).toBeLessThanOrEqual(4000);
    expect(tail.split('\n').length).toBeLessThanOrEqual(41);
    expect(tail.startsWith('…\n')).toBe(true);
    expect(tail).toContain('line 4999');
    expect(tail.endsWith('line 4999 ' + 'x'.repeat(50) + '\nred at the end')).toBe(true);
    expect(tail).not.toContain('\u001b');
  });

  it('a timeout kills the whole process group, grandchildren included', async () => {
    const started = Date.now();
    const result = await runCommandRule(rule('sleep 30 & echo $! > child.pid; sleep 30', { timeoutSeconds: 1 }), ctx);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ passed: false, errored: true, timedOut: true });
    expect(result.message).toMatch(/was still running at its timeout of 1 s and was stopped/);
    expect(await goneWithin(readPid(root), 3_000)).toBe(true);
  });

  it('a grandchild that ignores SIGTERM gets SIGKILL', async () => {
    const started = Date.now();
    const command = `sh -c 'trap "" TERM; echo $$ > child.pid; exec sleep 30' & sleep 30`;
    const result = await runCommandRule(rule(command, { timeoutSeconds: 1 }), ctx);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result).toMatchObject({ errored: true, timedOut: true });
    expect(await goneWithin(readPid(root), 3_000)).toBe(true);
  });

  it('what a finished command leaves running in its group is stopped, without waiting for it', async () => {
    const started = Date.now();
    const result = await runCommandRule(rule('sleep 30 & echo $! > child.pid; echo done'), ctx);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({ passed: true, exitCode: 0, outputTail: 'done' });
    expect(await goneWithin(readPid(root), 3_000)).toBe(true);
  });

  it('stops at the validation deadline when it comes before the timeout', async () => {
    const started = Date.now();
    const result = await runCommandRule(rule('sleep 30'), ctx, { deadline: Date.now() + 500 });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result).toMatchObject({ errored: true, timedOut: true });
    expect(result.message).toMatch(/at the validation deadline/);
  });

  it('is not run once the deadline has passed', async () => {
    const result = await runCommandRule(rule('touch ran.txt'), ctx, { deadline: Date.now() - 1 });
    expect(result).toMatchObject({ passed: false, errored: true });
    expect(result.message).toMatch(/deadline had passed/);
    expect(statSync(join(root, 'ran.txt'), { throwIfNoEntry: false })).toBeUndefined();
  });
});
