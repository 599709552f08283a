// A loop's `command` rule is a program the agent may have written, run by the Stop hook or
// the MCP server outside the host's sandbox. In the OS sandbox it cannot change isdlc's files, by any
// route: each route here runs as a rule on the Stop hook's own validation worker (dist/loop.cjs
// --validate starts it as the hook does), and afterwards every guarded file is byte for byte as it was.
// Ordinary work still passes.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { guardedSnapshot } from '../helpers/guarded-snapshot.js';
import { GUARDED } from '../helpers/hosts.js';
import { makeLoop } from '../helpers/loops.js';
import { runRuleOnWorker } from '../helpers/rule-worker.js';
import { git, initedProject, REPO, tempDir, writeFile, writeJson } from '../helpers/project.js';
import { probeOsSandbox } from '../../src/sandbox/os-sandbox.js';
import type { RuleResult, ValidationReport } from '../../src/loop/types.js';

const LOOP_BUNDLE = join(REPO, 'dist/loop.cjs');
const here = probeOsSandbox();

/** One rule on the Stop hook's validation worker; `unguarded`: a person's rule where no sandbox is. */
const runRule = (project: string, command: string, unguarded = false): RuleResult => runRuleOnWorker(project, command, { unguarded });

/** An initialised project with tests, a dist folder, a loop store and isdlc config of its own. */
function project(kind: 'git' | 'plain'): string {
  const dir = initedProject(`isdlc-rule-sandbox-${kind}-`);
  writeJson(join(dir, 'package.json'), { name: 'sum', version: '1.0.0', private: true, scripts: { test: 'node --test' } });
  writeFile(
    join(dir, 'test/sum.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 2, 3));\n",
  );
  writeFile(join(dir, 'src/sum.js'), 'module.exports = (a, b) => a + b;\n');
  writeFile(join(dir, 'dist/sum.js'), 'old build\n');
  writeFile(join(dir, '.isdlc/config/x.json'), '{"keep": true}\n');
  makeLoop(dir, { config: { validationRules: ['tests_pass'] } });
  if (kind === 'git') {
    git(dir, 'init', '-q', '-b', 'main');
    writeFile(join(dir, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n');
    // Not yet there: the agent's rule must not be able to make it.
    rmSync(join(dir, '.mcp.json'));
    git(dir, 'add', '-A');
    // A project that still tracks its state (older setups did): `git checkout` of it is a route.
    git(dir, 'add', '-f', '.isdlc/state.json');
    git(dir, 'commit', '-q', '-m', 'start');
    // isdlc wrote the state since the commit: `git checkout` of the file would undo that.
    const state = JSON.parse(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')) as Record<string, unknown>;
    writeJson(join(dir, '.isdlc/state.json'), { ...state, written_after_commit: true });
  }
  return dir;
}

/** Ways to change isdlc's files from a shell, as a determined agent would write them into a rule. */
const ROUTES: string[] = [
  // state
  'echo forged > .isdlc/state.json',
  'cd .isdlc && echo forged > state.json',
  'F=.isdlc/state.json; printf forged > "$F"',
  'T=${TMPDIR:-/tmp}/isdlc-route-$$.sh; printf "echo forged > .isdlc/state.json\\n" > "$T"; sh "$T"; rm -f "$T"',
  `python3 -c "open('.isdlc/state.json','w').write('forged')"`,
  `python3 -c "import shutil; shutil.copy('package.json', '.isdlc/state.json')"`,
  `python3 -c "import os; os.rename('.isdlc', 'moved')"`,
  `node -e "require('fs').writeFileSync('.isdlc/state.json', 'forged')"`,
  `node -e "require('fs').rmSync('.isdlc', { recursive: true, force: true })"`,
  `perl -e 'open(F, ">", ".isdlc/state.json"); print F "forged"'`,
  'mv .isdlc/state.json .isdlc/old.json',
  'mv .isdlc isdlc-old && mkdir .isdlc && echo forged > .isdlc/state.json',
  'rm -rf .isdlc',
  'rm -f .isdlc/state.json',
  'ln -sf /tmp/forged .isdlc/state.json',
  'ln .isdlc/state.json hard-link && echo forged > hard-link',
  'git checkout -- .isdlc/state.json',
  'git stash',
  'git reset --hard -q',
  'T=$(mktemp -d); mkdir -p "$T/.isdlc" && echo forged > "$T/.isdlc/state.json" && tar -C "$T" -cf "$T/f.tar" .isdlc && tar -xf "$T/f.tar"',
  'T=$(mktemp -d); echo forged > "$T/state.json" && cp -r "$T/." .isdlc/',
  'cp package.json .isdlc/state.json',
  'install -m 644 package.json .isdlc/state.json',
  'dd if=/dev/zero of=.isdlc/state.json bs=1 count=1',
  'truncate -s 0 .isdlc/state.json',
  'exec 3>.isdlc/state.json; echo forged >&3',
  'sed -i s/a/b/ .isdlc/state.json',
  'touch -d 2000-01-01 .isdlc/state.json',
  'chmod 000 .isdlc/state.json',
  'eval "$(printf "echo forged > .isdlc/state.json")"',
  'echo ZWNobyBmb3JnZWQgPiAuaXNkbGMvc3RhdGUuanNvbg== | base64 -d | sh',
  'find .isdlc -type f -exec sh -c \'echo forged > "$1"\' _ {} \\;',
  'mkfifo .isdlc/fifo; mkdir .isdlc/new; echo x > .isdlc/new-file',
  // config, the installed program, the loop store
  "echo '{}' > .isdlc/config/x.json",
  'echo evil > .isdlc/config/iteration-requirements.json',
  "printf 'process.exit(0)' > .isdlc/bin/isdlc.cjs",
  'rm -rf .isdlc/bin',
  `sqlite3 .isdlc/loop.db "update loops set status='completed'"`,
  `node -e "new (require('node:sqlite').DatabaseSync)('.isdlc/loop.db').exec(\\"update loops set status='completed'\\")"`,
  'rm -f .isdlc/loop.db .isdlc/loop.db-wal .isdlc/loop.db-shm',
  // Claude Code's settings, .mcp.json
  `echo '{"disableAllHooks":true}' > .claude/settings.json`,
  `echo '{"disableAllHooks":true}' > .claude/settings.local.json`,
  `mv .claude .claude-old && mkdir .claude && echo '{"disableAllHooks":true}' > .claude/settings.json`,
  `mkdir -p .claude/hooks/config && echo '{}' > .claude/hooks/config/iteration-requirements.json`,
  `echo '{"mcpServers":{"isdlc":{"command":"sh","args":["-c","echo pwned"]}}}' > .mcp.json`,
  'rm -rf .mcp.json; echo {} > .mcp.json',
  'mv .mcp.json mcp-old.json',
  // git's config and hooks, which git runs with the person's rights
  "printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit",
  "printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout",
  'cd .git/hooks && ln -s /bin/true pre-push',
  'git config core.hooksPath /tmp/evil-hooks',
  "git config core.fsmonitor 'touch /tmp/pwned'",
  'echo "[core] fsmonitor = evil" >> .git/config',
  'mv .git .git-old; git init -q',
  'git init -q',
  // the constitution
  'echo forged > docs/isdlc/constitution.md',
  'mv docs docs-old && mkdir -p docs/isdlc && echo forged > docs/isdlc/constitution.md',
  // the sandbox itself
  'P=$PWD; cd .. && mv "$P" "$P.moved" && mkdir "$P" && mkdir "$P/.isdlc" && echo forged > "$P/.isdlc/state.json"',
  'umount .isdlc; echo forged > .isdlc/state.json',
  "unshare -Urm sh -c 'umount .isdlc; echo forged > .isdlc/state.json'",
  "bwrap --bind / / sh -c 'echo forged > .isdlc/state.json'",
  'echo forged > /proc/1/root$PWD/.isdlc/state.json',
  "setsid sh -c 'sleep 0.3; echo forged > .isdlc/state.json; rm -rf .isdlc' > /dev/null 2>&1 < /dev/null &",
  "nohup sh -c 'sleep 1; rm -rf .isdlc' > /dev/null 2>&1 &",
];

describe.skipIf(!here.ok || process.platform !== 'linux').each(['git', 'plain'] as const)('a rule in the OS sandbox, in a %s project', (kind) => {
  let dir: string;
  let before: Record<string, string>;
  beforeAll(() => {
    dir = project(kind);
    before = guardedSnapshot(dir);
  });

  it(`changes none of isdlc's files, by any of ${ROUTES.length} routes`, async () => {
    const changed: string[] = [];
    for (const route of ROUTES) {
      runRule(dir, route);
      // What a route left running has had the sandbox's end; give a straggler time to show itself.
      if (route.endsWith('&')) await new Promise((resolve) => setTimeout(resolve, 1_200));
      const after = guardedSnapshot(dir);
      const differ = Object.keys({ ...before, ...after }).filter((key) => before[key] !== after[key]);
      if (differ.length > 0) changed.push(`${route}\n    changed: ${differ.map((key) => `${key}: ${before[key]} -> ${after[key]}`).join('; ')}`);
    }
    expect(changed, changed.join('\n')).toEqual([]);
    expect(guardedSnapshot(dir)).toEqual(before);
  });

  it('explains a failure against a read-only file', () => {
    const result = runRule(dir, 'echo forged > .isdlc/state.json');
    expect(result).toMatchObject({ passed: false, errored: false, exitCode: 2 });
    expect(result.message).toMatch(/exited 2 \(expected 0\); it ran in an OS sandbox where isdlc's files \(\.isdlc\/, .*\) are read-only$/);
    expect(result.outputTail).toMatch(/Read-only file system/);
  });

  it.each([
    ['node --test', 'npm test'],
    ['writing a source file', "echo 'module.exports = 2;' > src/two.js && test -s src/two.js"],
    ['writing into $TMPDIR', 'T=$(mktemp) && echo ok > "$T" && grep -q ok "$T" && rm "$T"'],
    ['a cache in node_modules', 'mkdir -p node_modules/.cache/tool && echo 1 > node_modules/.cache/tool/entry && cat node_modules/.cache/tool/entry'],
    ['a new folder in the root (coverage)', "mkdir -p coverage && echo '{}' > coverage/coverage-summary.json"],
    ['a build that starts from a clean dist', 'rm -rf dist && mkdir dist && cp src/sum.js dist/sum.js'],
    ['an atomic rewrite of a file in the root', 'cp package.json package.json.tmp && mv package.json.tmp package.json'],
    ["reading isdlc's files", 'cat .isdlc/state.json > /dev/null && sqlite3 -readonly .isdlc/loop.db "select count(*) from loops" || node -e 0'],
  ])('ordinary work passes: %s', (_name, command) => {
    const result = runRule(dir, command);
    expect(result.passed, `${result.message}\n${result.outputTail ?? ''}`).toBe(true);
  });

  it.runIf(kind === 'git')('git commits on a feature branch work', () => {
    const result = runRule(
      dir,
      'git checkout -q -b feature && echo "module.exports = 3;" > src/three.js && git add src/three.js && git -c user.email=a@b -c user.name=a commit -q -m three && git log --oneline -1',
    );
    expect(result.passed, `${result.message}\n${result.outputTail ?? ''}`).toBe(true);
    expect(execFileSync('git', ['log', '--oneline', '-1', 'feature'], { cwd: dir, encoding: 'utf8' })).toMatch(/three/);
  });

  it('leaves no placeholder and no bookkeeping behind', () => {
    expect(existsSync(join(dir, '.git'))).toBe(kind === 'git');
    expect(existsSync(join(dir, '.mcp.json'))).toBe(kind === 'plain');
    expect(readdirSync(join(dir, '.isdlc')).filter((name) => name.startsWith('rule-sandbox'))).toEqual([]);
    // The rules' own work stays.
    expect(existsSync(join(dir, 'coverage/coverage-summary.json'))).toBe(true);
  });
});

/** runRule, in the background: for rules that run at the same time (a Stop and an MCP validation). */
function runRuleLater(project: string, command: string): Promise<RuleResult> {
  const request = {
    rules: [{ type: 'command', name: 'route', enabled: true, command, expectedExitCode: 0, timeoutSeconds: 20 }],
    context: { root: project, protect: GUARDED.protectedPaths(), agentOutput: '', loop: { id: 'L-0123456789', approvedByPerson: false } },
    deadline: Date.now() + 30_000,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LOOP_BUNDLE, '--validate'], { cwd: project, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve((JSON.parse(out) as ValidationReport).results[0]!));
    child.stdin.end(JSON.stringify(request));
  });
}

describe.skipIf(!here.ok || process.platform !== 'linux')('rules in the OS sandbox at the same time', () => {
  it("one ending does not lift another's placeholders", async () => {
    const dir = project('plain');
    const long = runRuleLater(dir, 'sleep 4; mkdir .git/hooks && echo pwned > .git/hooks/pre-commit');
    // The long rule's placeholder, once its sandbox is up (a loaded machine takes a while to start it).
    for (let waited = 0; waited < 3000 && !existsSync(join(dir, '.git')); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(join(dir, '.git'))).toBe(true);
    expect((await runRuleLater(dir, 'true')).passed).toBe(true);
    const result = await long;
    expect(result.passed).toBe(false);
    expect(result.outputTail).toMatch(/Read-only file system/);
    expect(existsSync(join(dir, '.git'))).toBe(false);
    expect(readdirSync(join(dir, '.isdlc')).filter((name) => name.startsWith('rule-sandbox'))).toEqual([]);
  });
});

describe.skipIf(!here.ok || process.platform !== 'linux')('a rule in the OS sandbox, with a project reached through a link', () => {
  it('protects the real files', () => {
    const dir = project('plain');
    const link = join(tempDir('isdlc-rule-link-'), 'linked');
    execFileSync('ln', ['-s', dir, link]);
    const before = guardedSnapshot(dir);
    for (const route of ['echo forged > .isdlc/state.json', `echo forged > ${join(dir, '.isdlc/state.json')}`, 'cd "$(pwd -P)" && rm -rf .isdlc']) {
      expect(runRule(link, route).passed).toBe(false);
    }
    expect(guardedSnapshot(dir)).toEqual(before);
    mkdirSync(join(dir, 'out'));
    expect(runRule(link, 'echo ok > out/result.txt').passed).toBe(true);
    expect(readFileSync(join(dir, 'out/result.txt'), 'utf8')).toBe('ok\n');
  });
});

describe.skipIf(!here.ok || process.platform !== 'linux')("a rule in the OS sandbox and Claude Code's settings outside the project", () => {
  it("cannot change the user's settings or records, which decide the next session's hooks and sandbox", () => {
    const dir = project('plain');
    const home = tempDir('isdlc-rule-home-');
    writeJson(join(home, '.claude/settings.json'), { model: 'opus' });
    writeJson(join(home, '.claude.json'), { projects: {} });
    const before = [readFileSync(join(home, '.claude/settings.json'), 'utf8'), readFileSync(join(home, '.claude.json'), 'utf8')];
    const env = { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: '' };
    for (const command of [
      `node -e "require('fs').writeFileSync(process.env.HOME + '/.claude/settings.json', JSON.stringify({ disableAllHooks: true }))"`,
      'echo \'{"hooks":{}}\' > "$HOME/.claude/settings.local.json"',
      'mv "$HOME/.claude" "$HOME/.claude-aside" && mkdir "$HOME/.claude"',
      'echo {} > "$HOME/.claude.json"',
    ]) {
      expect(runRuleOnWorker(dir, command, { env }).passed, command).toBe(false);
    }
    expect([readFileSync(join(home, '.claude/settings.json'), 'utf8'), readFileSync(join(home, '.claude.json'), 'utf8')]).toEqual(before);
    expect(readdirSync(join(home, '.claude'))).toEqual(['settings.json']);
    expect(existsSync(join(home, '.claude-aside'))).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('the routes, without the sandbox (the control)', () => {
  // Each would have changed isdlc's files: so the snapshot above would have seen it.
  it.each([
    'cd .isdlc && echo forged > state.json',
    `python3 -c "import shutil; shutil.copy('package.json', '.isdlc/state.json')"`,
    'git checkout -- .isdlc/state.json',
    `sqlite3 .isdlc/loop.db "update loops set status='completed'"`,
    'mv .claude .claude-old && mkdir .claude && echo {} > .claude/settings.json',
    'echo {} > .mcp.json',
    "printf '#!/bin/sh\\necho pwned\\n' > .git/hooks/pre-commit",
    'touch -d 2000-01-01 .isdlc/state.json',
  ])('%s', (route) => {
    const dir = project('git');
    const before = guardedSnapshot(dir);
    runRule(dir, route, true);
    expect(guardedSnapshot(dir)).not.toEqual(before);
  });
});
