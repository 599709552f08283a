// A `command` rule: run a program in the project and compare its exit code. The program leads its own
// process group, so a timeout stops everything it started (a killed shell whose test runner lived on was
// one of the prior implementation's faults), and whatever it leaves behind is stopped when it exits.
// It runs in the OS sandbox with isdlc's files read-only (command-sandbox.ts): bubblewrap stays in that
// process group, and a sandbox whose command has ended takes everything still in it along.
import type { OsSandboxSupport } from '../../sandbox/os-sandbox.js';
import { describeCommand } from '../describe.js';
import type { CommandRule, RuleResult, ValidationContext } from '../types.js';
import { launchCommand, readOnlyNote, sandboxFailure, signalOfExitCode } from './command-sandbox.js';
import { resolveInsideRoot, statIfPresent } from './inside-root.js';
import { invocation, runGroup, type GroupOutcome } from '../../util/process-group.js';

export interface CommandLimits {
  /** Epoch milliseconds by which the command must have finished, whatever its own timeout. */
  deadline?: number | undefined;
  /** The sandbox to run in; by default the one this machine has (ruleSandbox). */
  sandbox?: OsSandboxSupport | undefined;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

export async function runCommandRule(rule: CommandRule, ctx: ValidationContext, limits: CommandLimits = {}): Promise<RuleResult> {
  const shown = describeCommand(rule.command);
  const subject = rule.name === shown ? `\`${shown}\`` : `${rule.name}: \`${shown}\``;
  const started = Date.now();
  const result = (fields: Omit<RuleResult, 'name' | 'type' | 'durationMs'>): RuleResult => ({
    name: rule.name,
    type: 'command',
    ...fields,
    durationMs: Date.now() - started,
  });
  const errored = (message: string): RuleResult => result({ passed: false, errored: true, message: `${subject} ${message}` });

  const cwd = resolveInsideRoot(ctx.root, rule.cwd ?? '.');
  if (!cwd.ok) return errored(`was not run: its cwd ${cwd.reason}`);
  if (!statIfPresent(cwd.path)?.isDirectory()) {
    return errored(`was not run: its cwd ${JSON.stringify(rule.cwd)} is not a directory in the project`);
  }

  const ownLimit = rule.timeoutSeconds * 1000;
  const left = limits.deadline === undefined ? Infinity : limits.deadline - started;
  if (left <= 0) return errored('was not run: the validation deadline had passed');
  const limitMs = Math.min(ownLimit, left);

  const { file, args, verbatim } = invocation(rule.command);
  const launch = launchCommand({ file, args, cwd: cwd.path }, ctx, limits.sandbox);
  if (!launch.ok) return errored(launch.message);
  let outcome: GroupOutcome;
  try {
    outcome = await runGroup(launch.invocation, verbatim, limitMs);
  } finally {
    launch.release();
  }

  const { code, signal, timedOut, spawnError, outputTail } = outcome;
  const withOutput = (fields: Omit<RuleResult, 'name' | 'type' | 'durationMs'>) => result({ ...fields, ...(outputTail !== '' ? { outputTail } : {}) });

  if (spawnError && !outcome.started) {
    const program = typeof rule.command === 'string' ? file : rule.command[0];
    const why =
      spawnError.code === 'ENOENT'
        ? `program ${JSON.stringify(program)} not found (is it installed and on PATH?)`
        : spawnError.code === 'EACCES'
          ? `program ${JSON.stringify(program)} is not executable`
          : spawnError.message;
    return withOutput({ passed: false, errored: true, exitCode: null, message: `${subject} could not be started: ${why}` });
  }
  if (timedOut) {
    const which = limitMs < ownLimit ? `the validation deadline (${seconds(limitMs)})` : `its timeout of ${seconds(ownLimit)}`;
    return withOutput({
      passed: false,
      errored: true,
      timedOut: true,
      exitCode: code,
      message: `${subject} was still running at ${which} and was stopped with every process it started`,
    });
  }
  if (code === null) {
    return withOutput({
      passed: false,
      errored: false,
      exitCode: null,
      message: `${subject} was killed by ${signal ?? 'a signal'} (expected exit code ${rule.expectedExitCode})`,
    });
  }
  if (typeof rule.command === 'string' && (code === 127 || code === 126) && code !== rule.expectedExitCode) {
    const lastLine = outputTail.split('\n').at(-1)?.trim();
    const what = code === 127 ? 'the shell could not find a program it was asked to run' : 'the shell found a program it could not execute';
    return withOutput({
      passed: false,
      errored: true,
      exitCode: code,
      message: `${subject} exited ${code}: ${what}${lastLine ? ` (${lastLine.slice(0, 200)})` : ''}`,
    });
  }
  const notStarted = launch.sandboxed && code !== rule.expectedExitCode ? sandboxFailure(code, outputTail) : undefined;
  if (notStarted) return withOutput({ passed: false, errored: true, exitCode: code, message: `${subject} could not be started: ${notStarted}` });
  const passed = code === rule.expectedExitCode;
  if (passed) return withOutput({ passed, errored: false, exitCode: code, message: `${subject} exited ${code} as expected` });
  // Inside the sandbox a program killed by a signal shows as 128 + n, the way a shell reports it.
  const killedBy = launch.sandboxed ? signalOfExitCode(code) : undefined;
  const expected = `expected ${rule.expectedExitCode}${killedBy ? `; the exit code of a program killed by ${killedBy}` : ''}`;
  return withOutput({
    passed,
    errored: false,
    exitCode: code,
    message: `${subject} exited ${code} (${expected})${launch.sandboxed ? readOnlyNote(outputTail) : ''}`,
  });
}
