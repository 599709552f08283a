// A `command` rule: run a program in the project and compare its exit code. The program leads its own
// process group, so a timeout stops everything it started (a killed shell whose test runner lived on was
// one of the prior implementation's faults), and whatever it leaves behind is stopped when it exits.
// It runs in the OS sandbox with isdlc's files read-only (command-sandbox.ts): bubblewrap stays in that
// process group, and a sandbox whose command has ended takes everything still in it along.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { Invocation, OsSandboxSupport } from '../../protect/os-sandbox.js';
import { describeCommand } from '../describe.js';
import type { CommandRule, RuleResult, ValidationContext } from '../types.js';
import { launchCommand, readOnlyNote, sandboxFailure, signalOfExitCode } from './command-sandbox.js';
import { resolveInsideRoot, statIfPresent } from './inside-root.js';
import { OutputTail } from './output-tail.js';

/** Loaded on first use (about 2 ms): a Stop hook with no loop of its session never runs a rule. */
const childProcess = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process');

/** Between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** How long to wait for the output pipes to close once the program has exited. */
const CLOSE_GRACE_MS = 500;

export interface CommandLimits {
  /** Epoch milliseconds by which the command must have finished, whatever its own timeout. */
  deadline?: number | undefined;
  /** The sandbox to run in; by default the one this machine has (ruleSandbox). */
  sandbox?: OsSandboxSupport | undefined;
}

const IS_WINDOWS = process.platform === 'win32';

function invocation(command: string | string[]): { file: string; args: string[]; verbatim: boolean } {
  if (typeof command !== 'string') {
    const [file = '', ...args] = command;
    return { file, args, verbatim: false };
  }
  if (IS_WINDOWS) return { file: 'cmd.exe', args: ['/d', '/s', '/c', `"${command}"`], verbatim: true };
  return { file: '/bin/sh', args: ['-c', command], verbatim: false };
}

/** Signals the program's whole process group (on Windows, its process tree). Whether anything was there. */
function signalGroup(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  if (IS_WINDOWS) {
    if (child.exitCode !== null || child.signalCode !== null) return false;
    childProcess().spawnSync('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    return true;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a Linux process group has a member that is not a zombie. A killed orphan stays a zombie until
 * PID 1 reaps it, and in a container PID 1 often never does: such a group is gone for our purposes.
 */
function groupHasLivingMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // After the command name in parentheses: state, ppid, pgrp, ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Whether anything of the program's process group is still running. */
function groupAlive(child: ChildProcess): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  if (IS_WINDOWS) return child.exitCode === null && child.signalCode === null;
  try {
    process.kill(-pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return process.platform === 'linux' ? groupHasLivingMember(pid) : true;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

interface GroupOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Whether a process was made at all. */
  started: boolean;
  spawnError?: NodeJS.ErrnoException;
  outputTail: string;
}

/** Runs a program as the leader of its own process group, keeps the tail of its output, and stops the whole group at `limitMs`. */
async function runGroup(run: Invocation, verbatim: boolean, limitMs: number): Promise<GroupOutcome> {
  const tail = new OutputTail();
  let child: ChildProcess;
  try {
    child = childProcess().spawn(run.file, run.args, {
      cwd: run.cwd,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: !IS_WINDOWS,
      windowsHide: true,
      windowsVerbatimArguments: verbatim,
    });
  } catch (error) {
    return { code: null, signal: null, timedOut: false, started: false, spawnError: error as NodeJS.ErrnoException, outputTail: '' };
  }
  for (const stream of [child.stdout, child.stderr]) {
    const decoder = new StringDecoder('utf8');
    stream?.on('data', (chunk: Buffer) => tail.push(decoder.write(chunk)));
    stream?.on('end', () => tail.push(decoder.end()));
  }

  const outcome = await new Promise<Omit<GroupOutcome, 'started' | 'outputTail'>>(
    (resolve) => {
      let timedOut = false;
      let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
      let spawnError: NodeJS.ErrnoException | undefined;
      let termSentAt: number | undefined;
      let settled = false;
      const timers = new Set<NodeJS.Timeout>();
      const later = (ms: number, run: () => void) => timers.add(setTimeout(run, ms));

      const terminate = () => {
        if (termSentAt !== undefined) return;
        termSentAt = Date.now();
        signalGroup(child, 'SIGTERM');
        later(KILL_GRACE_MS, () => signalGroup(child, 'SIGKILL'));
      };

      const settle = async () => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        // Whatever is left of the group gets the rest of its grace, then SIGKILL, before we report.
        if (termSentAt !== undefined && groupAlive(child)) {
          const until = termSentAt + KILL_GRACE_MS;
          while (Date.now() < until && groupAlive(child)) await sleep(50);
          signalGroup(child, 'SIGKILL');
        }
        child.stdout?.destroy();
        child.stderr?.destroy();
        resolve({ code: exited?.code ?? null, signal: exited?.signal ?? null, timedOut, ...(spawnError ? { spawnError } : {}) });
      };

      const timeout = setTimeout(() => {
        timedOut = true;
        terminate();
        // If the program cannot even be killed (stuck in the kernel), report anyway.
        later(KILL_GRACE_MS + 1_500, () => void settle());
      }, limitMs);
      timers.add(timeout);

      child.on('error', (error: NodeJS.ErrnoException) => {
        spawnError = error;
        if (child.pid === undefined) void settle();
      });
      child.on('exit', (code, signal) => {
        exited = { code, signal };
        clearTimeout(timeout);
        // Anything the program left running in its group is stopped too.
        if (groupAlive(child)) terminate();
        // A process outside the group may hold the pipes open: do not wait for it for ever.
        later(termSentAt !== undefined ? KILL_GRACE_MS + CLOSE_GRACE_MS : CLOSE_GRACE_MS, () => void settle());
      });
      child.on('close', () => void settle());
    },
  );
  return { ...outcome, started: child.pid !== undefined, outputTail: tail.render() };
}

export async function runCommandRule(
  rule: CommandRule,
  ctx: ValidationContext,
  limits: CommandLimits = {},
): Promise<RuleResult> {
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
  const withOutput = (fields: Omit<RuleResult, 'name' | 'type' | 'durationMs'>) =>
    result({ ...fields, ...(outputTail !== '' ? { outputTail } : {}) });

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
