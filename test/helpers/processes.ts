// Whether a process is still running, for tests that check a timeout stopped everything it should.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Alive and not a zombie (a killed process may wait a moment for a parent that never reaps it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

export async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/**
 * The processes (host pids, Linux) that have `arg` as one of their arguments. A command in an OS sandbox
 * has pids of its own namespace, so `$!` written from inside names nothing here: tests mark the processes
 * they start with an unusual argument (`sleep 30.4711`) and look for that instead.
 */
export function pidsWithArg(arg: string): number[] {
  if (process.platform !== 'linux') {
    // No /proc: ps lists the same (arguments joined by spaces, which the marks never hold).
    const listed = spawnSync('ps', ['-A', '-o', 'pid=', '-o', 'args='], { encoding: 'utf8' }).stdout ?? '';
    return listed
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null && match[2]!.split(/\s+/).includes(arg))
      .map((match) => Number(match[1]))
      .filter((pid) => isAlive(pid));
  }
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (args.includes(arg) && isAlive(Number(entry))) pids.push(Number(entry));
  }
  return pids;
}

export async function noneWithArgWithin(arg: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (pidsWithArg(arg).length === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return pidsWithArg(arg).length === 0;
}
