import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { worktreeDigest } from './worktree-digest.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-tree-digest-'));
  made.push(dir);
  spawnSync('git', ['init', '-q'], { cwd: dir });
  writeFileSync(join(dir, 'a.js'), 'one\n');
  writeFileSync(join(dir, '.gitignore'), 'ignored/\n');
  spawnSync('git', ['add', '-A'], { cwd: dir });
  spawnSync('git', ['-c', 'user.email=d@example.com', '-c', 'user.name=d', 'commit', '-qm', 'one'], { cwd: dir });
  return dir;
}

describe('the digest of the files a test run reads', () => {
  it('changes with a tracked file, an untracked one, a mode and a link; not with an ignored file or isdlc’s folder', () => {
    const dir = repo();
    const first = worktreeDigest(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(worktreeDigest(dir), 'the same files').toBe(first);

    const changes: [string, () => void][] = [
      ['a tracked file edited', () => writeFileSync(join(dir, 'a.js'), 'two\n')],
      ['an untracked file', () => writeFileSync(join(dir, 'b.js'), 'new\n')],
      ['a mode', () => chmodSync(join(dir, 'b.js'), 0o755)],
      ['a link', () => symlinkSync('a.js', join(dir, 'c.js'))],
      ['a tracked file deleted', () => rmSync(join(dir, 'a.js'))],
    ];
    let before = first;
    for (const [what, act] of changes) {
      act();
      const after = worktreeDigest(dir);
      expect(after, what).not.toBe(before);
      before = after;
    }
    spawnSync('mkdir', ['-p', join(dir, 'ignored'), join(dir, '.isdlc')]);
    writeFileSync(join(dir, 'ignored/x'), 'x');
    writeFileSync(join(dir, '.isdlc/state.json'), '{}');
    expect(worktreeDigest(dir), 'ignored files and isdlc’s own are not the tests’ files').toBe(before);
  });

  it('runs no clean filter the repository’s config and attributes name', () => {
    const dir = repo();
    const marker = join(dir, '..', `${dir.split('/').pop()}-filter-ran`);
    made.push(marker);
    spawnSync('git', ['config', 'filter.planted.clean', `touch ${marker}; cat`], { cwd: dir });
    spawnSync('git', ['config', 'filter.planted.process', `sh -c 'touch ${marker}'`], { cwd: dir });
    writeFileSync(join(dir, '.gitattributes'), '* filter=planted\n');
    writeFileSync(join(dir, '.git/info/attributes'), '* filter=planted\n');
    writeFileSync(join(dir, 'a.js'), 'changed so that git would hash it again\n');
    writeFileSync(join(dir, 'new.js'), 'untracked\n');
    expect(worktreeDigest(dir)).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(marker)).toBe(false);
    // Control: git's own add runs it.
    spawnSync('git', ['add', '-A'], { cwd: dir });
    expect(existsSync(marker)).toBe(true);
  });

  it('says nothing outside a repository', () => {
    const dir = mkdtempSync(join(tmpdir(), 'isdlc-tree-digest-none-'));
    made.push(dir);
    expect(worktreeDigest(dir)).toBeUndefined();
  });
});
