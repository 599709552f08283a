// Everyday commands in a project exactly as `isdlc init` leaves it, with Claude Code's sandbox on: `git
// stash -u` and its pop, `npm install` from a registry, `go build`, `cargo build` with a dependency to
// fetch, `pip install` into a virtualenv. They work because init lists every name the sandbox mounts in
// the project in .git/info/exclude, and registers a SessionStart hook that sends the caches of the agent's
// shell (and only of it) to Claude Code's temp folder. isdlc's files stay read-only all the while. The
// control runs the same commands with the exclude block and the settings an earlier init wrote.
//
// No internet here: the registry is a server of the test's on 127.0.0.1, the dependency a git repository
// on disk, the Python package a wheel in the project. The sandbox has a network namespace of its own, so
// its 127.0.0.1 is not the machine's; Claude Code's proxy reaches the machine's, which is why the npm
// commands clear NO_PROXY (a person's registry is reached through that proxy anyway).
import { pathWithoutSandbox } from '../helpers/claude-code.js';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanEnv, tempDir } from '../helpers/project.js';
import { toolchainProject } from '../helpers/toolchain-projects.js';
import { changes, guardedProject, snapshot } from './harness/guarded.js';
import { localRegistry } from './harness/local-registry.js';
import { bash, call, say } from './harness/script.js';
import { asPersonWrote, isdlc, readState, runClaude, userSettings, type E2eProject } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';
import { BELOW_EXEC_FORM, CURRENT } from './harness/claude-versions.js';

usesClaudeCode(CURRENT, BELOW_EXEC_FORM);

const HAS_GO = toolchainProject('go').present;
const HAS_CARGO = toolchainProject('cargo').present;
const HAS_VENV = ((): boolean => {
  try {
    execFileSync('python3', ['-c', 'import venv, ensurepip, zipfile'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The variables the SessionStart hook sets (src/hosts/claude-code/sandbox-caches.ts). */
const CACHE_VARIABLES = ['CARGO_HOME', 'GOCACHE', 'PIP_CACHE_DIR', 'XDG_CACHE_HOME', 'npm_config_cache'];

/** A wheel of one module, written by hand (pip installs it with no index and no build backend). */
const WHEEL_MAKER = `
import base64, hashlib, os, sys, zipfile
name, version = 'tinypkg', '1.0.0'
info = f'{name}-{version}.dist-info'
files = {
  'tinypkg/__init__.py': 'def hello():\\n    return "hello from a wheel"\\n',
  f'{info}/METADATA': f'Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n',
  f'{info}/WHEEL': 'Wheel-Version: 1.0\\nGenerator: isdlc-e2e\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
digest = lambda data: base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
record = [f'{path},sha256={digest(text.encode())},{len(text.encode())}' for path, text in files.items()]
files[f'{info}/RECORD'] = '\\n'.join(record + [f'{info}/RECORD,,']) + '\\n'
os.makedirs(sys.argv[1], exist_ok=True)
with zipfile.ZipFile(os.path.join(sys.argv[1], f'{name}-{version}-py3-none-any.whl'), 'w') as wheel:
  for path, text in files.items(): wheel.writestr(path, text)
`;

function git(dir: string, args: string[], home: string): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: cleanEnv({ HOME: home }) });
}

/** A crate in a git repository of its own, outside the project: cargo fetches it into its home. */
function gitCrate(home: string): string {
  const dir = tempDir('isdlc-crate-');
  writeFileSync(join(dir, 'Cargo.toml'), '[package]\nname = "greet"\nversion = "0.1.0"\nedition = "2021"\n');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'lib.rs'), 'pub fn greet() -> &\'static str { "hello from a git dependency" }\n');
  git(dir, ['init', '-q', '-b', 'main'], home);
  git(dir, ['add', '-A'], home);
  git(dir, ['commit', '-q', '-m', 'greet'], home);
  return dir;
}

/**
 * init's guarded project with a Go module, a Rust crate that depends on a git repository, a wheel to
 * install, what a person keeps out of git, and the person's commit of it all. The user's settings gain
 * a hook that records the environment Claude Code gives its hooks.
 */
