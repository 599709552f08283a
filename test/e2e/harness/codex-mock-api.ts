// A scripted OpenAI Responses API for the real Codex CLI to talk to (a `model_providers` entry whose
// base_url is this server). Codex sends every model request as `POST /v1/responses` with `stream: true`
// and reads Server-Sent Events back: `response.created`, per output item `response.output_item.added`
// and `.done`, then `response.completed`. Each request gets the next reply of its conversation's script;
// a conversation is a Codex thread (the request's `thread-id` header), and a script answers the threads
// whose first prompt it matches (a subagent's thread starts with the prompt it was given). Every request
// is kept, so a test can read what the model was told.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One Responses API output item (`function_call`, `custom_tool_call`, `message`, …) as the model sends it. */
export type OutputItem = Record<string, unknown>;

export interface CodexReply {
  items: OutputItem[];
}

export interface CodexTurnContext {
  request: CodexRequest;
  api: CodexMockApi;
}

/** A scripted reply, or a function computing it from the request (for loops and answers that depend on a result). */
export type CodexTurn = CodexReply | ((context: CodexTurnContext) => CodexReply);

export interface CodexScript {
  name: string;
  /** Which threads this script answers, by their first prompt; the script without one answers the rest. */
  match?: (firstPrompt: string) => boolean;
  /** The replies to the thread's requests, in order. */
  turns?: CodexTurn[];
  /** The reply once the turns run out (default: end the turn with a short message). */
  after?: CodexTurn;
}

/** An input item of a request: what Codex sends back of the conversation so far. */
export interface InputItem {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  output?: unknown;
  name?: string;
  [key: string]: unknown;
}

export interface CodexRequestBody {
  model?: string;
  instructions?: string;
  input?: InputItem[];
  tools?: Record<string, unknown>[];
  stream?: boolean;
  prompt_cache_key?: string;
  [key: string]: unknown;
}

export interface CodexRequest {
  path: string;
  /** The script that answered, or `(unscripted)`, or `other` for a path the mock does not serve. */
  conversation: string;
  /** The thread the request belongs to: the `thread-id` header (else `prompt_cache_key`). */
  thread: string;
  /** Index of the request within its thread. */
  turn: number;
  at: number;
  headers: IncomingMessage['headers'];
  body: CodexRequestBody;
}

export interface SentItem {
  item: OutputItem;
  conversation: string;
  turn: number;
}

/** Plain text of a content value: a string, content parts (`input_text`, `output_text`), or a list of them. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOf).join('\n');
  if (content && typeof content === 'object') {
    const part = content as { text?: unknown; content?: unknown; output?: unknown };
    if (typeof part.text === 'string') return part.text;
    if (part.content !== undefined) return textOf(part.content);
    if (part.output !== undefined) return textOf(part.output);
  }
  return '';
}

/** Codex's own context messages (`<environment_context>`, AGENTS.md, permissions) wrap their text in a tag. */
const CONTEXT = /^\s*(<[a-z_]+[\s>]|# AGENTS\.md instructions)/;

/** The user's (or the delegating agent's) prompts of a request, in order: not Codex's context messages. */
export function promptsOf(body: CodexRequestBody): string[] {
  return (body.input ?? [])
    .filter((item) => item.type === 'message' && item.role === 'user')
    .map((item) => textOf(item.content))
    .filter((text) => text && !CONTEXT.test(text));
}

const DONE: CodexReply = { items: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] }] };

export class CodexMockApi {
  readonly requests: CodexRequest[] = [];
  private readonly sentItems: SentItem[] = [];
  private readonly threads = new Map<string, { script: CodexScript | undefined; count: number }>();
  private server!: Server;
  private nextId = 1;
  /** The provider's base_url: `http://127.0.0.1:<port>/v1`. */
  url = '';

  private constructor(private readonly scripts: CodexScript[]) {}

