// Raw stdio for the hook's hot path. `process.stdin`/`process.stdout` build stream objects (and load
// net, tty and stream) on first touch, which costs a hook call more than its whole decision.
import { fstatSync, readSync, writeSync } from 'node:fs';
import { isClosedPipe } from '../util/closed-pipes.js';

/** Past this, the payload is not read further: no real hook payload is this large. */
export const STDIN_LIMIT_BYTES = 32 * 1024 * 1024;

let pause: Int32Array | undefined;
function waitBriefly(): void {
  pause ??= new Int32Array(new SharedArrayBuffer(4));
  Atomics.wait(pause, 0, 0, 2);
}

export function stdinIsTerminal(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * Reads all of stdin synchronously (the hook must answer before the host times it out anyway), into one
 * buffer that doubles as it fills: a 1 MB payload is copied once, not chunk by chunk.
 */
export function readStdinSync(limit = STDIN_LIMIT_BYTES): { bytes: Buffer; truncated: boolean } {
  let buffer = Buffer.allocUnsafe(2 << 20);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      if (total >= limit) return { bytes: buffer.subarray(0, total), truncated: true };
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 4, limit));
      buffer.copy(bigger, 0, 0, total);
      buffer = bigger;
    }
    let n: number;
    try {
      n = readSync(0, buffer, total, buffer.length - total, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        waitBriefly(); // a non-blocking pipe with nothing in it yet
        continue;
      }
      if (code === 'EOF') break;
      throw error;
    }
    if (n === 0) break;
    total += n;
  }
  return { bytes: buffer.subarray(0, total), truncated: false };
}

/** Writes all of `text` to a file descriptor, waiting out a full non-blocking pipe; a closed one takes nothing more. */
export function writeAllSync(fd: 1 | 2, text: string): void {
  let data = Buffer.from(text, 'utf8');
  while (data.length > 0) {
    try {
      const written = writeSync(fd, data);
      data = data.subarray(written);
    } catch (error) {
      if (isClosedPipe(error)) return; // the reader is gone: nobody is left to answer
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      waitBriefly();
    }
  }
}

export type HookInput = { bytes: Buffer; truncated: boolean } | { error: string };

/** stdin as the hook takes it, with a hint on a terminal (a person typing the payload by hand). */
export function readHookInput(): HookInput {
  try {
    if (stdinIsTerminal()) writeAllSync(2, 'isdlc hook: reading one hook payload from stdin (Ctrl-D to end); see `isdlc hook --help`\n');
    return readStdinSync();
  } catch (error) {
    return { error: `could not read stdin: ${(error as Error).message}` };
  }
}
