import { EXAMPLE_GUARDED } from '../../../test/helpers/hosts.js';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeOsSandbox, type OsSandboxSupport } from '../../sandbox/os-sandbox.js';
import type { CommandRule, ValidationContext } from '../types.js';
import { runCommandRule } from './command.js';
import { noneWithArgWithin, pidsWithArg } from '../../../test/helpers/processes.js';

const PROTECT = EXAMPLE_GUARDED.protectedPaths();

const rule = (command: string | string[], fields: Partial<CommandRule> = {}): CommandRule => ({
  type: 'command',
  name: 'rule',
  enabled: true,
  command,
  expectedExitCode: 0,
  timeoutSeconds: 30,
  ...fields,
});

const NO_SANDBOX: OsSandboxSupport = { ok: false, why: 'none in this test' };
const here = probeOsSandbox();

/** A `sleep` that can be found from outside whatever pid namespace it runs in. */
let marks = 0;
const marked = (): string => `30.${process.pid}${(marks += 1)}`;

// Every rule behaves the same with and without the OS sandbox, but for how a signal shows (128 + n) and
// who reports a missing program (bubblewrap, not the spawn).
describe
  .skipIf(process.platform === 'win32')
  .each([
    { label: 'without an OS sandbox, approved by a person', sandbox: NO_SANDBOX, sandboxed: false },
    ...(here.ok ? [{ label: `in the OS sandbox (${here.kind})`, sandbox: here as OsSandboxSupport, sandboxed: true }] : []),
  ])('runCommandRule $label', ({ sandbox, sandboxed }) => {
  let root: string;
  let ctx: ValidationContext;
  const run = (command: CommandRule, limits: { deadline?: number } = {}) => runCommandRule(command, ctx, { ...limits, sandbox });
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'loop-command-')));
    mkdirSync(join(root, 'pkg'));
    mkdirSync(join(root, '.isdlc'));
    ctx = { root, protect: PROTECT, agentOutput: '', loop: { id: 'L-0123456789', approvedByPerson: true } };
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  describe('exit codes', () => {
    const rows: { name: string; rule: CommandRule; passed: boolean; errored: boolean; exitCode: number | null; message: RegExp }[] = [
      {
        name: 'exit 0 passes',
        rule: rule('echo hello', { name: 'tests_pass' }),
        passed: true,
        errored: false,
        exitCode: 0,
        message: /^tests_pass: `echo hello` exited 0 as expected$/,
      },
      {
        name: 'a non-zero exit fails and says what would pass',
        rule: rule('exit 1', { name: 'tests_pass' }),
        passed: false,
        errored: false,
        exitCode: 1,
        message: /^tests_pass: `exit 1` exited 1 \(expected 0\)$/,
      },
      {
        name: 'an expected non-zero exit passes',
        rule: rule('exit 3', { expectedExitCode: 3 }),
        passed: true,
        errored: false,
        exitCode: 3,
        message: /exited 3 as expected/,
      },
      {
        name: 'exit 0 fails when 3 is expected',
        rule: rule('true', { expectedExitCode: 3 }),
        passed: false,
        errored: false,
        exitCode: 0,
        message: /exited 0 \(expected 3\)/,
      },
      {
        name: 'a name equal to the command is not repeated',
        rule: rule('exit 2', { name: 'exit 2' }),
        passed: false,
        errored: false,
        exitCode: 2,
        message: /^`exit 2` exited 2 \(expected 0\)$/,
      },
      {
        name: 'a program the shell cannot find (127) is errored',
        rule: rule('no-such-program-4711 --flag'),
        passed: false,
        errored: true,
        exitCode: 127,
        message: /exited 127: the shell could not find a program it was asked to run \(.*no-such-program-4711.*\)/,
      },
      {
        name: 'an argv program that does not exist is errored',
        rule: rule(['no-such-program-4711', 'x']),
        passed: false,
        errored: true,
        exitCode: sandboxed ? 1 : null,
        message: /could not be started: program "no-such-program-4711" not found/,
      },
      {
        name: 'a program killed by a signal fails',
        rule: rule('kill -9 $$'),
        passed: false,
        errored: false,
        exitCode: sandboxed ? 137 : null,
        message: sandboxed ? /exited 137 \(expected 0; the exit code of a program killed by SIGKILL\)$/ : /was killed by SIGKILL/,
      },
    ];
    it.each(rows)('$name', async ({ rule, passed, errored, exitCode, message }) => {
      const result = await run(rule);
      expect(result).toMatchObject({ name: rule.name, type: 'command', passed, errored, exitCode });
      expect(result.message).toMatch(message);
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    });
  });

  it('an argument vector runs without a shell: spaces and $ stay in their argument', async () => {
    const result = await run(rule([process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', 'a b', '$HOME']));
    expect(result.passed).toBe(true);
    expect(result.outputTail).toBe('["a b","$HOME"]');
  });

  it('runs in the root, or in cwd under it, with colour switched off', async () => {
    const script = 'pwd; echo "$FORCE_COLOR/$NO_COLOR"';
    expect((await run(rule(script))).outputTail).toBe(`${root}\n0/1`);
    expect((await run(rule(script, { cwd: 'pkg' }))).outputTail).toBe(`${join(root, 'pkg')}\n0/1`);
  });

  it.each([
    { cwd: '..', message: /was not run: its cwd ".." is outside the project root/ },
    { cwd: '/etc', message: /outside the project root/ },
    { cwd: 'missing', message: /is not a directory in the project/ },
  ])('refuses cwd $cwd', async ({ cwd, message }) => {
    const result = await run(rule('true', { cwd }));
    expect(result).toMatchObject({ passed: false, errored: true });
    expect(result.message).toMatch(message);
  });

  it('keeps stdout and stderr', async () => {
    const result = await run(rule('echo to-stdout; echo to-stderr >&2; exit 1'));
    expect(result.outputTail?.split('\n').sort()).toEqual(['to-stderr', 'to-stdout']);
  });

  it('keeps only the tail of the output, colour codes removed', async () => {
    const script = [
      'let out = "";',
      'for (let i = 0; i < 5000; i++) out += "line " + i + " " + "x".repeat(50) + "\\n";',
      'process.stdout.write(out + "\\u001b[31mred at the end\\u001b[0m\\n");',
      'process.exitCode = 1;',
    ].join('\n');
    const result = await run(rule([process.execPath, '-e', script]));
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
    const mark = marked();
    const started = Date.now();
    const running = run(rule(`sleep ${mark} & sleep ${mark}`, { timeoutSeconds: 1 }));
    // The mark is seen from here while the rule runs, so its absence afterwards means something.
    await expect.poll(() => pidsWithArg(mark).length, { timeout: 900, interval: 20 }).toBe(2);
    const result = await running;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({ passed: false, errored: true, timedOut: true });
    expect(result.message).toMatch(/was still running at its timeout of 1 s and was stopped/);
    expect(await noneWithArgWithin(mark, 3_000)).toBe(true);
  });

  it('a grandchild that ignores SIGTERM gets SIGKILL', async () => {
    const mark = marked();
    const started = Date.now();
    const command = `sh -c 'trap "" TERM; exec sleep ${mark}' & sleep 30`;
    const result = await run(rule(command, { timeoutSeconds: 1 }));
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result).toMatchObject({ errored: true, timedOut: true });
    expect(await noneWithArgWithin(mark, 3_000)).toBe(true);
  });

  it('what a finished command leaves running in its group is stopped, without waiting for it', async () => {
    const mark = marked();
    const started = Date.now();
    const result = await run(rule(`sleep ${mark} & echo done`));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toMatchObject({ passed: true, exitCode: 0, outputTail: 'done' });
    expect(await noneWithArgWithin(mark, 3_000)).toBe(true);
  });

  it.runIf(sandboxed)('a process that left the group (setsid) goes with the sandbox when the command ends', async () => {
    const mark = marked();
    const result = await run(rule(`setsid sleep ${mark} > /dev/null 2>&1 < /dev/null & sleep 0.3; echo done`));
    expect(result).toMatchObject({ passed: true, outputTail: 'done' });
    expect(await noneWithArgWithin(mark, 3_000)).toBe(true);
  });

  it.runIf(sandboxed)('a timeout also stops what left the group', async () => {
    const mark = marked();
    const result = await run(rule(`setsid sleep ${mark} > /dev/null 2>&1 < /dev/null & sleep 30`, { timeoutSeconds: 1 }));
    expect(result).toMatchObject({ errored: true, timedOut: true });
    expect(await noneWithArgWithin(mark, 3_000)).toBe(true);
  });

  it('stops at the validation deadline when it comes before the timeout', async () => {
    const started = Date.now();
    const result = await run(rule('sleep 30'), { deadline: Date.now() + 500 });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result).toMatchObject({ errored: true, timedOut: true });
    expect(result.message).toMatch(/at the validation deadline/);
  });

  it('is not run once the deadline has passed', async () => {
    const result = await run(rule('touch ran.txt'), { deadline: Date.now() - 1 });
    expect(result).toMatchObject({ passed: false, errored: true });
    expect(result.message).toMatch(/deadline had passed/);
    expect(statSync(join(root, 'ran.txt'), { throwIfNoEntry: false })).toBeUndefined();
  });
});