  static async start(scripts: CodexScript[]): Promise<CodexMockApi> {
    const api = new CodexMockApi(scripts);
    api.server = createServer((request, response) => api.handle(request, response));
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    api.url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}/v1`;
    return api;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The model requests answered by one script, in order. */
  conversation(name: string): CodexRequest[] {
    return this.requests.filter((request) => request.conversation === name);
  }

  /** The items the mock sent, in order, with the script and turn that sent each. */
  get sent(): readonly SentItem[] {
    return this.sentItems;
  }

  /** The call ids the mock gave tool calls of one name (`exec_command`, `apply_patch`, an MCP tool's bare name). */
  callIds(name: string): string[] {
    return this.sentItems.filter(({ item }) => item['name'] === name && typeof item['call_id'] === 'string').map(({ item }) => item['call_id'] as string);
  }

  /** What the model read back for one of its calls (`function_call_output` or `custom_tool_call_output`), from the first request carrying it. */
  output(callId: string): string | undefined {
    for (const request of this.requests) {
      for (const item of request.body.input ?? []) {
        if (item.call_id === callId && typeof item.type === 'string' && item.type.endsWith('_output')) return textOf(item.output);
      }
    }
    return undefined;
  }

  /** Everything one request showed the model, as text: instructions and every input item. */
  static shown(request: CodexRequest): string {
    const parts = [request.body.instructions ?? ''];
    for (const item of request.body.input ?? []) {
      parts.push(textOf(item.content ?? item.output ?? ''));
      if (typeof item['arguments'] === 'string') parts.push(item['arguments']);
      if (typeof item['input'] === 'string') parts.push(item['input']);
    }
    return parts.join('\n');
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      let body: CodexRequestBody;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CodexRequestBody;
      } catch {
        body = {};
      }
      // A subagent shares its parent's prompt_cache_key and session-id header; only thread-id is its own.
      const threadHeader = request.headers['thread-id'];
      const thread = typeof threadHeader === 'string' ? threadHeader : (body.prompt_cache_key ?? '');
      if (request.method !== 'POST' || !path.replace(/\?.*$/, '').endsWith('/responses')) {
        this.requests.push({ path, conversation: 'other', thread, turn: 0, at: Date.now(), headers: request.headers, body });
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { type: 'not_found', message: `the mock has no ${request.method} ${path}` } }));
        return;
      }
      let state = this.threads.get(thread);
      if (!state) {
        const first = promptsOf(body)[0] ?? '';
        state = { script: this.scripts.find((script) => script.match?.(first)) ?? this.scripts.find((script) => !script.match), count: 0 };
        this.threads.set(thread, state);
      }
      const turn = state.count++;
      const logged: CodexRequest = { path, conversation: state.script?.name ?? '(unscripted)', thread, turn, at: Date.now(), headers: request.headers, body };
      this.requests.push(logged);
      const step = state.script?.turns?.[turn] ?? state.script?.after ?? DONE;
      let reply: CodexReply;
      try {
        reply = typeof step === 'function' ? step({ request: logged, api: this }) : step;
      } catch (error) {
        reply = say(`mock script failed: ${(error as Error).message}`);
      }
      this.stream(response, body, reply, logged);
    });
  }

  /** Gives each tool call a fresh call id (unless scripted) and each item an id, as the real API does. */
  private stamp(item: OutputItem): OutputItem {
    const n = this.nextId++;
    const kind = typeof item['type'] === 'string' ? item['type'] : 'item';
    const stamped: OutputItem = { id: `${kind.slice(0, 4)}_e2e_${n}`, ...item };
    if (kind.endsWith('_call') && !item['call_id']) stamped['call_id'] = `call_e2e_${n}`;
    if (item['type'] === 'function_call' && typeof item['arguments'] !== 'string') stamped['arguments'] = JSON.stringify(item['arguments'] ?? {});
    return stamped;
  }

  private stream(response: ServerResponse, body: CodexRequestBody, reply: CodexReply, request: CodexRequest): void {
    const id = `resp_e2e_${this.nextId++}`;
    const items = reply.items.map((item) => this.stamp(item));
    for (const item of items) this.sentItems.push({ item, conversation: request.conversation, turn: request.turn });
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: Record<string, unknown>): void => {
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    };
    const model = body.model ?? 'gpt-5.5';
    send('response.created', { response: { id, object: 'response', status: 'in_progress', model, output: [] } });
    items.forEach((item, index) => {
      const open = item['type'] === 'message' ? { ...item, content: [], status: 'in_progress' } : { ...item, status: 'in_progress' };
      send('response.output_item.added', { output_index: index, item: open });
      if (item['type'] === 'message')
        send('response.output_text.delta', { output_index: index, item_id: item['id'], content_index: 0, delta: textOf(item['content']) });
      send('response.output_item.done', { output_index: index, item: { ...item, status: 'completed' } });
    });
    send('response.completed', {
      response: {
        id,
        object: 'response',
        status: 'completed',
        model,
        output: items,
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 120,
        },
      },
    });
    response.end();
  }
}

/** An assistant message: alone in a reply, it ends Codex's turn. */
export function say(text: string): CodexReply {
  return { items: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }] };
}
