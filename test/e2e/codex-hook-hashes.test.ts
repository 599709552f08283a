// The hook hashes in test/fixtures/codex-hook-trust/hashes.json are the ones the real Codex computes:
// each pinned version lists the fixture's hooks through `codex app-server` (what the `/hooks` review
// shows) and must give every handler the recorded hash at the recorded place. isdlc's own hash
// (src/hosts/codex/hook-trust.ts) is checked against the same file by the table test beside it, so the
// two agree through Codex. ISDLC_RECORD_CODEX_HOOK_HASHES=1 writes the file anew from the hooks below.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { hookCommand } from '../../src/hosts/codex/hooks-json.js';
import { FIXTURES } from '../helpers/project.js';
import { listHooks } from './harness/codex-app-server.js';
import { codexProject, usesCodex, writeProjectFile } from './harness/codex-session.js';
import { CODEX_PINNED } from './harness/codex-versions.js';
import { OTHER_EVENT_GROUPS } from './harness/codex-hook-trust.js';

usesCodex(...CODEX_PINNED);

const FILE = join(FIXTURES, 'codex-hook-trust', 'hashes.json');

interface Fixture {
  /** A `.codex/hooks.json` document. */
  hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;
  /** Per Codex version: `<event_snake>:<group>:<handler>` → the hash Codex lists. */
  hashes: Record<string, Record<string, string>>;
}

/** isdlc's commands as init writes them, for a project in a folder with a space and a quote. */
const isdlc = (event: string): string => hookCommand('/usr/local/bin/node', "/home/a b/it's/.isdlc/bin/isdlc.cjs", event);

/** Every kind of event, matchers kept and dropped, each handler field with and without its default, odd characters. */
const HOOKS: Fixture['hooks'] = {
  SessionStart: [
    { hooks: [{ type: 'command', command: isdlc('SessionStart'), timeout: 30 }] },
    {
      matcher: 'startup|resume',
      hooks: [
        { type: 'command', command: 'a' },
        { type: 'command', command: 'b', timeout: 5 },
      ],
    },
  ],
  UserPromptSubmit: [
    { hooks: [{ type: 'command', command: isdlc('UserPromptSubmit'), timeout: 30 }] },
    { matcher: 'ignored', hooks: [{ type: 'command', command: 'prompt' }] },
  ],
  PreToolUse: [
    { matcher: '^Bash$', hooks: [{ type: 'command', command: './lint.sh' }] },
    { matcher: '.*', hooks: [{ type: 'command', command: isdlc('PreToolUse'), timeout: 60 }] },
    { matcher: '^Bash$', hooks: [{ type: 'command', command: 'echo "pre" \u00e9\t\u0001\u007f \\ done', timeout: 30 }] },
  ],
  PostToolUse: [
    { matcher: '.*', hooks: [{ type: 'command', command: isdlc('PostToolUse'), timeout: 60 }] },
    { hooks: [{ type: 'command', command: 'x', statusMessage: 'checking', additionalContextLimit: 7, commandWindows: 'y' }] },
  ],
  Stop: [
    { hooks: [{ type: 'command', command: isdlc('Stop'), timeout: 600 }] },
    { matcher: 'ignored', hooks: [{ type: 'command', command: 'stop', timeout: 0, async: true }] },
  ],
  ...OTHER_EVENT_GROUPS,
};

async function hashesOf(version: string, hooks: Fixture['hooks']): Promise<Record<string, string>> {
  const project = codexProject({ version });
  const file = writeProjectFile(project, '.codex/hooks.json', `${JSON.stringify({ hooks }, null, 2)}\n`);
  const listing = await listHooks(project);
  expect(listing.errors).toEqual([]);
  expect(listing.hooks.every((hook) => hook.key.startsWith(`${file}:`))).toBe(true);
  return Object.fromEntries(listing.hooks.map((hook) => [hook.key.slice(file.length + 1), hook.currentHash]));
}

if (process.env['ISDLC_RECORD_CODEX_HOOK_HASHES']) {
  test('records the hashes', async () => {
    const hashes: Fixture['hashes'] = {};
    for (const version of CODEX_PINNED) hashes[version] = await hashesOf(version, HOOKS);
    mkdirSync(dirname(FILE), { recursive: true });
    writeFileSync(FILE, `${JSON.stringify({ hooks: HOOKS, hashes } satisfies Fixture, null, 2)}\n`);
  });
}

describe.each(CODEX_PINNED)('Codex %s', (version) => {
  test('lists every hook of the fixture at its place with the hash recorded for it', async () => {
    const fixture = JSON.parse(readFileSync(FILE, 'utf8')) as Fixture;
    expect(fixture.hooks, 'the fixture holds the hooks this file describes').toEqual(HOOKS);
    // 0.145.0 leaves the async hook out of its list.
    expect(Object.keys(fixture.hashes[version] ?? {})).toHaveLength(version === '0.145.0' ? 17 : 18);
    expect(await hashesOf(version, fixture.hooks)).toEqual(fixture.hashes[version]);
  });
});
