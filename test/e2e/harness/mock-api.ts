// A scripted Messages API for the real Claude Code to talk to (ANTHROPIC_BASE_URL). Each conversation
// is told apart by its first user prompt: the main thread starts with the `-p` prompt, a subagent with
// its delegation prompt. A script gives each conversation its turns; the turn a request asks for is the
// number of assistant messages it already holds, so a retried or resumed request gets the same answer.
// Requests without tools (titles, summaries) get a short text. Every request is kept so a test can read
// what the model was shown.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

export interface Reply {
  text?: string;
  tools?: ToolCall[];
}

export interface TurnContext {
  request: LoggedRequest;
  api: MockApi;
}

export type Turn = Reply | ((context: TurnContext) => Reply);

export interface ConversationScript {
  name: string;
  /** Which first prompts this conversation answers; the script without one answers the rest. */
  match?: (firstPrompt: string) => boolean;
  /** The turns after the conversation's first prompt, by the number of assistant messages so far. */
  turns?: Turn[];
  /**
   * For sessions given several prompts: the turns after each prompt (keyed by its text), counted from
   * that prompt. Checked before `turns`.
   */
  prompts?: Record<string, Turn[]>;
  /** The answer once the turns run out (default: end the turn with a short text). */
  after?: Turn;
}

export interface SentCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** The script whose conversation the call was made in. */
  conversation?: string;
}

export interface ContentBlock {
  type: string;
  text?: string;
  content?: unknown;
  tool_use_id?: string;
  is_error?: boolean;
  id?: string;
  name?: string;
  input?: unknown;
}

export interface Message {
  role: string;
  content: string | ContentBlock[];
}

export interface LoggedRequest {
  path: string;
  kind: 'conversation' | 'side' | 'compaction' | 'count_tokens' | 'other';
  conversation?: string;
  turn?: number;
  /** When the request arrived (ms since the epoch), for conversation requests. */
  at?: number;
  body: { messages?: Message[]; tools?: { name: string }[]; system?: unknown; stream?: boolean; model?: string };
}

function blocksOf(message: Message | undefined): ContentBlock[] {
  if (!message) return [];
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** Plain text of a block or of a tool result's content. */
export function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(textOfContent).join('\n');
  if (content && typeof content === 'object') {
    const block = content as ContentBlock;
    if (typeof block.text === 'string') return block.text;
    if (block.content !== undefined) return textOfContent(block.content);
  }
  return '';
}

const REMINDER = /^\s*<system-reminder>[\s\S]*<\/system-reminder>\s*$/;

/** The text a person (or a delegating agent) wrote in a user message: not reminders, not tool results. */
function promptText(message: Message | undefined): string {
  const blocks = blocksOf(message);
  if (blocks.some((block) => block.type === 'tool_result')) return '';
  return blocks
    .filter((block) => block.type === 'text' && typeof block.text === 'string' && !REMINDER.test(block.text))
    .map((block) => block.text!)
    .join('\n');
}

/** What the user (or the delegating agent) asked first. */
export function firstPromptOf(body: LoggedRequest['body']): string {
  return promptText((body.messages ?? []).find((message) => message.role === 'user'));
}

/** The latest prompt and how many assistant messages followed it. */
function latestPrompt(body: LoggedRequest['body']): { text: string; turn: number } {
  const messages = body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const text = messages[i]!.role === 'user' ? promptText(messages[i]) : '';
    if (text) return { text, turn: messages.slice(i).filter((message) => message.role === 'assistant').length };
  }
  return { text: '', turn: 0 };
}

/** Claude Code's request for a summary when it compacts a conversation (it sends tools along). */
function isCompaction(body: LoggedRequest['body']): boolean {
  return /Respond with TEXT ONLY/.test(textOfContent(blocksOf(body.messages?.at(-1))));
}

export class MockApi {
  readonly requests: LoggedRequest[] = [];
  private server!: Server;
  private nextId = 1;
  url = '';

  private constructor(private readonly scripts: ConversationScript[]) {}