function workProject(version = CURRENT): { project: E2eProject; hookEnv: string } {
  const project = guardedProject({ version });
  writeFileSync(join(project.home, '.gitconfig'), '[user]\n\tname = Person\n\temail = person@example.test\n');
  const files: Record<string, string> = {
    '.gitignore': 'dist/\nnode_modules/\n.venv/\ntarget/\n/hello-go\n',
    'go.mod': 'module example.com/hello\n\ngo 1.19\n',
    'main.go': 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello from go") }\n',
    'rs/Cargo.toml': `[package]\nname = "app"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ngreet = { git = "file://${gitCrate(project.home)}" }\n`,
    'rs/src/main.rs': 'fn main() { println!("{}", greet::greet()); }\n',
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(project.dir, rel, '..'), { recursive: true });
    writeFileSync(join(project.dir, rel), text);
  }
  if (HAS_VENV) execFileSync('python3', ['-c', WHEEL_MAKER, join(project.dir, 'wheels')]);
  git(project.dir, ['add', '-A'], project.home);
  git(project.dir, ['commit', '-q', '-m', 'isdlc init, and the code'], project.home);
  const hookEnv = join(project.home, 'hook-env.txt');
  userSettings(project, {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `env >> "${hookEnv}"` }] }] },
  });
  return { project, hookEnv };
}

/** The session's environment: cargo's toolchains where this machine keeps them (the session's HOME is new). */
const RUSTUP: Record<string, string> = existsSync(join(homedir(), '.rustup')) ? { RUSTUP_HOME: join(homedir(), '.rustup') } : {};

/** Each command of the session, by a name, with what the agent read back. */
function results(run: Awaited<ReturnType<typeof runClaude>>, names: readonly string[]): Record<string, { text: string; isError: boolean }> {
  const sent = run.api.calls.map((made) => run.api.toolResult(made.id)!);
  return Object.fromEntries(names.map((name, index) => [name, sent[index] ?? { text: '(not run)', isError: true }]));
}

const npmInstall = (registry: string, extra = ''): string => `NO_PROXY= no_proxy= npm install --no-audit --no-fund --registry ${registry} ${extra}`.trim();

/** Nothing the sandbox mounts is work to git: no untracked name, nothing `git clean -d` (so `stash -u`) would remove. */
const PRISTINE = 'git status --porcelain --untracked-files=all; git clean -nd; echo checked';
const CACHES = `printenv | grep -E '^(${CACHE_VARIABLES.join('|')})=' | sort; echo "TMPDIR=$TMPDIR"; npm config get cache`;
/** Work in progress: a change to a tracked file, and a new file in a new folder. */
const WORK = "printf 'module.exports = (a, b) => b + a;\\n' > src/add.js && mkdir -p src/wip && echo 'draft' > src/wip/note.md";
/** The work stashed with the untracked files, and popped. */
const STASH = `${WORK} && git stash -u && echo stashed && git status --porcelain --untracked-files=all && git stash pop -q && echo popped && git status --porcelain --untracked-files=all && git stash list | wc -l`;
/** The stash left a clean tree, and the pop brought both back, leaving no stash. */
const STASHED_AND_BACK = /stashed\npopped\n M src\/add\.js\n\?\? src\/wip\/note\.md\n0\s*$/;

type Step = [name: string, command: string];
/** A step where this machine has its toolchain (a test names what it skips by running without it). */
const where = (present: boolean, step: Step): Step[] => (present ? [step] : []);

/** A write no command parser can see: the path is put together by the script. */
const FORGE_STATE = `node -e "require('fs').writeFileSync('.isdlc/' + 'state.json', JSON.stringify({ FORGED: true }))"`;

