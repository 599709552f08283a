// `isdlc mcp` survives requests it cannot serve: each gets an error reply to its id and the server goes on,
// so the agent keeps the workflow and loop tools for the rest of its session. Raw lines on a real stdio
// connection to the installed bundle, since no well-behaved client would send them.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, initedProject } from '../helpers/project.js';

type Message = { id?: number | string | null; result?: any; error?: { code: number; message: string } };

let server: ChildProcessWithoutNullStreams;
let exited: Promise<number | null>;
const replies: Message[] = [];
const waiting: Array<() => void> = [];
let stderr = '';

function send(line: string): void {
  server.stdin.write(`${line}\n`);
}

async function reply(match: (message: Message) => boolean, what: string): Promise<Message> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = replies.find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no reply for ${what}; server stderr: ${stderr.slice(-2000)}`);
    await new Promise<void>((settle) => {
      waiting.push(settle);
      setTimeout(settle, 200);
    });
  }
}
const replyTo = (id: number | string) => reply((message) => message.id === id, `id ${String(id)}`);

let nextId = 100;
/** A tools/call written the way the SDK's client writes it: the id last. */
function callLine(name: string, argumentsJson: string, id: number): string {
  return `{"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}},"jsonrpc":"2.0","id":${id}}`;
}

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

beforeAll(async () => {
  const project = initedProject('isdlc-mcp-robust-');
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter((entry): entry is [string, string] => entry[1] !== undefined));
  server = spawn(process.execPath, [join(project, '.isdlc/bin/isdlc.cjs'), 'mcp', '--dir', project], { env, stdio: 'pipe' });
  exited = new Promise((settle) => server.on('exit', (code) => settle(code)));
  let pending = '';
  server.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) replies.push(JSON.parse(line) as Message);
    for (const wake of waiting.splice(0)) wake();
  });
  server.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  send(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'robust-test', version: '1' } },
    }),
  );
  expect((await replyTo(1)).result?.serverInfo?.name).toBe('isdlc');
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
});

afterAll(() => {
  server?.kill();
});

async function stillServes(): Promise<void> {
  const id = nextId++;
  send(callLine('status', '{}', id));
  const answer = await replyTo(id);
  expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  expect(answer.result?.isError).not.toBe(true);
}

describe('isdlc mcp and requests it cannot serve', () => {
  it('answers a call nested 100,000 levels deep with an error, for every tool and every argument, and goes on', async () => {
    send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    const tools = (await replyTo(2)).result.tools as { name: string; inputSchema: { properties?: Record<string, unknown> } }[];
    expect(tools.length).toBeGreaterThan(20);
    const sent: number[] = [];
    for (const tool of tools) {
      for (const argument of [...Object.keys(tool.inputSchema.properties ?? {}), 'unexpected']) {
        const id = nextId++;
        sent.push(id);
        send(callLine(tool.name, `{"${argument}":${deep(100_000)}}`, id));
      }
    }
    for (const id of sent) {
      const answer = await replyTo(id);
      expect(answer.error?.code, JSON.stringify(answer).slice(0, 300)).toBe(-32600);
      expect(answer.error?.message).toMatch(/nests deeper than 64 levels; nothing was done/);
    }
    await stillServes();
  });

  it('answers a request of 12 MB with an error to its id (written last or first), and goes on', async () => {
    const big = JSON.stringify('x'.repeat(12 * 1024 * 1024));
    const last = nextId++;
    send(callLine('task_create', `{"title":${big}}`, last));
    const first = nextId++;
    send(`{"jsonrpc":"2.0","id":${first},"method":"tools/call","params":{"name":"task_create","arguments":{"title":${big}}}}`);
    for (const id of [last, first]) {
      const answer = await replyTo(id);
      expect(answer.error?.code).toBe(-32600);
      expect(answer.error?.message).toMatch(/^the request is \d+ bytes, over isdlc's limit of 10485760; nothing was done/);
    }
    await stillServes();
  });

  it('answers a line that is not JSON, or not JSON-RPC, with an error, and goes on', async () => {
    send('this is not json');
    const parse = await reply((message) => message.error?.code === -32700, 'the parse error');
    expect(parse.id).toBeNull();
    const id = nextId++;
    send(JSON.stringify({ id, hello: 'there' }));
    expect((await replyTo(id)).error?.code).toBe(-32600);
    await stillServes();
  });

  it('ends when its client closes the connection', async () => {
    server.stdin.end();
    expect(await exited).toBe(0);
  });
});
