// The Codex hook payloads in test/fixtures/payloads/codex-0.171.0/ are real: recorded from the pinned
// Codex by harness/codex-recordings.ts. Recording again must give payloads of the same shape (fields,
// nesting, value types) and the same event and tool names, or the fixtures (and what is built on them)
// no longer describe the Codex the suite runs. ISDLC_RECORD_CODEX_PAYLOADS=1 writes them anew.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { FIXTURES } from '../helpers/project.js';
import { fixturePayloads, recordSubagent, recordToolCalls, type Payload, type Recording } from './harness/codex-recordings.js';
import { usesCodex } from './harness/codex-session.js';
import { CODEX_CURRENT } from './harness/codex-versions.js';

usesCodex();

const DIR = join(FIXTURES, 'payloads', `codex-${CODEX_CURRENT}`);

/** Field names, nesting and value types; strings, numbers and booleans by their type only. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shape(item)]));
  return value === null ? null : typeof value;
}

let main: Recording;
let fresh: Record<string, Payload | undefined>;
beforeAll(async () => {
  const calls = await recordToolCalls();
  main = calls.main;
  fresh = fixturePayloads({ main, resumed: calls.resumed, sub: await recordSubagent() });
  if (process.env['ISDLC_RECORD_CODEX_PAYLOADS']) {
    mkdirSync(DIR, { recursive: true });
    for (const [name, payload] of Object.entries(fresh)) if (payload) writeFileSync(join(DIR, name), `${JSON.stringify(payload, null, 2)}\n`);
  }
}, 60_000);

describe(`hook payloads of Codex ${CODEX_CURRENT}`, () => {
  test('every fixture is recorded again, and no other file sits beside them', () => {
    expect(Object.entries(fresh).filter(([, payload]) => !payload)).toEqual([]);
    expect(
      readdirSync(DIR)
        .filter((file) => file.endsWith('.json'))
        .sort(),
    ).toEqual(Object.keys(fresh).sort());
  });

  test.each(existsSync(DIR) ? readdirSync(DIR).filter((file) => file.endsWith('.json')) : [])('%s has the shape Codex sends now', (name) => {
    const fixture = JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Payload;
    const payload = fresh[name]!;
    expect(payload['hook_event_name']).toBe(fixture['hook_event_name']);
    expect(payload['tool_name']).toBe(fixture['tool_name']);
    expect(shape(payload)).toEqual(shape(fixture));
  });

  test('an apply_patch that cannot apply and an MCP tool answering isError fire no PostToolUse', () => {
    expect(fresh['pre-apply-patch-unappliable.json']).toBeDefined();
    expect(fresh['pre-mcp-error.json']).toBeDefined();
    const ids = [fresh['pre-apply-patch-unappliable.json']!['tool_use_id'], fresh['pre-mcp-error.json']!['tool_use_id']];
    const events = (id: unknown): unknown[] => main.payloads.filter((payload) => payload['tool_use_id'] === id).map((payload) => payload['hook_event_name']);
    expect(ids.map(events)).toEqual([['PreToolUse'], ['PreToolUse']]);
    // Control: the patch and the MCP call that worked have both.
    expect([fresh['pre-apply-patch.json']!['tool_use_id'], fresh['pre-mcp.json']!['tool_use_id']].map(events)).toEqual([
      ['PreToolUse', 'PostToolUse'],
      ['PreToolUse', 'PostToolUse'],
    ]);
  });
});
