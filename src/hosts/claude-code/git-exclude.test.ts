import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mountPointFor, sandboxMountNames, withOurBlock, withoutOurBlock } from './git-exclude.js';

const GIT_DEFAULT = '# git ls-files --others --exclude-from=.git/info/exclude\n# *.[oa]\n';

describe("isdlc's block in .git/info/exclude", () => {
  it('is added after what is there, anchored at the root, and taken out to the byte', () => {
    const withBlock = withOurBlock(GIT_DEFAULT, ['.bashrc', '.claude/settings.local.json']);
    expect(withBlock.startsWith(GIT_DEFAULT)).toBe(true);
    expect(withBlock).toContain('\n/.bashrc\n/.claude/settings.local.json\n');
    expect(withoutOurBlock(withBlock)).toBe(GIT_DEFAULT);
  });

  it('is replaced, not repeated, and an empty list takes it out', () => {
    const once = withOurBlock(GIT_DEFAULT, ['.bashrc']);
    const twice = withOurBlock(once, ['.zshrc']);
    expect(twice.match(/# isdlc: end/g)).toHaveLength(1);
    expect(twice).toContain('/.zshrc');
    expect(twice).not.toContain('/.bashrc');
    expect(withOurBlock(twice, [])).toBe(GIT_DEFAULT);
  });

  it("keeps the user's lines after the block, and a file without a final newline", () => {
    const user = 'node_modules';
    const withBlock = `${withOurBlock(user, ['.idea'])}dist/\n`;
    expect(withoutOurBlock(withBlock)).toBe('node_modules\ndist/\n');
  });
});

describe('the names the sandbox mounts for what does not exist', () => {
  const root = mkdtempSync(join(tmpdir(), 'isdlc-mounts-'));
  mkdirSync(join(root, '.claude', 'agents'), { recursive: true });
  mkdirSync(join(root, 'docs', 'isdlc'), { recursive: true });
  writeFileSync(join(root, 'docs', 'isdlc', 'constitution.md'), '# c\n');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    ['an existing file: nothing', 'docs/isdlc/constitution.md', undefined],
    ['a missing file whose folder exists: the file', '.claude/settings.local.json', '.claude/settings.local.json'],
    ['a missing folder under a missing one: the first missing folder', '.claude/hooks/config', '.claude/hooks'],
    ["a monorepo project's constitution: the first missing folder", 'docs/isdlc/projects/api/constitution.md', 'docs/isdlc/projects'],
    ['a path under a missing top folder', 'a/b/c.txt', 'a'],
  ])('%s', (_, path, mount) => {
    expect(mountPointFor(root, path)).toBe(mount);
  });

  it("lists Claude Code's placeholders, its staging folder and the mount points, but nothing in .git or that exists", () => {
    const names = sandboxMountNames(root, ['.isdlc', '.claude/hooks/config', '.claude/settings.local.json', 'docs/isdlc/constitution.md', '.git/hooks']);
    expect(names).toEqual(expect.arrayContaining(['.bashrc', '.claude/.cc-writes', '.claude/hooks', '.claude/settings.local.json', '.isdlc']));
    expect(names).not.toContain('.claude/agents');
    expect(names).not.toContain('docs/isdlc/constitution.md');
    expect(names.filter((name) => name.startsWith('.git/'))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });
});
