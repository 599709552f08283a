// isdlc's part of `.codex/config.toml`: two marked blocks (a key before every table, the tables at the end),
// put in beside the person's config and taken out again leaving it as it was.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOnlyPaths } from './setup.js';
import { configBlocks, personsDefaultPermissions, withIsdlcBlocks, withoutIsdlcBlocks } from './profile.js';
import { withOurHooks, withoutOurHooks } from './hooks-json.js';

const blocks = configBlocks(['.isdlc', 'docs/isdlc/constitution.md'], { command: '/usr/bin/node', args: ['/p/.isdlc/bin/isdlc.cjs', 'mcp', '--dir', '/p'] });

describe('config.toml blocks', () => {
  it.each([
    ['no file', undefined],
    ['an empty file', ''],
    ['top-level keys and a table', 'model = "gpt-5.5"\n\n[tui]\nnotifications = true\n'],
    ['comments and no final newline', '# mine\nmodel_reasoning_effort = "high"'],
  ])('%s: the key comes first, the tables last, and taking them out gives the person their lines back', (_name, text) => {
    const withOurs = withIsdlcBlocks(text, blocks);
    expect(withOurs.startsWith(`${blocks.top}\n`)).toBe(true);
    expect(withOurs.endsWith(`${blocks.end}\n`)).toBe(true);
    expect(withoutIsdlcBlocks(withOurs).replace(/\n+$/, '')).toBe((text ?? '').replace(/\n+$/, ''));
    // A second init changes nothing.
    expect(withIsdlcBlocks(withOurs, blocks)).toBe(withOurs);
  });

  it('reads a default_permissions the person set, outside isdlc blocks only', () => {
    expect(personsDefaultPermissions('default_permissions = "mine"\n')).toBe('mine');
    expect(personsDefaultPermissions(withIsdlcBlocks('', blocks))).toBeUndefined();
  });

  it('names every guarded path read-only, the MCP server and its approval', () => {
    expect(blocks.end).toContain('".isdlc" = "read"');
    expect(blocks.end).toContain('"docs/isdlc/constitution.md" = "read"');
    expect(blocks.end).toContain('args = ["/p/.isdlc/bin/isdlc.cjs", "mcp", "--dir", "/p"]');
    expect(blocks.end).toContain('default_tools_approval_mode = "approve"');
  });
});

describe('hooks.json', () => {
  const theirs = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './lint.sh' }] }] }, other: 1 };
  it("adds isdlc's hooks after the person's and takes only them out", () => {
    const ours = withOurHooks(theirs, '/usr/bin/node', '/p q/.isdlc/bin/isdlc.cjs');
    const pre = (ours['hooks'] as Record<string, { hooks: { command: string }[] }[]>)['PreToolUse']!;
    expect(pre).toHaveLength(2);
    expect(pre[1]!.hooks[0]!.command).toBe(
      `/usr/bin/node '/p q/.isdlc/bin/isdlc.cjs' hook --host codex || { echo 'isdlc'"'"'s hook could not answer, so isdlc refuses this call; run isdlc doctor in the project' >&2; exit 2; }`.replace(
        `'"'"'`,
        `'\\''`,
      ),
    );
    expect(withOurHooks(ours, '/usr/bin/node', '/p q/.isdlc/bin/isdlc.cjs')).toEqual(ours);
    expect(withoutOurHooks(ours)).toEqual(theirs);
    expect(withoutOurHooks(withOurHooks({}, 'node', '/p/x/isdlc.cjs'))).toEqual({});
  });
});

describe('the paths the profile holds', () => {
  it('those that exist, in docs/ each where it is, any other at its top folder, none inside another: a missing one would be stood in for by an untracked placeholder', () => {
    const root = mkdtempSync(join(tmpdir(), 'isdlc-profile-'));
    for (const dir of ['.isdlc', '.codex', 'docs/isdlc', '.git/hooks']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'docs/isdlc/constitution.md'), '#\n');
    const guarded = [
      '.isdlc',
      '.claude/settings.json',
      '.claude/settings.local.json',
      '.mcp.json',
      '.codex/hooks.json',
      'docs/isdlc/constitution.md',
      'docs/isdlc/projects/*/constitution.md',
      '.git/config',
      '.git/hooks',
      '.claude/agents',
      '.codex',
    ];
    expect(readOnlyPaths(root, guarded)).toEqual(['.codex', '.git/hooks', '.isdlc', 'docs/isdlc/constitution.md']);
  });

  it("a monorepo's pattern by the files that match it now: a project's constitution, not a project without one", () => {
    const root = mkdtempSync(join(tmpdir(), 'isdlc-profile-'));
    for (const dir of ['docs/isdlc/projects/a', 'docs/isdlc/projects/b']) mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, 'docs/isdlc/constitution.md'), '#\n');
    writeFileSync(join(root, 'docs/isdlc/projects/a/constitution.md'), '#\n');
    expect(readOnlyPaths(root, ['docs/isdlc/constitution.md', 'docs/isdlc/projects/*/constitution.md'])).toEqual([
      'docs/isdlc/constitution.md',
      'docs/isdlc/projects/a/constitution.md',
    ]);
  });
});

describe('the folders above', () => {
  it('a path held in docs/: pinned, named writable beside the read-only paths', () => {
    expect(blocks.end).toContain('".isdlc" = "read"\n"docs/isdlc/constitution.md" = "read"\n"docs" = "write"\n"docs/isdlc" = "write"\n');
  });

  it('the project: held read-only by absolute path, in the profile filesystem table, before the project-relative ones', () => {
    const held = configBlocks(['.isdlc'], { command: 'node', args: [] }, ['/tmp/work']);
    expect(held.end).toContain('[permissions.isdlc.filesystem]\n"/tmp/work" = "read"\n\n[permissions.isdlc.filesystem.":workspace_roots"]');
    expect(blocks.end).not.toContain('[permissions.isdlc.filesystem]\n');
  });
});
