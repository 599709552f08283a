import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentWritableFolder, firstOnPath, trustedProgram } from './program-path.js';

describe('agentWritableFolder', () => {
  it.each([
    ['node_modules/.bin', true],
    ['.', true],
    ['/p/node_modules/.bin', true],
    ['/p', true],
    ['/tmp/x/bin', true],
    ['/var/tmp/bin', true],
    ['/usr/bin', false],
    ['/home/me/.nvm/versions/node/v22/bin', false],
    ['/pother/bin', false],
  ])('%s: %s', (folder, writable) => {
    expect(agentWritableFolder(folder, '/p', ['/tmp', '/var/tmp'])).toBe(writable);
  });
});

describe('firstOnPath and trustedProgram', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-program-path-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const program = (folder: string, name: string) => {
    mkdirSync(join(dir, folder), { recursive: true });
    writeFileSync(join(dir, folder, name), '#!/bin/sh\n');
    chmodSync(join(dir, folder, name), 0o755);
    return join(dir, folder, name);
  };

  it.skipIf(process.platform === 'win32')('finds the first executable on PATH, as a shell would; skips one not executable', () => {
    const planted = program('first', 'git');
    writeFileSync(join(dir, 'first', 'node'), 'not executable');
    expect(firstOnPath('git', `${join(dir, 'first')}:/usr/bin`)).toBe(planted);
    expect(firstOnPath('node', `${join(dir, 'first')}:${join(dir, 'none')}`)).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')("picks the system's program before a planted one in a temp folder first on PATH", () => {
    program('planted', 'git');
    const chosen = trustedProgram('git', '/p', { PATH: `${join(dir, 'planted')}:/usr/bin` });
    expect(chosen).not.toBe(join(dir, 'planted', 'git'));
    expect(trustedProgram('isdlc-no-such-program', '/p', { PATH: join(dir, 'planted') })).toBeUndefined();
  });
});
