// `isdlc init` then `isdlc uninstall` in a real git repository whose own files are committed in the
// person's layout (one line, four spaces, tabs and CRLF, no final line end): uninstall gives back every
// byte, `--purge` leaves no trace, and a second init on an unchanged project writes nothing.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashCall } from '../helpers/payloads.js';
import { cli, fixture, git, hook, tempDir, writeFile } from '../helpers/project.js';

/** `git ARGS` in `dir`: its output. */
function gitOut(dir: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

/** Every file under `dir` (the repository's own files included) with its content hash and modification time. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(dir, path)] = `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

interface Layout {
  settings?: string;
  mcp?: string;
  exclude?: string;
}

/** A repository with the person's files committed as `layout` has them, and a file git ignores. */
function repository(layout: Layout): string {
  const dir = tempDir('isdlc-bytes-');
  git(dir, 'init', '-q', '-b', 'main');
  if (layout.settings !== undefined) writeFile(join(dir, '.claude/settings.json'), layout.settings);
  if (layout.mcp !== undefined) writeFile(join(dir, '.mcp.json'), layout.mcp);
  writeFile(join(dir, '.gitignore'), 'node_modules/\n');
  writeFile(join(dir, 'node_modules/left-pad/index.js'), 'module.exports = 1;\n');
  writeFile(join(dir, 'src/app.js'), 'console.log(1);\n');
  if (layout.exclude !== undefined) writeFileSync(join(dir, '.git/info/exclude'), layout.exclude);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'the project');
  return dir;
}

const LAYOUTS: [string, Layout][] = [
  [
    'on one line, no final line end',
    { settings: '{"permissions":{"allow":["Bash(ls)"]}}', mcp: '{"mcpServers":{"github":{"command":"gh-mcp"}}}', exclude: '# mine\n*.swp' },
  ],
  [
    'indented by four spaces',
    {
      settings:
        '{\n    "model": "opus",\n    "permissions": {\n        "allow": [\n            "Bash(ls)"\n        ],\n        "deny": ["Read(.env)"]\n    }\n}\n',
      mcp: '{\n    "mcpServers": {\n        "github": {"command": "gh-mcp", "args": ["--stdio"]}\n    }\n}\n',
    },
  ],
  [
    'indented by tabs, with CRLF line ends',
    {
      settings:
        '{\r\n\t"hooks": {\r\n\t\t"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}]\r\n\t},\r\n\t"sandbox": {"enabled": false}\r\n}\r\n',
      mcp: '{\r\n\t"mcpServers": {}\r\n}',
      exclude: '# git ls-files --others --exclude-from=.git/info/exclude\r\n*.log\r\n',
    },
  ],
  ['with an empty object and no exclude file', { settings: '{}', mcp: '{}\n', exclude: '' }],
];

describe('isdlc uninstall gives back the person’s own files byte for byte', () => {
  it.each(LAYOUTS)('%s: git diff is empty after init and uninstall', (_layout, layout) => {
    const dir = repository(layout);
    const exclude = join(dir, '.git/info/exclude');
    if (layout.exclude === '') spawnSync('rm', [exclude]);
    const excludeBefore = existsSync(exclude) ? readFileSync(exclude) : undefined;
    const init = cli(['init', dir]);
    expect(init.status, init.stderr).toBe(0);
    // The control: init did change the person's files (in their own layout), so there is something to give back.
    expect(gitOut(dir, 'diff', '--name-only').split('\n').filter(Boolean).sort()).toEqual(['.claude/settings.json', '.mcp.json']);
    if (layout.settings && !layout.settings.trim().includes('\n')) expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).not.toContain('\n');
    if (layout.settings?.includes('\r\n')) expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).not.toMatch(/[^\r]\n/);
    if (layout.settings?.includes('\n    "model"')) expect(readFileSync(join(dir, '.claude/settings.json'), 'utf8')).toMatch(/^ {4}"sandbox": \{$/m);
    // Another init for an older Claude Code in between rewrites isdlc's part, and still nothing of the person's.
    expect(cli(['init', dir, '--claude-version', '2.1.114']).status).toBe(0);

    const uninstall = cli(['uninstall', dir]);
    expect(uninstall.status, uninstall.stderr).toBe(0);
    expect(gitOut(dir, 'diff')).toBe('');
    // What a plain uninstall keeps on purpose: the state and the constitution, untracked.
    expect(gitOut(dir, 'status', '--porcelain')).toBe('?? .isdlc/\n?? docs/\n');
    expect(existsSync(exclude) ? readFileSync(exclude) : undefined).toEqual(excludeBefore);
  });

  it("keeps a change the person made to their part since init, in their layout, and takes out only isdlc's", () => {
    const settings = '{\n    "model": "opus",\n    "permissions": {\n        "allow": [\n            "Bash(ls)"\n        ]\n    }\n}\n';
    const dir = repository({ settings });
    expect(cli(['init', dir]).status).toBe(0);
    const path = join(dir, '.claude/settings.json');
    writeFile(path, readFileSync(path, 'utf8').replace('"model": "opus"', '"model": "sonnet"'));
    expect(cli(['uninstall', dir]).status).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(settings.replace('opus', 'sonnet'));
  });
});

