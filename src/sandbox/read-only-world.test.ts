import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keptVisible, worldMounts, type Mount } from './read-only-world.js';

describe('worldMounts', () => {
  it.each<[string, string, Mount[], string[], Mount[]]>([
    [
      'the root writable; guarded paths inside it as planned; ancestors of the root left out',
      '/home/me/p',
      [
        { path: '/home', mode: 'rw' },
        { path: '/home/me', mode: 'rw' },
        { path: '/home/me/p', mode: 'rw' },
        { path: '/home/me/p/.isdlc', mode: 'ro' },
      ],
      [],
      [
        { path: '/home/me/p', mode: 'rw' },
        { path: '/home/me/p/.isdlc', mode: 'ro' },
      ],
    ],
    [
      'outside the root, nothing writable and nothing bound where the machine is read-only anyway',
      '/home/me/p',
      [
        { path: '/home/me/.claude', mode: 'ro' },
        { path: '/home/me/.claude/agents', mode: 'rw' },
        { path: '/srv/repo/.git', mode: 'rw' },
        { path: '/home/me/p', mode: 'rw' },
      ],
      [],
      [{ path: '/home/me/p', mode: 'rw' }],
    ],
    [
      'under a private temp folder: what must be seen is bound read-only, a planned writable folder too',
      '/tmp/t1/p',
      [
        { path: '/tmp', mode: 'rw' },
        { path: '/tmp/t1', mode: 'rw' },
        { path: '/tmp/t1/p', mode: 'rw' },
        { path: '/tmp/t1/p/docs', mode: 'rw' },
        { path: '/tmp/t1/main/.git', mode: 'rw' },
        { path: '/tmp/t1/p/docs/c.md', mode: 'ro' },
      ],
      ['/tmp/t1/home', '/tmp/t1/p/node_modules/.bin'],
      [
        { path: '/tmp/t1/p', mode: 'rw' },
        { path: '/tmp/t1/home', mode: 'ro' },
        { path: '/tmp/t1/main/.git', mode: 'ro' },
        { path: '/tmp/t1/p/docs', mode: 'rw' },
        { path: '/tmp/t1/p/docs/c.md', mode: 'ro' },
      ],
    ],
    [
      "a monorepo's top in a temp folder, holding the project: seen read-only, the project bound over it",
      '/tmp/t1/mono/packages/a',
      [
        { path: '/tmp', mode: 'rw' },
        { path: '/tmp/t1', mode: 'rw' },
        { path: '/tmp/t1/mono', mode: 'rw' },
        { path: '/tmp/t1/mono/packages/a', mode: 'rw' },
        { path: '/tmp/t1/mono/.git/hooks', mode: 'ro' },
      ],
      ['/tmp/t1/mono'],
      [
        { path: '/tmp/t1/mono', mode: 'ro' },
        { path: '/tmp/t1/mono/packages/a', mode: 'rw' },
        { path: '/tmp/t1/mono/.git/hooks', mode: 'ro' },
      ],
    ],
  ])('%s', (_name, root, planned, visible, expected) => {
    expect(worldMounts(planned, root, visible)).toEqual(expected);
  });
});

describe('keptVisible', () => {
  const dir = mkdtempSync('/tmp/isdlc-world-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the home, PATH and Node folders that lie in a temp folder and exist; nothing else', () => {
    mkdirSync(join(dir, 'home'));
    mkdirSync(join(dir, 'bin'));
    const env = { HOME: join(dir, 'home'), PATH: `/usr/bin:${join(dir, 'bin')}:${join(dir, 'gone')}:relative:/tmp` };
    expect(keptVisible(env, '/usr/local/bin')).toEqual([join(dir, 'home'), join(dir, 'bin')]);
    expect(keptVisible(env, join(dir, 'bin'))).toEqual([join(dir, 'home'), join(dir, 'bin')]);
  });
});
