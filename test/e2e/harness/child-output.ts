// A host's CLI run to its end: its output gathered, and its whole process group killed at a timeout (the
// host's own children with it), as both hosts' session runners need.
import type { ChildProcess } from 'node:child_process';

export interface ChildOutcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

/** `child` must be spawned `detached` with piped stdout and stderr, so that its group can be killed. */
export async function childOutcome(child: ChildProcess, timeoutMs: number): Promise<ChildOutcome> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, timeoutMs);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, sig) => resolve([code, sig])));
  clearTimeout(timer);
  return { stdout, stderr, exitCode, signal, timedOut };
}