describe.skipIf(process.platform === 'win32')("runCommandRule and a person's approval", () => {
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'loop-approval-')));
    mkdirSync(join(root, '.isdlc'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('without a sandbox, a rule nobody approved is not run, and says what the person runs', async () => {
    const result = await runCommandRule(
      rule('touch ran.txt'),
      { root, protect: PROTECT, agentOutput: '', loop: { id: 'L-0123456789', approvedByPerson: false } },
      { sandbox: NO_SANDBOX },
    );
    expect(result).toMatchObject({ passed: false, errored: true });
    expect(result.message).toBe(
      "rule: `touch ran.txt` was not run: waiting for a person's approval: run `isdlc loop approve L-0123456789` in your own terminal " +
        "(no OS sandbox here to keep it off isdlc's files: none in this test)",
    );
    expect(statSync(join(root, 'ran.txt'), { throwIfNoEntry: false })).toBeUndefined();
  });

  it('without a loop to name, it still says what unblocks it', async () => {
    const result = await runCommandRule(rule('true'), { root, protect: PROTECT, agentOutput: '' }, { sandbox: NO_SANDBOX });
    expect(result.message).toMatch(/run `isdlc loop approve L-…` in your own terminal/);
  });

  it.runIf(here.ok)('in the sandbox no approval is needed', async () => {
    const result = await runCommandRule(
      rule('touch ran.txt'),
      { root, protect: PROTECT, agentOutput: '', loop: { id: 'L-0123456789', approvedByPerson: false } },
      { sandbox: here },
    );
    expect(result).toMatchObject({ passed: true });
    expect(statSync(join(root, 'ran.txt')).isFile()).toBe(true);
  });
});
