import { describe, expect, it } from 'vitest';
import { withOurBlock, withoutOurBlock } from './git-exclude.js';

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
