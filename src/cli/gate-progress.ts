// What a person sees while `phase complete` waits for the gate's own test run, which can take minutes: the
// command and its timeout at the start; in a terminal, one line kept current (the time so far and the last
// line the run printed); in a log or a pipe, a line every few seconds; and how long it took at the end.
import type { GateProgress } from '../verify/gate-run.js';

const EVERY_MS_WITHOUT_TTY = 10_000;

export interface ProgressSink {
  isTTY?: boolean;
  columns?: number;
  write(text: string): void;
}

const seconds = (ms: number): string => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

export function gateProgressReporter(sink: ProgressSink): (progress: GateProgress) => void {
  let announced = false;
  let lastWritten = 0;
  return (progress) => {
    if (!announced) {
      announced = true;
      sink.write(`isdlc: the gate runs \`${progress.command}\` itself before the phase can complete (timeout ${progress.timeoutMinutes} min)…\n`);
    }
    if (progress.done) {
      sink.write(`${sink.isTTY ? '\r\u001b[K' : ''}isdlc: \`${progress.command}\` finished in ${seconds(progress.elapsedMs)}\n`);
      return;
    }
    const line = `  ${seconds(progress.elapsedMs)}${progress.lastLine ? `  ${progress.lastLine}` : ''}`;
    if (sink.isTTY) {
      sink.write(`\r\u001b[K${line.slice(0, Math.max(20, (sink.columns ?? 80) - 1))}`);
      return;
    }
    if (progress.elapsedMs - lastWritten >= EVERY_MS_WITHOUT_TTY) {
      lastWritten = progress.elapsedMs;
      sink.write(`isdlc: still running \`${progress.command}\`${line.trimStart() ? ` (${line.trim()})` : ''}\n`);
    }
  };
}
