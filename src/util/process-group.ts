// Running a program as the leader of its own process group: its output's tail kept in bounded memory,
// and at a time limit the whole group stopped, everything it started included (a killed shell whose test
// runner lived on was one of the prior implementation's faults). Used by loop `command` rules and by the
// gate's own test run.
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { OutputTail } from './output-tail.js';

/** A program to start: what runGroup runs, and what an OS sandbox wraps around a command. */
export interface Invocation {
  file: string;
  args: string[];
  cwd: string;
}

/** Loaded on first use (about 2 ms): a Stop hook with no loop of its session never runs a rule. */
const childProcess = (): typeof import('node:child_process') => process.getBuiltinModule('node:child_process');

/** Between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** How long to wait for the output pipes to close once the program has exited. */
const CLOSE_GRACE_MS = 500;

export const IS_WINDOWS = process.platform === 'win32';

export function invocation(command: string | string[]): { file: string; args: string[]; verbatim: boolean } {
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

export interface GroupOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Whether a process was made at all. */
  started: boolean;
  spawnError?: NodeJS.ErrnoException;
  outputTail: string;
}

/** Runs a program as the leader of its own process group, keeps the tail of its output, and stops the whole group at `limitMs`. */
export interface GroupOptions {
  /** Sees every chunk of output as it comes (the gate's run digests all of it, not only the tail). */
  onOutput?: (chunk: Buffer) => void;
  /** How many characters of output to hold for the tail. */
  keep?: number;
  /** How the tail is rendered: at most this many lines and characters. */
  render?: { lines: number; chars: number };
  /** The program's whole environment; by default this process's, with colours off. */
  env?: NodeJS.ProcessEnv;
}

export async function runGroup(run: Invocation, verbatim: boolean, limitMs: number, options: GroupOptions = {}): Promise<GroupOutcome> {
  const tail = new OutputTail(options.keep);
  let child: ChildProcess;
  try {
    child = childProcess().spawn(run.file, run.args, {
      cwd: run.cwd,
      env: options.env ?? { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
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
    stream?.on('data', (chunk: Buffer) => {
      options.onOutput?.(chunk);
      tail.push(decoder.write(chunk));
    });
    stream?.on('end', () => tail.push(decoder.end()));
  }

  const outcome = await new Promise<Omit<GroupOutcome, 'started' | 'outputTail'>>((resolve) => {
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
  });
  return { ...outcome, started: child.pid !== undefined, outputTail: options.render ? tail.render(options.render.lines, options.render.chars) : tail.render() };
}
