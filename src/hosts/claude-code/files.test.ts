// What Claude Code adds to the guarded set (files.ts), as the sandbox, the journal and the text rules see it.
import { describe, expect, it } from 'vitest';
import { GuardedSet, type GuardedKind } from '../../integrity/guarded-set.js';
import { CLAUDE_CODE_FILES } from './files.js';

const GUARDED = new GuardedSet([CLAUDE_CODE_FILES]);
const ROOT = '/work/project';

describe("Claude Code's files in the guarded set", () => {
  it.each<[string, GuardedKind | undefined]>([
    ['.claude/settings.json', 'settings'],
    ['.claude/settings.local.json', 'settings'],
    ['.mcp.json', 'mcp'],
    ['.claude/hooks/config/skills-manifest.json', 'config'],
    ['./.mcp.json', 'mcp'],
    ['src/../.claude/settings.json', 'settings'],
    // The definitions init installs are the person's to edit: kept from commands run for the agent, not guarded.
    ['.claude/commands/isdlc.md', undefined],
    ['.claude/agents/software-developer.md', undefined],
    ['.claude/settings.backup.json', undefined],
  ])('%s is %s', (path, kind) => expect(GUARDED.fileKind(ROOT, path)).toBe(kind));

  it('adds its settings, its MCP server list, the framework config folder and its definitions to what a sandbox holds, in that order', () => {
    expect(GUARDED.paths).toEqual([
      '.isdlc',
      '.claude/settings.json',
      '.claude/settings.local.json',
      '.mcp.json',
      'docs/isdlc/constitution.md',
      'docs/isdlc/projects/*/constitution.md',
      '.claude/hooks/config',
      '.git/config',
      '.git/hooks',
      '.claude/agents',
      '.claude/skills',
      '.claude/commands',
    ]);
    expect([...GUARDED.folders].sort()).toEqual(['.claude/agents', '.claude/commands', '.claude/hooks/config', '.claude/skills', '.git/hooks', '.isdlc']);
  });

  it('names its settings files by their text where a word cannot be resolved', () => {
    for (const word of ['$P/.claude/settings.json', '$P/.claude/settings.local.json', '$P/.mcp.json', '$P/.claude/hooks/config/x.json'])
      expect(GUARDED.namedIn(word), word).toBe(true);
    expect(GUARDED.namedIn('$P/.claude/agents/x.md')).toBe(false);
  });

  it("judges a settings file by isdlc's part, and `.mcp.json` by isdlc's server", () => {
    const settings = GUARDED.sharedFile('.claude/settings.json')!;
    const record = { version: 1 as const, isdlc_version: 'x', installed_at: 'x', files: {} };
    expect(settings.isdlcPart(JSON.stringify({ model: 'opus' }), record)).toBe(settings.isdlcPart(JSON.stringify({ model: 'sonnet' }), record));
    expect(settings.isdlcPart(JSON.stringify({ disableAllHooks: true }), record)).not.toBe(settings.isdlcPart('{}', record));
    const mcp = GUARDED.sharedFile('.mcp.json')!;
    expect(mcp.isdlcPart(JSON.stringify({ mcpServers: { other: {} } }), record)).toBe(mcp.isdlcPart('{}', record));
    expect(mcp.isdlcPart(JSON.stringify({ mcpServers: { isdlc: { command: 'x' } } }), record)).not.toBe(mcp.isdlcPart('{}', record));
  });
});
