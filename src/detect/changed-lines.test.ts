// What a workflow changed, read from a real git repository: committed, staged and unstaged edits and
// untracked source files since the base commit, as line ranges of source files only; a base that is no
// longer an ancestor (history rewritten) is no answer.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { changedSince, headCommit, isSourceFile } from './changed-lines.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function git(dir: string, ...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=dev', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim();
}

function write(dir: string, file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

const lines = (n: number, word = 'line'): string => Array.from({ length: n }, (_, i) => `const ${word}${i + 1} = ${i + 1};\n`).join('');

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-changed-'));
  made.push(dir);
  git(dir, 'init', '-q', '-b', 'main');
  write(dir, 'src/a.js', lines(10));
  write(dir, 'src/b.ts', lines(5));
  write(dir, 'src/gone.js', lines(3));
  write(dir, 'README.md', '# x\n');
  write(dir, '.gitignore', 'build/\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  return dir;
}

describe('isSourceFile', () => {
  it.each([
    ['src/slug.js', true],
    ['lib/parse.ts', true],
    ['app/models/user.rb', true],
    ['pkg/server.go', true],
    ['shop/prices.py', true],
    ['src/slug.test.js', false],
    ['src/slug.spec.ts', false],
    ['pkg/server_test.go', false],
    ['tests/test_prices.py', false],
    ['shop/test_prices.py', false],
    ['test/helpers.js', false],
    ['src/__tests__/slug.js', false],
    ['vitest.config.ts', false],
    ['stryker.conf.js', false],
    ['.eslintrc.js', false],
    ['.github/scripts/release.js', false],
    ['docs/guide.md', false],
    ['package.json', false],
    ['node_modules/x/index.js', false],
    ['Makefile', false],
  ])('%s → %s', (file, source) => {
    expect(isSourceFile(file)).toBe(source);
  });
});

describe('changedSince: the workflow base to the working tree', () => {
  it('committed, staged, unstaged and untracked source lines; tests, docs, ignored and deleted files left out', () => {
    const dir = repo();
    const base = headCommit(dir)!;
    expect(base).toMatch(/^[0-9a-f]{40}$/);
    // Committed since the base: line 2 of a.js.
    write(dir, 'src/a.js', lines(10).replace('const line2 = 2;', 'const line2 = 22;'));
    git(dir, 'commit', '-qam', 'two');
    // Staged: b.ts gets two lines at its end.
    write(dir, 'src/b.ts', `${lines(5)}export const x = 1;\nexport const y = 2;\n`);
    git(dir, 'add', 'src/b.ts');
    // Unstaged: line 9 of a.js.
    write(dir, 'src/a.js', lines(10).replace('const line2 = 2;', 'const line2 = 22;').replace('const line9 = 9;', 'const line9 = 99;'));
    write(dir, 'src/new.js', lines(3, 'fresh'));
    write(dir, 'src/new.test.js', lines(3, 'check'));
    write(dir, 'build/out.js', lines(3));
    write(dir, 'README.md', '# changed\n');
    unlinkSync(join(dir, 'src/gone.js'));
    const changed = changedSince(dir, base);
    expect(changed).toEqual({
      ok: true,
      files: [
        {
          file: 'src/a.js',
          ranges: [
            [2, 2],
            [9, 9],
          ],
        },
        { file: 'src/b.ts', ranges: [[6, 7]] },
        { file: 'src/new.js', ranges: [[1, 3]] },
      ],
      lines: 7,
    });
  });

  it('nothing changed: no files', () => {
    const dir = repo();
    expect(changedSince(dir, headCommit(dir)!)).toEqual({ ok: true, files: [], lines: 0 });
  });

  it('a base that is no longer an ancestor of HEAD (history rewritten) is no answer', () => {
    const dir = repo();
    write(dir, 'src/a.js', lines(11));
    git(dir, 'commit', '-qam', 'later');
    const base = headCommit(dir)!;
    git(dir, 'reset', '-q', '--hard', 'HEAD~1');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'elsewhere');
    const changed = changedSince(dir, base);
    expect(changed.ok).toBe(false);
    expect(changed.ok ? '' : changed.why).toContain('no longer an ancestor of HEAD');
  });

  it('a base the repository does not have, and one that is not a commit id', () => {
    const dir = repo();
    expect(changedSince(dir, 'f'.repeat(40))).toMatchObject({ ok: false, why: expect.stringContaining('not in the repository') });
    expect(changedSince(dir, 'HEAD~1')).toMatchObject({ ok: false, why: expect.stringContaining('not a commit id') });
  });

  it('no commit, no repository: no head', () => {
    const empty = mkdtempSync(join(tmpdir(), 'isdlc-changed-'));
    made.push(empty);
    expect(headCommit(empty)).toBeNull();
    git(empty, 'init', '-q');
    expect(headCommit(empty)).toBeNull();
  });

  it("runs no diff driver the repository's config names", () => {
    const dir = repo();
    const base = headCommit(dir)!;
    const marker = join(dir, 'driver-ran');
    write(dir, '.gitattributes', '*.js diff=planted\n');
    git(dir, 'config', 'diff.planted.command', `touch ${marker}`);
    git(dir, 'config', 'diff.planted.textconv', `sh -c 'touch ${marker}; cat "$1"' --`);
    write(dir, 'src/a.js', `${lines(10)}const more = 1;\n`);
    const changed = changedSince(dir, base);
    expect(changed).toMatchObject({ ok: true, files: [{ file: 'src/a.js', ranges: [[11, 11]] }] });
    expect(spawnSync('test', ['-e', marker]).status, 'the planted driver did not run').not.toBe(0);
  });

  it("runs no clean filter the repository's config and attributes name (git diff of the working tree would)", () => {
    const dir = repo();
    const base = headCommit(dir)!;
    const marker = join(dir, '..', `${dir.split('/').pop()}-filter-ran`);
    made.push(marker);
    write(dir, '.gitattributes', '* filter=planted\n');
    write(dir, '.git/info/attributes', '* filter=planted\n');
    git(dir, 'config', 'filter.planted.clean', `touch ${marker}; cat`);
    git(dir, 'config', 'filter.planted.process', `sh -c 'touch ${marker}'`);
    write(dir, 'src/a.js', `${lines(10)}const more = 1;\n`);
    write(dir, 'src/new.js', lines(2));
    const changed = changedSince(dir, base);
    expect(changed).toMatchObject({
      ok: true,
      files: [
        { file: 'src/a.js', ranges: [[11, 11]] },
        { file: 'src/new.js', ranges: [[1, 2]] },
      ],
    });
    expect(spawnSync('test', ['-e', marker]).status, 'the planted filter did not run').not.toBe(0);
    // Control: git's own diff of the working tree runs it.
    spawnSync('git', ['diff', base, '--stat'], { cwd: dir });
    expect(spawnSync('test', ['-e', marker]).status, 'git diff ran the planted filter').toBe(0);
  });
});