describe('everyday commands inside the sandbox, in a project as init leaves it', () => {
  test('git stash -u and its pop, npm install from a registry, go build, cargo build, pip install into a venv: all work, and isdlc keeps its files', async () => {
    const { project, hookEnv } = workProject();
    const exported = randomUUID();
    const registry = await localRegistry(exported);
    const before = snapshot(project);
    const steps: Step[] = [
      ['pristine', PRISTINE],
      ['caches', CACHES],
      ['stash', STASH],
      ['npm', `${npmInstall(registry.url, registry.name)} && node -p "require('${registry.name}')"`],
      ['npm offline', `rm -rf node_modules && ${npmInstall(registry.url, '--offline')} && node -p "require('${registry.name}')"`],
      ...where(HAS_GO, ['go', 'go build -o hello-go . && ./hello-go']),
      ...where(HAS_CARGO, ['cargo', '(cd rs && cargo build -q && ./target/debug/app)']),
      ...where(HAS_VENV, [
        'pip',
        'python3 -m venv .venv && .venv/bin/pip install -q --no-index --find-links ./wheels tinypkg && .venv/bin/python -c "import tinypkg; print(tinypkg.hello())"',
      ]),
      ['forge', FORGE_STATE],
    ];
    const run = await runClaude(project, {
      prompt: 'Build everything.',
      timeoutMs: 240_000,
      env: RUSTUP,
      scripts: [{ name: 'main', turns: [...steps.map(([, command]) => call(bash(command))), say('Built.')] }],
    });
    await registry.close();
    expect(run.exitCode, run.stderr).toBe(0);
    const got = results(
      run,
      steps.map(([name]) => name),
    );
    for (const [name] of steps.filter(([name]) => name !== 'forge')) expect(got[name]!.isError, `${name}: ${got[name]!.text}`).toBe(false);

    expect(got['pristine']!.text.trim()).toBe('checked');
    // Every cache of the agent's shell is in Claude Code's temp folder, for whichever user runs it.
    const tmp = /^TMPDIR=(.+)$/m.exec(got['caches']!.text)![1]!;
    expect(tmp).toMatch(/^\/tmp\/claude-\d+$/);
    for (const name of CACHE_VARIABLES) expect(got['caches']!.text).toMatch(new RegExp(`^${name}=${tmp}/`, 'm'));
    expect(got['caches']!.text.trim().split('\n').pop()).toBe(`${tmp}/npm-cache`);

    // The stash saved the work, left a clean tree, and the pop brought it all back.
    expect(got['stash']!.text).toMatch(STASHED_AND_BACK);
    expect(readFileSync(join(project.dir, 'src', 'add.js'), 'utf8')).toContain('b + a');
    expect(git(project.dir, ['stash', 'list'], project.home)).toBe('');

    // npm fetched the package once, and installed it again from its cache with the network off.
    expect(got['npm']!.text.trim().split('\n').pop()).toBe(exported);
    expect(got['npm offline']!.text.trim().split('\n').pop()).toBe(exported);
    expect(registry.requests.filter((path) => path.endsWith('.tgz'))).toHaveLength(1);
    if (HAS_GO) expect(got['go']!.text).toContain('hello from go');
    if (HAS_CARGO) expect(got['cargo']!.text).toContain('hello from a git dependency');
    if (HAS_VENV) expect(got['pip']!.text).toContain('hello from a wheel');

    // isdlc's files are read-only still.
    expect(got['forge']!.isError).toBe(true);
    expect(got['forge']!.text).toMatch(/EROFS|read-only file system/i);
    expect(readState(project)).not.toHaveProperty('FORGED');
    // isdlc's hooks recorded the work in the state (files the phase changed): that is theirs to write.
    expect(changes(before, snapshot(project)).filter((line) => !line.startsWith('project:.isdlc/state.json:'))).toEqual([]);

    // Claude Code's hooks (isdlc's among them) run with none of the variables: a cache the agent writes is
    // never one they read.
    const seenByHooks = readFileSync(hookEnv, 'utf8');
    expect(seenByHooks).toContain('CLAUDE_PROJECT_DIR=');
    for (const name of CACHE_VARIABLES) expect(seenByHooks).not.toMatch(new RegExp(`^${name}=`, 'm'));
  }, 300_000);

  test(`on ${BELOW_EXEC_FORM} too, nothing the sandbox mounts is work to git, the stash comes back, and the caches are in the temp folder`, async () => {
    const { project } = workProject(BELOW_EXEC_FORM);
    const steps = [PRISTINE, STASH, CACHES];
    const run = await runClaude(project, { prompt: 'Go.', scripts: [{ name: 'main', turns: [...steps.map((command) => call(bash(command))), say('Done.')] }] });
    expect(run.exitCode, run.stderr).toBe(0);
    const [pristine, stash, caches] = run.api.calls.map((sent) => run.api.toolResult(sent.id)!);
    expect(pristine).toEqual({ isError: false, text: 'checked' });
    expect(stash!.text).toMatch(STASHED_AND_BACK);
    for (const name of CACHE_VARIABLES) expect(caches!.text).toMatch(new RegExp(`^${name}=/tmp/claude-\\d+/`, 'm'));
  }, 150_000);

  test('control: with the exclude block and the settings an earlier init wrote, the stash is left behind, and npm, go and cargo fail on the home folder', async () => {
    const { project, hookEnv } = workProject();
    // The exclude block without the mount point of .claude/hooks/config and Claude Code's staging folder.
    const exclude = join(project.dir, '.git', 'info', 'exclude');
    writeFileSync(exclude, readFileSync(exclude, 'utf8').replace(/^\/\.claude\/(hooks|\.cc-writes)\n/gm, ''));
    // No SessionStart hook for the caches; a cache variable in the local settings' `env`, as the earlier
    // recipe put them (pip's, which changes nothing for the commands here).
    const file = join(project.dir, '.claude', 'settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    settings.hooks['SessionStart'] = settings.hooks['SessionStart']!.filter((entry) => !entry.hooks.some((hook) => hook.command.includes('CLAUDE_ENV_FILE')));
    writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
    writeFileSync(join(project.dir, '.claude', 'settings.local.json'), JSON.stringify({ env: { PIP_CACHE_DIR: '/tmp/claude-0/pip-cache' } }));
    asPersonWrote(project);
    const registry = await localRegistry(randomUUID());
    const steps: Step[] = [
      ['stash', `${WORK} && git stash -u && git stash pop`],
      ['npm', npmInstall(registry.url, registry.name)],
      ...where(HAS_GO, ['go', 'go build -o hello-go .']),
      ...where(HAS_CARGO, ['cargo', '(cd rs && cargo build -q)']),
      ...where(HAS_VENV, ['pip', 'python3 -m venv .venv && .venv/bin/pip install --no-index --find-links ./wheels tinypkg']),
    ];
    const run = await runClaude(project, {
      prompt: 'Build everything.',
      timeoutMs: 150_000,
      env: RUSTUP,
      scripts: [{ name: 'main', turns: [...steps.map(([, command]) => call(bash(command))), say('Stuck.')] }],
    });
    await registry.close();
    expect(run.exitCode, run.stderr).toBe(0);
    const got = results(
      run,
      steps.map(([name]) => name),
    );
    expect(got['stash']!.isError).toBe(true);
    expect(got['stash']!.text).toContain('failed to remove .claude/hooks/: Device or resource busy');
    // The pop never ran: the work is in the stash.
    expect(git(project.dir, ['stash', 'list'], project.home)).toMatch(/^stash@\{0\}/);
    expect(got['npm']!.isError).toBe(true);
    expect(got['npm']!.text).toMatch(/ENOENT[^\n]*mkdir '[^']*\/\.npm\/_cacache'/);
    if (HAS_GO) expect(got['go']!.text).toMatch(/failed to initialize build cache at [^\n]*\/\.cache\/go-build[^\n]*read-only file system/);
    if (HAS_CARGO) expect(got['cargo']!.text).toMatch(/failed to create directory `[^`]*\/\.cargo\/git\/db\/[^`]*`[\s\S]*Read-only file system/);
    // pip into a virtualenv works either way: it goes without its cache where it cannot write one.
    if (HAS_VENV) expect(got['pip']).toMatchObject({ isError: false, text: expect.stringContaining('Successfully installed tinypkg-1.0.0') });
    // What `env` sets, Claude Code gives its hooks too.
    expect(readFileSync(hookEnv, 'utf8')).toMatch(/^PIP_CACHE_DIR=\/tmp\/claude-0\/pip-cache$/m);
  }, 240_000);
});

describe('a teammate whose machine cannot run the sandbox', () => {
  test('Claude Code refuses to start naming what to install; doctor says it first, with the opt-out for this machine, and the opt-out works', async () => {
    const project = guardedProject();
    const env = { PATH: pathWithoutSandbox() };
    const turns = [call(bash(`${FORGE_STATE}; echo "rc=$?"`)), say('Done.')];

    const doctor = (() => {
      try {
        return isdlc(project, ['doctor', project.dir], { ...env, HOME: project.home });
      } catch (error) {
        return (error as { stdout: string }).stdout;
      }
    })();
    expect(doctor).toContain(
      '✗ sandboxed in the settings, but the sandbox cannot run on this machine: `bwrap` and `socat` are not on PATH; Claude Code refuses to start here',
    );
    expect(doctor).toContain('install it: sudo apt-get install bubblewrap socat');
    expect(doctor).toContain('put {"sandbox": {"enabled": false}} in .claude/settings.local.json and run `isdlc changes accept`');

    const refused = await runClaude(project, { prompt: 'Go.', env, scripts: [{ name: 'main', turns }] });
    expect(refused.exitCode).not.toBe(0);
    expect(refused.stderr).toMatch(/bubblewrap \(bwrap\) not installed, socat not installed · install missing tools \(e\.g\. apt install bubblewrap socat\)/);
    expect(refused.stderr).toContain('Refusing to start without a working sandbox (see sandbox.failIfUnavailable)');
    expect(refused.api.calls).toEqual([]);

    // The opt-out doctor names, in the teammate's own settings file; the project's stay as they are.
    writeFileSync(join(project.dir, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: false } }));
    isdlc(project, ['changes', 'accept']);
    const run = await runClaude(project, { prompt: 'Go.', env, scripts: [{ name: 'main', turns }] });
    expect(run.exitCode, run.stderr).toBe(0);
    // Unsandboxed here, and isdlc knows it: the write lands, and isdlc puts the state back at its next hook call.
    expect(run.api.toolResult(run.api.toolUseIds('Bash')[0]!)!.text).toContain('rc=0');
    expect(readState(project)).not.toHaveProperty('FORGED');
    expect(isdlc(project, ['status'])).toContain('Protection: not sandboxed: the sandbox is off');
    expect(JSON.parse(readFileSync(join(project.dir, '.claude', 'settings.json'), 'utf8')).sandbox).toMatchObject({ enabled: true, failIfUnavailable: true });
  }, 200_000);
});