  static async start(scripts: ConversationScript[]): Promise<MockApi> {
    const api = new MockApi(scripts);
    api.server = createServer((request, response) => api.handle(request, response));
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    api.url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    return api;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The requests of one conversation, in order. */
  conversation(name: string): LoggedRequest[] {
    return this.requests.filter((request) => request.kind === 'conversation' && request.conversation === name);
  }

  /** Everything the model was shown in one request, as text: system parts, messages, tool results. */
  static shown(request: LoggedRequest): string {
    const parts: string[] = [textOfContent(request.body.system)];
    for (const message of request.body.messages ?? []) parts.push(textOfContent(blocksOf(message)));
    return parts.join('\n');
  }

  /** The tool_result the model got for one of its tool calls, from the first request that carries it. */
  toolResult(toolUseId: string): { text: string; isError: boolean } | undefined {
    for (const request of this.requests) {
      for (const message of request.body.messages ?? []) {
        for (const block of blocksOf(message)) {
          if (block.type === 'tool_result' && block.tool_use_id === toolUseId) return { text: textOfContent(block.content), isError: block.is_error === true };
        }
      }
    }
    return undefined;
  }

  /** The ids of the tool calls this mock made, by tool name, in order. */
  toolUseIds(name: string): string[] {
    return this.sent.filter((call) => call.name === name).map((call) => call.id);
  }

  private readonly sent: SentCall[] = [];

  /** The tool calls the mock made, in order (id, tool, input, and the conversation that made it). */
  get calls(): readonly SentCall[] {
    return this.sent;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      let body: LoggedRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoggedRequest['body'];
      } catch {
        body = {};
      }
      if (path.startsWith('/v1/messages/count_tokens')) {
        this.requests.push({ path, kind: 'count_tokens', body });
        return this.json(response, 200, { input_tokens: 42 });
      }
      if (!path.startsWith('/v1/messages')) {
        this.requests.push({ path, kind: 'other', body });
        return this.json(response, 404, { type: 'error', error: { type: 'not_found_error', message: `the mock has no ${path}` } });
      }
      if (!body.tools || body.tools.length === 0) {
        this.requests.push({ path, kind: 'side', body });
        return this.answer(response, body, { text: 'Noted.' });
      }
      if (isCompaction(body)) {
        this.requests.push({ path, kind: 'compaction', body });
        return this.answer(response, body, { text: '<summary>The user asked for work in this project; it is under way.</summary>' });
      }
      const firstPrompt = firstPromptOf(body);
      const script = this.scripts.find((candidate) => candidate.match?.(firstPrompt)) ?? this.scripts.find((candidate) => !candidate.match);
      const latest = latestPrompt(body);
      const byPrompt = script?.prompts?.[latest.text];
      const turn = byPrompt ? latest.turn : (body.messages ?? []).filter((message) => message.role === 'assistant').length;
      const logged: LoggedRequest = { path, kind: 'conversation', conversation: script?.name ?? '(unscripted)', turn, at: Date.now(), body };
      this.requests.push(logged);
      const step = (byPrompt ?? script?.turns ?? [])[turn] ?? script?.after ?? { text: 'Done.' };
      let reply: Reply;
      try {
        reply = typeof step === 'function' ? step({ request: logged, api: this }) : step;
      } catch (error) {
        reply = { text: `mock script failed: ${(error as Error).message}` };
      }
      this.answer(response, body, reply, logged.conversation);
    });
  }

  private json(response: ServerResponse, status: number, value: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  }

  private answer(response: ServerResponse, body: LoggedRequest['body'], reply: Reply, conversation?: string): void {
    const content: Record<string, unknown>[] = [];
    if (reply.text) content.push({ type: 'text', text: reply.text });
    for (const call of reply.tools ?? []) {
      const id = `toolu_e2e_${String(this.nextId++).padStart(4, '0')}`;
      this.sent.push({ id, name: call.name, input: call.input, ...(conversation ? { conversation } : {}) });
      content.push({ type: 'tool_use', id, name: call.name, input: call.input });
    }
    if (content.length === 0) content.push({ type: 'text', text: 'Done.' });
    const stopReason = (reply.tools ?? []).length > 0 ? 'tool_use' : 'end_turn';
    const message = {
      id: `msg_e2e_${this.nextId++}`,
      type: 'message',
      role: 'assistant',
      model: body.model ?? 'claude-sonnet-4-5',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 20 },
    };
    if (!body.stream) return this.json(response, 200, message);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (type: string, data: Record<string, unknown>): void => {
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    };
    send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 100, output_tokens: 1 } } });
    content.forEach((block, index) => {
      if (block['type'] === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: block['text'] } });
      } else {
        send('content_block_start', { index, content_block: { ...block, input: {} } });
        send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) } });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } });
    send('message_stop', {});
    response.end();
  }
}
