// The MCP stdio transport isdlc serves on: one JSON-RPC message per line, like the SDK's, but a bad line
// costs only itself. The SDK's transport closes the whole connection when a line passes its 10 MB buffer,
// and a message nested thousands of levels deep overflows the stack of whatever walks it next; either way
// the agent loses isdlc's tools for the rest of the session. Here such a line gets an error reply (to its
// id, where one can be found) and the connection goes on.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../util/json-depth.js';

/** The largest request line taken in (the SDK's own bound); a longer one is answered with an error. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** How much of an oversized line's start and end is kept to find its id. */
const EDGE_BYTES = 4096;

type Id = string | number;

const ID_VALUE = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
// The SDK's clients write the id last (`{"method":…,"params":…,"jsonrpc":"2.0","id":7}`), others first.
const ID_AT_END = new RegExp(String.raw`"id"\s*:\s*${ID_VALUE}\s*}\s*$`);
const ID_AT_START = new RegExp(String.raw`^\s*{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID_VALUE}`);

function idFrom(text: string, pattern: RegExp): Id | undefined {
  const found = pattern.exec(text)?.[1];
  if (found === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(found);
    return typeof id === 'number' || typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

function idOf(value: unknown): Id | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>)['id'];
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

export interface LineTransportOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  maxLineBytes?: number;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: NodeJS.ReadableStream;
  private readonly output: NodeJS.WritableStream;
  private readonly maxLineBytes: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while a line is over the bound: copies of its first bytes and its last ones so far (the rest is dropped). */
  private oversized: { head: Buffer; tail: Buffer } | undefined;
  private started = false;

  constructor(options: LineTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? MAX_REQUEST_BYTES;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let from = 0;
    for (;;) {
      const newline = bytes.indexOf(0x0a, from);
      this.take(bytes.subarray(from, newline < 0 ? bytes.length : newline));
      if (newline < 0) return;
      this.endLine();
      from = newline + 1;
    }
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error('the MCP line transport is already started'));
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    return Promise.resolve();
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.oversized) {
      this.oversized.tail = Buffer.concat([this.oversized.tail, piece]).subarray(-EDGE_BYTES);
      return;
    }
    this.parts.push(piece);
    if (this.size <= this.maxLineBytes) return;
    // Over the bound: keep only the edges (to find the id) and drop the rest as it arrives.
    const whole = Buffer.concat(this.parts);
    this.oversized = { head: Buffer.from(whole.subarray(0, EDGE_BYTES)), tail: Buffer.from(whole.subarray(-EDGE_BYTES)) };
    this.parts = [];
  }

  private endLine(): void {
    const { size, oversized } = this;
    const line = oversized ? undefined : Buffer.concat(this.parts).toString('utf8').replace(/\r$/, '');
    this.parts = [];
    this.size = 0;
    this.oversized = undefined;
    if (oversized) {
      const tail = oversized.tail.toString('utf8').replace(/\r$/, '');
      const id = idFrom(tail, ID_AT_END) ?? idFrom(oversized.head.toString('utf8'), ID_AT_START);
      this.refuse(
        id,
        ErrorCode.InvalidRequest,
        `the request is ${size} bytes, over isdlc's limit of ${this.maxLineBytes}; nothing was done. Send smaller arguments.`,
      );
      return;
    }
    if (line === undefined || line.trim() === '') return;
    this.receive(line);
  }

  private receive(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.refuse(undefined, ErrorCode.ParseError, `the request is not JSON: ${(error as Error).message}`);
      return;
    }
    if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
      this.refuse(
        idOf(value),
        ErrorCode.InvalidRequest,
        `the request nests deeper than ${MAX_JSON_DEPTH} levels; nothing was done. No isdlc tool takes arguments that deep.`,
      );
      return;
    }
    let parsed: ReturnType<typeof JSONRPCMessageSchema.safeParse>;
    try {
      parsed = JSONRPCMessageSchema.safeParse(value);
    } catch (error) {
      this.refuse(idOf(value), ErrorCode.InvalidRequest, `the request could not be read: ${(error as Error).message}`);
      return;
    }
    if (!parsed.success) {
      this.refuse(idOf(value), ErrorCode.InvalidRequest, 'the request is not a JSON-RPC 2.0 message');
      return;
    }
    this.onmessage?.(parsed.data);
  }

  /** An error reply to the request's id; JSON-RPC answers one whose id cannot be read with id null. */
  private refuse(id: Id | undefined, code: ErrorCode, message: string): void {
    this.onerror?.(new Error(`isdlc mcp: ${message}`));
    const reply = { jsonrpc: '2.0' as const, id: id ?? null, error: { code, message } };
    this.write(`${JSON.stringify(reply)}\n`).catch((error: unknown) => this.onerror?.(error as Error));
  }

  private write(text: string): Promise<void> {
    return new Promise((settle) => {
      if (this.output.write(text)) settle();
      else this.output.once('drain', settle);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.oversized = undefined;
    this.onclose?.();
    return Promise.resolve();
  }
}
