// The mock Responses API itself, driven over HTTP the way Codex drives it: a Codex scenario can only
// trust what Codex saw if the mock answers like the real API.
import { afterEach, describe, expect, test } from 'vitest';
import { CodexMockApi, promptsOf, type CodexRequestBody, type CodexScript } from './harness/codex-mock-api.js';
import { addFile, applyPatch, call, mcpTool, say, shell } from './harness/codex-script.js';

let api: CodexMockApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const context = { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/p</cwd>\n</environment_context>' }] };
const prompt = (text: string): Record<string, unknown> => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });

async function post(body: CodexRequestBody, path = '/v1/responses'): Promise<Response> {
  return fetch(`${api!.url.replace(/\/v1$/, '')}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** The SSE stream as (event, data) pairs, checking each `event:` line names its data's type. */
async function events(response: Response): Promise<Record<string, any>[]> {
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  return (await response.text())
    .split('\n\n')
    .filter(Boolean)
    .map((chunk) => {
      const [event, data] = chunk.split('\n');
      const parsed = JSON.parse(data!.replace(/^data: /, '')) as Record<string, any>;
      expect(event).toBe(`event: ${String(parsed['type'])}`);
      return parsed;
    });
}

async function start(scripts: CodexScript[]): Promise<void> {
  api = await CodexMockApi.start(scripts);
}

describe('the mock Responses API', () => {
  test('streams each scripted item between response.created and response.completed, with call ids', async () => {
    await start([{ name: 'main', turns: [call(shell('ls'), applyPatch(addFile('a.txt', 'hi')), mcpTool('isdlc', 'gate_check', { phase: 1 }))] }]);
    const stream = await events(await post({ stream: true, prompt_cache_key: 't1', input: [context, prompt('go')] }));
    expect(stream.map((event) => event['type'])).toEqual([
      'response.created',
      ...Array<string[]>(3).fill(['response.output_item.added', 'response.output_item.done']).flat(),
      'response.completed',
    ]);
    const done = stream.filter((event) => event['type'] === 'response.output_item.done').map((event) => event['item']);
    expect(done[0]).toMatchObject({ type: 'function_call', name: 'exec_command', arguments: '{"cmd":"ls"}', status: 'completed' });
    expect(done[1]).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch' });
    expect(done[2]).toMatchObject({ type: 'function_call', namespace: 'mcp__isdlc', name: 'gate_check', arguments: '{"phase":1}' });
    const ids = done.map((item) => item.call_id);
    expect(new Set(ids).size).toBe(3);
    expect(api!.callIds('exec_command')).toEqual([ids[0]]);
    expect(stream.at(-1)!['response']).toMatchObject({ status: 'completed', usage: { total_tokens: 120 } });
  });

  test('gives each thread its own turns, picks the script by the first prompt, and ends with a message', async () => {
    const seen: number[] = [];
    await start([
      { name: 'worker', match: (first) => first.startsWith('WORKER'), turns: [say('worker reply')] },
      {
        name: 'main',
        turns: [call(shell('true'))],
        after: ({ request }) => {
          seen.push(request.turn);
          return say(`after ${request.turn}`);
        },
      },
    ]);
    const messageOf = async (body: CodexRequestBody): Promise<string> => {
      const stream = await events(await post(body));
      return stream.find((event) => event['type'] === 'response.output_item.done')!['item'].content[0].text as string;
    };
    await post({ prompt_cache_key: 'main-thread', input: [context, prompt('go')] });
    const callId = api!.callIds('exec_command')[0]!;
    const followUp = [context, prompt('go'), { type: 'function_call_output', call_id: callId, output: 'Process exited with code 0' }];
    expect(await messageOf({ prompt_cache_key: 'main-thread', input: followUp })).toBe('after 1');
    expect(await messageOf({ prompt_cache_key: 'sub-thread', input: [context, prompt('WORKER do it')] })).toBe('worker reply');
    expect(await messageOf({ prompt_cache_key: 'sub-thread', input: [context, prompt('WORKER do it')] })).toBe('Done.');
    expect(await messageOf({ prompt_cache_key: 'main-thread', input: followUp })).toBe('after 2');
    expect(seen).toEqual([1, 2]);
    expect(api!.conversation('main').map((request) => request.turn)).toEqual([0, 1, 2]);
    expect(api!.conversation('worker').map((request) => request.thread)).toEqual(['sub-thread', 'sub-thread']);
    expect(api!.output(callId)).toBe('Process exited with code 0');
    expect(promptsOf({ input: followUp })).toEqual(['go']);
  });

  test('tells a subagent from its parent by the thread-id header, though they share prompt_cache_key', async () => {
    await start([
      { name: 'worker', match: (first) => first.startsWith('WORKER'), turns: [say('worker reply')] },
      { name: 'main', turns: [say('main reply')] },
    ]);
    const send = (thread: string, text: string): Promise<Response> =>
      fetch(`${api!.url}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'thread-id': thread, 'session-id': 'root' },
        body: JSON.stringify({ prompt_cache_key: 'root', input: [context, prompt(text)] }),
      });
    await send('root', 'go');
    await send('child', 'WORKER help');
    expect(api!.requests.map((request) => [request.thread, request.conversation, request.turn])).toEqual([
      ['root', 'main', 0],
      ['child', 'worker', 0],
    ]);
  });

  test('answers any other path with a 404 and keeps the request', async () => {
    await start([{ name: 'main' }]);
    const response = await post({}, '/v1/models');
    expect(response.status).toBe(404);
    expect(api!.requests.map((request) => request.conversation)).toEqual(['other']);
  });
});
