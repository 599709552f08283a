// A loop rule is the agent's code run by isdlc's Stop hook or MCP server. Whatever it leaves outside the
// project is read later by programs that have no sandbox: isdlc's own git calls read ~/.gitconfig (a
// `gpg.program` there would run), the next hook starts the first `node` on PATH, npm reads its global
// config, Claude Code reads managed settings from a folder that may not exist yet. In the OS sandbox a
// rule writes none of them, by any route; the control shows each route does write without it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, git, initedProject, tempDir, writeFile } from '../helpers/project.js';
import { runRuleOnWorker } from '../helpers/rule-worker.js';
import { probeOsSandbox } from '../../src/sandbox/os-sandbox.js';
import type { RuleResult } from '../../src/loop/types.js';

const here = probeOsSandbox();

const runRule = (project: string, command: string, env: NodeJS.ProcessEnv, unguarded = false): RuleResult =>
  runRuleOnWorker(project, command, { env, unguarded });

/** A project, and a home and a PATH folder of the person's (in a temp folder, as on a test machine). */
function setting(): { dir: string; home: string; bin: string; env: NodeJS.ProcessEnv; mark: string } {
  const dir = initedProject('isdlc-rule-outside-');
  const home = tempDir('isdlc-rule-outside-home-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFile(join(home, '.gitconfig'), '[user]\n\tname = Person\n');
  const mark = `isdlc-planted-${process.pid}-${Date.now()}`;
  return { dir, home, bin, env: { ...process.env, HOME: home, PATH: `${bin}:${process.env['PATH'] ?? ''}`, CLAUDE_CONFIG_DIR: '' }, mark };
}

/** Each route writes one place outside the project; `planted` says whether it is there afterwards. */
const ROUTES: { name: string; command: string; planted: (s: ReturnType<typeof setting>) => boolean; control: boolean }[] = [
  {
    name: "git's global config (a gpg.program isdlc's git log would run)",
    command: 'git config --global log.showSignature true && git config --global gpg.program "$PWD/evil.sh"',
    planted: (s) => readFileSync(join(s.home, '.gitconfig'), 'utf8').includes('showSignature'),
    control: true,
  },
  {
    name: 'a .gitconfig written by python',
    command: `python3 -c "import os; open(os.path.expanduser('~/.gitconfig'), 'a').write('[core]\\n\\tfsmonitor = /bin/evil\\n')"`,
    planted: (s) => readFileSync(join(s.home, '.gitconfig'), 'utf8').includes('fsmonitor'),
    control: true,
  },
  {
    name: 'a node put into a PATH folder ahead of the system one',
    command: `printf '#!/bin/sh\\necho pwned\\n' > "$(echo "$PATH" | cut -d: -f1)/node" && chmod +x "$(echo "$PATH" | cut -d: -f1)/node"`,
    planted: (s) => existsSync(join(s.bin, 'node')),
    control: true,
  },
  {
    name: "the user's npmrc (node-options, script-shell)",
    command: 'echo "script-shell=/bin/evil" >> "$HOME/.npmrc"',
    planted: (s) => existsSync(join(s.home, '.npmrc')),
    control: true,
  },
  {
    name: 'a file in the machine-wide /tmp, read by a later process',
    command: 'echo planted > "/tmp/$MARK" && echo planted > "/var/tmp/$MARK"',
    planted: (s) => existsSync(join('/tmp', s.mark)) || existsSync(join('/var/tmp', s.mark)),
    control: false,
  },
  {
    name: 'a managed settings folder that does not exist yet',
    command: `mkdir -p /etc/claude-code-$MARK && echo '{"disableAllHooks":true}' > /etc/claude-code-$MARK/managed-settings.json`,
    planted: (s) => existsSync(`/etc/claude-code-${s.mark}`),
    control: false,
  },
  {
    name: "npm's global config in its prefix",
    command: 'npm config set script-shell /bin/evil --location=global 2>&1; test -f "$(npm prefix -g)/etc/npmrc" && grep -q evil "$(npm prefix -g)/etc/npmrc"',
    planted: () => {
      const prefix = spawnSync('npm', ['prefix', '-g'], { encoding: 'utf8' }).stdout.trim();
      try {
        return readFileSync(join(prefix, 'etc/npmrc'), 'utf8').includes('/bin/evil');
      } catch {
        return false;
      }
    },
    control: false,
  },
];

describe.skipIf(!here.ok || process.platform !== 'linux')('a rule in the OS sandbox, outside the project', () => {
  it.each(ROUTES)('writes nothing: $name', (route) => {
    const s = setting();
    runRule(s.dir, route.command, { ...s.env, MARK: s.mark });
    expect(route.planted(s)).toBe(false);
    expect(readdirSync(s.bin)).toEqual([]);
  });

  it.each([
    [
      'the toolchains keep their caches in the private temp folder',
      'npm cache ls >/dev/null 2>&1; mkdir -p "$XDG_CACHE_HOME/tool" && echo 1 > "$XDG_CACHE_HOME/tool/x" && test "$TMPDIR" = /tmp',
    ],
    ['the home folder and git config are read', 'test -f "$HOME/.gitconfig" && test "$(git config --global user.name)" = Person'],
    ['a program from a PATH folder in a temp folder runs', 'command -v node && node -e 0'],
    ['temp files come and go', 'd=$(mktemp -d) && echo x > "$d/f" && cat "$d/f" && rm -r "$d"'],
  ])('ordinary work passes: %s', (_name, command) => {
    const s = setting();
    const result = runRule(s.dir, command, s.env);
    expect(result.passed, `${result.message}\n${result.outputTail ?? ''}`).toBe(true);
  });
});

describe.skipIf(!here.ok || process.platform !== 'linux')('a rule in a package of a monorepo kept in a temp folder', () => {
  it("sees the repository's top (hoisted dependencies) read-only, and writes only in its own package", () => {
    const top = tempDir('isdlc-rule-mono-');
    git(top, 'init', '-q', '-b', 'main');
    writeFile(join(top, 'node_modules/shared/index.js'), 'module.exports = 42;\n');
    const dir = join(top, 'packages/a');
    mkdirSync(dir, { recursive: true });
    expect(cli(['init', dir, '--claude-version', '2.1.332']).status).toBe(0);
    const env = { ...process.env };
    const seen = runRule(dir, `node -e "process.exit(require('${join(top, 'node_modules/shared')}') === 42 ? 0 : 1)" && echo ok > out.txt`, env);
    expect(seen.passed, `${seen.message}\n${seen.outputTail ?? ''}`).toBe(true);
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('ok\n');
    runRule(dir, 'echo planted > ../../planted.txt', env);
    expect(existsSync(join(top, 'planted.txt'))).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('the routes outside the project, without the sandbox (the control)', () => {
  it.each(ROUTES.filter((route) => route.control))('$name', (route) => {
    const s = setting();
    runRule(s.dir, route.command, { ...s.env, MARK: s.mark }, true);
    expect(route.planted(s)).toBe(true);
  });
});
