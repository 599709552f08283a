import { describe, expect, it } from 'vitest';
import { EXAMPLE_GUARDED, EXAMPLE_HOST_FILES } from '../../test/helpers/hosts.js';
import { unjournaled } from './unjournaled.js';
import { viewOf } from './watched-files.js';

describe('what the journal leaves to other checks (paths inside .isdlc/)', () => {
  const table: [string, boolean][] = [
    ['state.json', false],
    ['projects/api/state.json', false],
    ['config/iteration-requirements.json', false],
    ['monorepo.json', false],
    ['install.json', false],
    ['bin/hook-turn.cjs', false],
    ['bin/loop.cjs', false],
    ['loop.db', false],
    ['constitution.md', false],
    ['new-folder/anything', false],
    ['journal/index.json', true],
    ['branch-heads/calls.log', true],
    ['hook-activity.log', true],
    ['hook-activity.log.1', true],
    ['state.json.lock', true],
    ['.state.json.123.4.tmp', true],
    ['bin/hook-turn.cjs.v20.20.2-x64-1-2.cache', true],
    ['loop.db-wal', true],
    ['loop.db-shm', true],
    ['rule-sandbox.json', true],
    ['state.json.rejected-2026-11-26T12-00-00-000Z', true],
    ['state.corrupt-2026-11-26T12-00-00-000Z.json', true],
    ['tasks.md', true],
    ['projects/api/tasks.md', true],
  ];
  for (const [rel, expected] of table) {
    it(`${rel}: ${expected ? 'not journaled' : 'journaled'}`, () => expect(unjournaled(rel)).toBe(expected));
  }
});

describe('how a change is judged', () => {
  it.each([
    ['.isdlc/state.json', 'bytes'],
    ['.isdlc/loop.db', 'loop-rows'],
    ['docs/isdlc/constitution.md', 'bytes'],
  ])('%s: %s', (rel, view) => expect(viewOf(rel, EXAMPLE_GUARDED)).toBe(view));

  it("a host's shared file by isdlc's part of it, as the host defines that part", () => {
    expect(viewOf('.agent/settings.json', EXAMPLE_GUARDED)).toBe(EXAMPLE_HOST_FILES.shared[0]);
    expect(viewOf('.agent/mcp.json', EXAMPLE_GUARDED)).toBe(EXAMPLE_HOST_FILES.shared[1]);
  });
});
