// The folders above what the Codex profile holds: those it pins inside the project (names writable, so that
// they are mounts that cannot be renamed), and the parent it holds read-only above a project in a temp folder.
import { describe, expect, it } from 'vitest';
import { foldersAboveHeld, parentsAboveProject } from './folders-above.js';

describe('foldersAboveHeld', () => {
  it.each([
    ['a folder held whole has nothing above it in the project', ['.isdlc', '.mcp.json'], []],
    ['the constitution: docs and docs/isdlc', ['docs/isdlc/constitution.md'], ['docs', 'docs/isdlc']],
    ['Claude Code settings files: .claude once', ['.claude/settings.json', '.claude/settings.local.json', '.claude/agents'], ['.claude']],
    ['.git is pinned, its config and hooks held: the agent commits, as under Claude Code', ['.git/config', '.git/hooks'], ['.git']],
    ['.codex and .agents likewise', ['.codex/hooks.json', '.agents/skills'], []],
    ['a folder inside a held one is not pinned', ['docs', 'docs/isdlc/constitution.md'], []],
    [
      'a project as init leaves it for both hosts',
      [
        '.isdlc',
        '.claude/settings.json',
        '.claude/settings.local.json',
        '.mcp.json',
        'docs/isdlc/constitution.md',
        '.claude/hooks',
        '.git/config',
        '.git/hooks',
        '.codex',
      ],
      ['.claude', '.git', 'docs', 'docs/isdlc'],
    ],
  ])('%s', (_name, readOnly, pinned) => {
    expect(foldersAboveHeld(readOnly)).toEqual(pinned);
  });
});

describe('parentsAboveProject', () => {
  it.each([
    ['a project outside every temp folder', '/home/ann/code/app', ['/tmp'], []],
    ['a project directly in /tmp (the workspace root, a mount of its own: nothing above it to rename)', '/tmp/app', ['/tmp'], []],
    ['one folder down in /tmp', '/tmp/work/app', ['/tmp'], ['/tmp/work']],
    ['several folders down: the topmost holds the rest', '/tmp/a/b/c/app', ['/tmp'], ['/tmp/a']],
    ['in $TMPDIR, which lies in /tmp: $TMPDIR itself stays writable', '/tmp/user-1000/x/app', ['/tmp', '/tmp/user-1000'], ['/tmp/user-1000/x']],
    ['directly in $TMPDIR inside /tmp', '/tmp/user-1000/app', ['/tmp', '/tmp/user-1000'], []],
    ['a name that only starts like the temp folder', '/tmpfiles/a/app', ['/tmp'], []],
    ['the temp folder itself as the project', '/tmp', ['/tmp'], []],
  ])('%s', (_name, root, temps, held) => {
    expect(parentsAboveProject(root, temps)).toEqual(held);
  });
});
