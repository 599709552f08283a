// isdlc's `trusted_hash` against the hashes the real Codex lists for the same hooks (recorded with each
// pinned version by test/e2e/codex-hook-hashes.test.ts): every event kind, matchers kept and dropped,
// defaults, clamped timeouts, odd characters, and isdlc's own commands as init writes them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../../test/helpers/project.js';
import { eventKeyName, hookStateKey, hookTrustHash, type CodexCommandHandler } from './hook-trust.js';

interface Fixture {
  hooks: Record<string, { matcher?: string; hooks: CodexCommandHandler[] }[]>;
  hashes: Record<string, Record<string, string>>;
}

const fixture = JSON.parse(readFileSync(join(FIXTURES, 'codex-hook-trust', 'hashes.json'), 'utf8')) as Fixture;

const cases = Object.entries(fixture.hooks).flatMap(([event, groups]) =>
  groups.flatMap((group, g) => group.hooks.map((handler, h) => ({ event, matcher: group.matcher, handler, place: `${eventKeyName(event)}:${g}:${h}` }))),
);

describe.each(Object.keys(fixture.hashes))('the hash Codex %s lists', (version) => {
  const listed = fixture.hashes[version]!;
  it.each(cases.filter((c) => listed[c.place] !== undefined))('$place', ({ event, matcher, handler, place }) => {
    expect(hookTrustHash(event, matcher, handler)).toBe(listed[place]);
  });
});

describe('the key', () => {
  it.each([
    ['PreToolUse', 'pre_tool_use'],
    ['UserPromptSubmit', 'user_prompt_submit'],
    ['Stop', 'stop'],
    ['SubagentStop', 'subagent_stop'],
    ['PostCompact', 'post_compact'],
  ])('%s is spelled %s', (event, key) => {
    expect(hookStateKey('/p/.codex/hooks.json', event, 2, 1)).toBe(`/p/.codex/hooks.json:${key}:2:1`);
  });
});

describe('a change the hash must see', () => {
  const base = { command: 'node isdlc.cjs hook --host codex', timeout: 60 };
  const hash = hookTrustHash('PreToolUse', '.*', base);
  it.each<[string, string, unknown, CodexCommandHandler]>([
    ['one more space in the command', 'PreToolUse', '.*', { ...base, command: `${base.command} ` }],
    ['another timeout', 'PreToolUse', '.*', { ...base, timeout: 61 }],
    ['another matcher', 'PreToolUse', '^Bash$', base],
    ['no matcher', 'PreToolUse', undefined, base],
    ['another event', 'PostToolUse', '.*', base],
    ['async', 'PreToolUse', '.*', { ...base, async: true }],
  ])('%s', (_what, event, matcher, handler) => {
    expect(hookTrustHash(event, matcher, handler)).not.toBe(hash);
  });

  it("Stop's matcher is no part of it; the default timeout is", () => {
    expect(hookTrustHash('Stop', 'anything', base)).toBe(hookTrustHash('Stop', undefined, base));
    expect(hookTrustHash('Stop', undefined, { command: base.command })).toBe(hookTrustHash('Stop', undefined, { ...base, timeout: 600 }));
  });
});
