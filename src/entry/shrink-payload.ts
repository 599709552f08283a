// A hook payload can carry a megabyte of command output. The guards read only its tail (summaries are
// printed last), so before decoding and parsing, any JSON string longer than `limit` bytes is cut to its
// last `keep` bytes, starting at a line, behind a marker saying how much was cut. Decoding and parsing a
// megabyte costs more than the rest of a hook call; this keeps a large test run's hook near a small one's.
// Only what a tool or the model produced is cut (the keys below): never what the agent asks a tool to do.
// A shell command padded past the limit would otherwise be judged on its tail alone, and the forbidden
// command at its head would pass unseen.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** Strings that hold output: a tool's response, an error, the model's last message. */
const OUTPUT_KEYS = new Set(['stdout', 'stderr', 'output', 'error', 'tool_response', 'tool_result', 'last_assistant_message']);

function escaped(buffer: Buffer, at: number): boolean {
  let count = 0;
  for (let i = at - 1; i >= 0 && buffer[i] === BACKSLASH; i -= 1) count += 1;
  return count % 2 === 1;
}

/** Where the JSON string starting after the quote at `open` ends (the closing quote), or -1. */
function closingQuote(buffer: Buffer, open: number): number {
  let at = open;
  for (;;) {
    at = buffer.indexOf(QUOTE, at + 1);
    if (at < 0 || !escaped(buffer, at)) return at;
  }
}

/** A cut point at or after `from`: just after an unescaped `\n` escape, so the kept text starts at a line. */
function lineStart(buffer: Buffer, from: number, end: number): number {
  let at = from;
  for (;;) {
    at = buffer.indexOf('\\n', at);
    if (at < 0 || at >= end - 1) return -1;
    if (!escaped(buffer, at)) return at + 2;
    at += 1;
  }
}

export interface ShrinkOptions {
  /** Strings longer than this many bytes are cut. */
  limit: number;
  /** How many bytes of such a string's end are kept. */
  keep: number;
}

export const DEFAULT_SHRINK: ShrinkOptions = { limit: 256 * 1024, keep: 32 * 1024 };

export function shrinkLargeStrings(buffer: Buffer, options: ShrinkOptions = DEFAULT_SHRINK): Buffer {
  if (buffer.length <= options.limit) return buffer;
  const parts: Buffer[] = [];
  let copiedUpTo = 0;
  let lastKey = '';
  let at = buffer.indexOf(QUOTE);
  while (at >= 0) {
    const close = closingQuote(buffer, at);
    if (close < 0) break; // not JSON; let the parser say so
    let next = close + 1;
    while (next < buffer.length && (buffer[next] === 0x20 || buffer[next] === 0x0a || buffer[next] === 0x0d || buffer[next] === 0x09)) next += 1;
    const isKey = buffer[next] === COLON;
    const length = close - at - 1;
    if (isKey) {
      lastKey = length < 64 ? buffer.toString('latin1', at + 1, close) : '';
    } else {
      if (length > options.limit && OUTPUT_KEYS.has(lastKey)) {
        const cut = lineStart(buffer, close - options.keep, close);
        if (cut > at) {
          parts.push(buffer.subarray(copiedUpTo, at + 1), Buffer.from(`[... ${cut - at - 1} bytes cut by isdlc; the end follows ...]\\n`));
          copiedUpTo = cut;
        }
      }
      lastKey = '';
    }
    at = buffer.indexOf(QUOTE, close + 1);
  }
  if (parts.length === 0) return buffer;
  parts.push(buffer.subarray(copiedUpTo));
  return Buffer.concat(parts);
}
