import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bubblewrapArgs, findBubblewrap, installHint, mountsFor, type Mount } from './bubblewrap.js';
import type { ProtectionPlan } from './protection-plan.js';
import { SANDBOX_VARIABLES } from './read-only-world.js';

const plan = (fields: Partial<ProtectionPlan>): ProtectionPlan => ({
  root: '/p',
  targets: [],
  readOnly: [],
  pinned: [],
  sealed: [],
  placeholders: [],
  ...fields,
});

describe('mountsFor', () => {
  const entries: Record<string, string[]> = {
    '/p': ['.isdlc', '.agent', 'src', 'docs'],
    '/p/.agent': ['settings.json', 'agents', 'hooks'],
    '/p/.agent/hooks': ['x.sh'],
  };
  const listed = (folder: string) => entries[folder] ?? [];

  it.each<[string, Partial<ProtectionPlan>, Mount[]]>([
    [
      'pinned folders writable, guarded paths read-only, parents first',
      { pinned: ['/tmp', '/p', '/p/docs'], readOnly: ['/p/.isdlc', '/p/docs/c.md'] },
      [
        { path: '/tmp', mode: 'rw' },
        { path: '/p', mode: 'rw' },
        { path: '/p/docs', mode: 'rw' },
        { path: '/p/.isdlc', mode: 'ro' },
        { path: '/p/docs/c.md', mode: 'ro' },
      ],
    ],
    [
      'a sealed folder read-only with its entries bound back, a guarded entry staying read-only',
      { pinned: ['/p', '/p/.agent'], sealed: ['/p/.agent'], readOnly: ['/p/.agent/settings.json'] },
      [
        { path: '/p', mode: 'rw' },
        { path: '/p/.agent', mode: 'ro' },
        { path: '/p/.agent/settings.json', mode: 'ro' },
        { path: '/p/.agent/agents', mode: 'rw' },
        { path: '/p/.agent/hooks', mode: 'rw' },
      ],
    ],
    [
      'a sealed folder inside a sealed folder stays sealed, whichever comes first',
      { sealed: ['/p/.agent/hooks', '/p/.agent'] },
      [
        { path: '/p/.agent', mode: 'ro' },
        { path: '/p/.agent/hooks', mode: 'ro' },
        { path: '/p/.agent/settings.json', mode: 'rw' },
        { path: '/p/.agent/agents', mode: 'rw' },
        { path: '/p/.agent/hooks/x.sh', mode: 'rw' },
      ],
    ],
    [
      'nothing inside a guarded folder is bound back writable',
      { sealed: ['/p'], readOnly: ['/p/.isdlc'], pinned: ['/p/.isdlc/projects'] },
      [
        { path: '/p', mode: 'ro' },
        { path: '/p/.isdlc', mode: 'ro' },
        { path: '/p/.agent', mode: 'rw' },
        { path: '/p/src', mode: 'rw' },
        { path: '/p/docs', mode: 'rw' },
      ],
    ],
    [
      '/dev, /proc and /sys are the sandbox own: never bound from the host',
      { pinned: ['/dev', '/dev/shm', '/dev/shm/p'] },
      [
        { path: '/dev/shm', mode: 'rw' },
        { path: '/dev/shm/p', mode: 'rw' },
      ],
    ],
  ])('%s', (_name, fields, expected) => {
    expect(mountsFor(plan(fields), listed)).toEqual(expected);
  });
});

describe('bubblewrapArgs', () => {
  const command = { file: '/bin/sh', args: ['-c', 'npm test'], cwd: '/p/pkg' };
  const mounts: Mount[] = [
    { path: '/p', mode: 'rw' },
    { path: '/p/.isdlc', mode: 'ro' },
  ];

  it('as a user: its own user namespace, no nested one, no capabilities, the machine read-only, private temp folders, the mounts, then the command', () => {
    expect(bubblewrapArgs(mounts, command, false)).toEqual([
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-user',
      '--disable-userns',
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--ro-bind',
      '/sys',
      '/sys',
      '--tmpfs',
      '/tmp',
      '--tmpfs',
      '/var/tmp',
      '--bind',
      '/p',
      '/p',
      '--ro-bind',
      '/p/.isdlc',
      '/p/.isdlc',
      ...Object.entries(SANDBOX_VARIABLES).flatMap(([name, value]) => ['--setenv', name, value]),
      '--chdir',
      '/p/pkg',
      '--',
      '/bin/sh',
      '-c',
      'npm test',
    ]);
  });

  it('as root: no user namespace, every capability dropped', () => {
    const args = bubblewrapArgs(mounts, command, true);
    expect(args).not.toContain('--unshare-user');
    expect(args.slice(0, 4)).toEqual(['--die-with-parent', '--unshare-pid', '--cap-drop', 'ALL']);
  });

  it('never a new session: the command stays in the process group command.ts signals', () => {
    expect(bubblewrapArgs(mounts, command, false)).not.toContain('--new-session');
  });
});

describe('installHint', () => {
  it.each([
    ['ID=debian\n', 'apt-get install bubblewrap'],
    ['ID=ubuntu\nID_LIKE=debian\n', 'apt-get install bubblewrap'],
    ['ID=linuxmint\nID_LIKE="ubuntu debian"\n', 'apt-get install bubblewrap'],
    ['ID="fedora"\n', 'install bubblewrap (bwrap) from your distribution'],
    ['ID=arch\n', 'install bubblewrap (bwrap) from your distribution'],
    [undefined, 'install bubblewrap (bwrap) from your distribution'],
  ])('%j: %s', (osRelease, hint) => {
    expect(installHint(osRelease)).toBe(hint);
  });
});

describe('findBubblewrap', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-bwrap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.skipIf(process.platform === 'win32')('prefers the system folders; ignores PATH entries that are not absolute', () => {
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'bwrap'), '#!/bin/sh\n');
    chmodSync(join(dir, 'bin', 'bwrap'), 0o755);
    const system = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];
    const found = findBubblewrap(`${join(dir, 'bin')}`);
    expect(found === join(dir, 'bin', 'bwrap') || system.includes(found ?? '')).toBe(true);
    const relative = findBubblewrap('node_modules/.bin');
    expect(relative === undefined || system.includes(relative)).toBe(true);
  });
});