describe('isdlc uninstall --purge', () => {
  const layout: Layout = { settings: '{"permissions":{"allow":["Bash(ls)"]}}', mcp: '{\n    "mcpServers": {}\n}' };

  it.each([
    ['after a plain uninstall', [['uninstall'], ['uninstall', '--purge']]],
    ['on its own', [['uninstall', '--purge']]],
    ['after uninstall, init and uninstall again', [['uninstall'], ['init'], ['uninstall'], ['uninstall', '--purge']]],
  ])('%s leaves no trace: git sees what it saw before init, ignored files included', (_how, steps) => {
    const dir = repository(layout);
    const before = gitOut(dir, 'status', '--porcelain', '--ignored');
    const excludeBefore = readFileSync(join(dir, '.git/info/exclude'));
    expect(cli(['init', dir]).status).toBe(0);
    for (const step of steps) {
      const run = cli([...step, dir]);
      expect(run.status, run.stderr).toBe(0);
    }
    expect(gitOut(dir, 'status', '--porcelain', '--ignored')).toBe(before);
    expect(gitOut(dir, 'diff')).toBe('');
    expect(readFileSync(join(dir, '.git/info/exclude'))).toEqual(excludeBefore);
    expect(existsSync(join(dir, '.isdlc'))).toBe(false);
    expect(existsSync(join(dir, 'docs'))).toBe(false);
  });

  it('never removes a constitution the person wrote or edited, nor an agent file they edited, even after a plain uninstall', () => {
    const own = repository(layout);
    writeFile(join(own, 'docs/isdlc/constitution.md'), '### Article I: Ours\n');
    expect(cli(['init', own]).status).toBe(0);
    expect(cli(['uninstall', own]).status).toBe(0);
    const purge = cli(['uninstall', own, '--purge']);
    expect(purge.stdout).toMatch(/kept\s+docs\/isdlc\/constitution\.md\s+\(not created by isdlc\)/);
    expect(readFileSync(join(own, 'docs/isdlc/constitution.md'), 'utf8')).toBe('### Article I: Ours\n');

    const edited = repository(layout);
    expect(cli(['init', edited]).status).toBe(0);
    writeFile(join(edited, '.claude/agents/software-developer.md'), 'Edited by the team.\n');
    expect(cli(['uninstall', edited]).status).toBe(0);
    writeFile(join(edited, 'docs/isdlc/constitution.md'), '### Article I: Edited by the team\n');
    const run = cli(['uninstall', edited, '--purge']);
    expect(run.stdout).toMatch(/kept\s+docs\/isdlc\/constitution\.md\s+\(changed since isdlc created it\)/);
    expect(readFileSync(join(edited, 'docs/isdlc/constitution.md'), 'utf8')).toContain('Edited by the team');
    expect(readFileSync(join(edited, '.claude/agents/software-developer.md'), 'utf8')).toBe('Edited by the team.\n');
    expect(existsSync(join(edited, '.isdlc'))).toBe(false);
  });
});

describe('a second isdlc init on an unchanged project', () => {
  it('writes nothing, not even a modification time, after the hooks have run, and says so', () => {
    const dir = repository({ settings: '{"permissions":{"allow":["Bash(ls)"]}}' });
    expect(cli(['init', dir]).status).toBe(0);
    // The hooks at work: the activity log, the state, the code caches come and go in isdlc's folders.
    expect(hook(dir, fixture('session-start-compact.json', dir)).status).toBe(0);
    expect(hook(dir, bashCall(dir, 'ls')).status).toBe(0);
    const before = snapshot(dir);
    const again = cli(['init', dir]);
    expect(again.status, again.stderr).toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expect(again.stdout).toContain('is set up in');
    expect(again.stdout).toContain('already: nothing to change, no file written');
    expect(again.stdout).not.toMatch(/^\s+(created|updated|removed|unchanged)\s/m);
    const json = cli(['init', dir, '--json']);
    expect((JSON.parse(json.stdout) as { change: string }[]).filter((line) => !['unchanged', 'kept'].includes(line.change))).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  });
});
