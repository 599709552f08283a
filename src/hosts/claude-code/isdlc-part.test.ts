import { describe, expect, it } from 'vitest';
import type { OwnedRecord } from './owned-settings.js';
import { isdlcPartOf } from './isdlc-part.js';

const owned: OwnedRecord = {
  set: { 'sandbox.enabled': { ours: true, had: false } },
  added: { 'permissions.deny': ['Edit(/.isdlc/**)'] },
};
const base = {
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node', args: ['${CLAUDE_PROJECT_DIR}/.isdlc/bin/isdlc.cjs', 'hook'] }] }] },
  sandbox: { enabled: true },
  permissions: { allow: ['Bash(npm test)'], deny: ['Edit(/.isdlc/**)', 'Read(.env)'] },
};
const text = (value: unknown): string => JSON.stringify(value);
const part = (value: unknown): string | undefined => isdlcPartOf('settings', text(value), owned);

describe("isdlc's part of Claude Code's settings", () => {
  const same: [string, unknown][] = [
    ['the person allows another command', { ...base, permissions: { ...base.permissions, allow: ['Bash(npm test)', 'Bash(make)'] } }],
    ['the person adds a deny rule of their own', { ...base, permissions: { ...base.permissions, deny: [...base.permissions.deny, 'Read(secrets/**)'] } }],
    ['the person sets a model', { ...base, model: 'opus' }],
    ['the deny rules in another order', { ...base, permissions: { ...base.permissions, deny: ['Read(.env)', 'Edit(/.isdlc/**)'] } }],
  ];
  for (const [what, changed] of same) it(`unchanged when ${what}`, () => expect(part(changed)).toBe(part(base)));

  const differs: [string, unknown][] = [
    ['a hook is removed', { ...base, hooks: {} }],
    ['a hook is added', { ...base, hooks: { ...base.hooks, Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }],
    ['all hooks are disabled', { ...base, disableAllHooks: true }],
    ['an environment variable reaches the hooks', { ...base, env: { ISDLC_DRY_RUN: '1' } }],
    ['the sandbox is turned off', { ...base, sandbox: { enabled: false } }],
    ['a command is excluded from the sandbox', { ...base, sandbox: { enabled: true, excludedCommands: ['python3'] } }],
    ["isdlc's deny rule is taken out", { ...base, permissions: { ...base.permissions, deny: ['Read(.env)'] } }],
  ];
  for (const [what, changed] of differs) it(`changed when ${what}`, () => expect(part(changed)).not.toBe(part(base)));

  it('a file that is not a JSON object has no part to compare', () => {
    expect(isdlcPartOf('settings', '{', owned)).toBeUndefined();
    expect(isdlcPartOf('settings', '[]', owned)).toBeUndefined();
  });
  it('a missing file reads as empty settings', () => expect(isdlcPartOf('settings', undefined, owned)).toBe(part({})));
});

describe("isdlc's part of .mcp.json", () => {
  const server = { command: 'node', args: ['.isdlc/bin/isdlc.cjs', 'mcp'] };
  const mcp = (value: unknown): string | undefined => isdlcPartOf('mcp', text(value), undefined);
  it('another server is the person’s', () =>
    expect(mcp({ mcpServers: { isdlc: server, other: { command: 'x' } } })).toBe(mcp({ mcpServers: { isdlc: server } })));
  it("isdlc's server pointed elsewhere is a change", () =>
    expect(mcp({ mcpServers: { isdlc: { ...server, args: ['evil.js'] } } })).not.toBe(mcp({ mcpServers: { isdlc: server } })));
  it("isdlc's server removed is a change", () => expect(mcp({ mcpServers: {} })).not.toBe(mcp({ mcpServers: { isdlc: server } })));
});
