// The mock Messages API itself, driven over HTTP the way a client drives it: a scenario can only trust
// what the real Claude Code saw if the mock answers like the real API.
import { afterEach, describe, expect, test } from 'vitest';
import { MockApi } from './harness/mock-api.js';
import { bash, call, say, startsWith } from './harness/script.js';

let api: MockApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const TOOLS = [{ name: 'Bash' }];

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${api!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function user(text: string): { role: string; content: { type: string; text: string }[] } {
  return {
    role: 'user',
    content: [
      { type: 'text', text: '<system-reminder>\ncontext\n</system-reminder>' },
      { type: 'text', text },
    ],
  };
}

/** The message an SSE stream describes, assembled the way a client assembles it. */
function assemble(stream: string): { content: Record<string, unknown>[]; stopReason: string } {
  const content: Record<string, unknown>[] = [];
  const json: string[] = [];
  let stopReason = '';
  for (const chunk of stream.split('\n\n').filter(Boolean)) {
    const data = JSON.parse(
      chunk
        .split('\n')
        .find((line) => line.startsWith('data: '))!
        .slice(6),
    ) as Record<string, any>;
    if (data['type'] === 'content_block_start') content[data['index']] = { ...data['content_block'] };
    if (data['type'] === 'content_block_delta' && data['delta'].type === 'text_delta')
      content[data['index']]!['text'] = ((content[data['index']]!['text'] as string | undefined) ?? '') + data['delta'].text;
    if (data['type'] === 'content_block_delta' && data['delta'].type === 'input_json_delta')
      json[data['index']] = (json[data['index']] ?? '') + data['delta'].partial_json;
    if (data['type'] === 'content_block_stop' && json[data['index']] !== undefined) content[data['index']]!['input'] = JSON.parse(json[data['index']]!);
    if (data['type'] === 'message_delta') stopReason = data['delta'].stop_reason;
  }
  return { content, stopReason };
}

describe('the mock Messages API', () => {
  test('streams a scripted tool call, then the next turn, telling conversations apart by their first prompt', async () => {
    api = await MockApi.start([
      { name: 'sub', match: startsWith('SUB'), turns: [say('sub done')] },
      { name: 'main', turns: [call(bash('echo hi')), say('main done')] },
    ]);
    const first = assemble(await (await post('/v1/messages?beta=true', { stream: true, tools: TOOLS, messages: [user('do it')] })).text());
    expect(first.stopReason).toBe('tool_use');
    expect(first.content[0]).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } });
    const id = String(first.content[0]!['id']);
    const second = assemble(
      await (
        await post('/v1/messages', {
          stream: true,
          tools: TOOLS,
          messages: [
            user('do it'),
            { role: 'assistant', content: first.content },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'hi' }] },
          ],
        })
      ).text(),
    );
    expect(second).toEqual({ content: [{ type: 'text', text: 'main done' }], stopReason: 'end_turn' });
    const sub = assemble(await (await post('/v1/messages', { stream: true, tools: TOOLS, messages: [user('SUB: help')] })).text());
    expect(sub.content[0]).toMatchObject({ text: 'sub done' });
    expect(api.conversation('main').map((request) => request.turn)).toEqual([0, 1]);
    expect(api.conversation('sub')).toHaveLength(1);
    expect(api.toolResult(id)).toEqual({ text: 'hi', isError: false });
  });

  test('answers plain JSON, counts tokens, gives side requests a short text and unknown paths a 404', async () => {
    api = await MockApi.start([{ name: 'main', turns: [say('plain')] }]);
    const plain = (await (await post('/v1/messages', { tools: TOOLS, messages: [user('x')] })).json()) as Record<string, unknown>;
    expect(plain).toMatchObject({ type: 'message', role: 'assistant', stop_reason: 'end_turn', content: [{ type: 'text', text: 'plain' }] });
    expect(await (await post('/v1/messages/count_tokens', { messages: [] })).json()).toEqual({ input_tokens: 42 });
    const side = (await (await post('/v1/messages', { messages: [user('a title please')] })).json()) as Record<string, unknown>;
    expect(side['content']).toEqual([{ type: 'text', text: 'Noted.' }]);
    expect((await post('/v1/other', {})).status).toBe(404);
    expect(api.requests.map((request) => request.kind)).toEqual(['conversation', 'count_tokens', 'side', 'other']);
  });

  test('with several prompts in one session, each prompt has its own turns', async () => {
    api = await MockApi.start([{ name: 'main', prompts: { one: [say('first answer')], two: [say('second answer')] } }]);
    const history = [user('one'), { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] }, user('two')];
    const reply = (await (await post('/v1/messages', { tools: TOOLS, messages: history })).json()) as Record<string, unknown>;
    expect(reply['content']).toEqual([{ type: 'text', text: 'second answer' }]);
  });
});
