// isdlc's own git calls run outside every sandbox, with the person's rights: whatever git configuration
// an agent's code planted (in the home folder, which a test or a loop rule can write, or in the repository),
// no program it names runs when isdlc asks git something, and isdlc's answers stay right. Each plant is
// first shown to work on a plain git command, so the test cannot pass on a plant git ignores.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bashCall, bashPassed } from '../helpers/payloads.js';
import { cli, decisionOf, git, initedProject, readJson, tempDir } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const BRANCH = 'feature/REQ-0001-export';

let dir: string;
let home: string;
let ran: string;

/** git as a person's shell runs it, with the planted home. */
function plainGit(...args: string[]): { status: number | null; stdout: string } {
  const run = spawnSync('git', ['-C', dir, ...args], { env: { ...process.env, HOME: home }, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout };
}

const programRan = (): string => (existsSync(ran) ? readFileSync(ran, 'utf8') : '');

/** A commit on main carrying a signature header, made without gpg: `git log` with showSignature checks it. */
function signedCommitOnMain(message: string): string {
  const tree = plainGit('rev-parse', 'main^{tree}').stdout.trim();
  const parent = plainGit('rev-parse', 'main').stdout.trim();
  const body = [
    `tree ${tree}`,
    `parent ${parent}`,
    'author Agent <agent@example.com> 1700000000 +0000',
    'committer Agent <agent@example.com> 1700000000 +0000',
    'gpgsig -----BEGIN PGP SIGNATURE-----',
    ' ',
    ' iQEzBAABCAAdFiEEplanted',
    ' -----END PGP SIGNATURE-----',
    '',
    message,
    '',
  ].join('\n');
  const made = spawnSync('git', ['-C', dir, 'hash-object', '-t', 'commit', '-w', '--stdin'], { input: body, encoding: 'utf8' });
  const sha = made.stdout.trim();
  git(dir, 'update-ref', 'refs/heads/main', sha);
  return sha;
}

beforeAll(() => {
  dir = initedProject('isdlc-clean-git-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'project with isdlc');
  git(dir, 'checkout', '-q', '-b', BRANCH);
  expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--branch', BRANCH, '--dir', dir]).status).toBe(0);

  const planted = tempDir('isdlc-planted-');
  home = join(planted, 'home');
  mkdirSync(home);
  ran = join(planted, 'ran.log');
  const program = join(planted, 'program.sh');
  writeFileSync(program, `#!/bin/sh\necho "$0 $*" >> '${ran}'\ncat > /dev/null\nexit 0\n`);
  chmodSync(program, 0o755);
  const hooks = join(planted, 'hooks');
  mkdirSync(hooks);
  for (const name of ['pre-commit', 'post-checkout', 'reference-transaction', 'post-index-change']) {
    writeFileSync(join(hooks, name), `#!/bin/sh\necho "hook ${name}" >> '${ran}'\n`);
    chmodSync(join(hooks, name), 0o755);
  }
  const settings = `[log]\n\tshowSignature = true\n[gpg]\n\tprogram = ${program}\n[core]\n\tfsmonitor = ${program}\n\thooksPath = ${hooks}\n\tpager = ${program}\n[diff]\n\texternal = ${program}\n`;
  // In the home folder (what a test or a loop rule could write) and in the repository's own config.
  writeFileSync(join(home, '.gitconfig'), settings);
  writeFileSync(join(dir, '.git/config'), `${readFileSync(join(dir, '.git/config'), 'utf8')}${settings}`);
});

/** One shell call as Claude Code makes it, through the registered hooks, with the planted home. */
function shellCall(line: string, id: string) {
  const env = { HOME: home };
  const pre = runRegisteredHook(dir, { ...bashCall(dir, line), tool_use_id: id }, env);
  expect(decisionOf(pre).kind, pre.stderr).toBe('allow');
  const post = runRegisteredHook(dir, { ...bashPassed(dir, line, ''), tool_use_id: id }, env);
  expect(post.status, post.stderr).toBe(0);
  return decisionOf(post);
}

describe("git configuration an agent planted runs nothing of its own in isdlc's git calls", () => {
  it('the plants work on plain git: log runs the signature program, status the file-system monitor', () => {
    const before = plainGit('rev-parse', 'main').stdout.trim();
    signedCommitOnMain('signed, to call the checker');
    expect(plainGit('log', '--no-color', '--max-count=10', '--format=%H%x09%s', `${before}..main`, '--').status).toBe(0);
    expect(programRan()).toContain('--verify');
    rmSync(ran, { force: true });
    plainGit('status', '--short');
    expect(programRan()).not.toBe('');
    rmSync(ran, { force: true });
    git(dir, 'update-ref', 'refs/heads/main', before);
  });

  it('a signed commit reaching main is seen, listed and recorded, and no planted program ran', () => {
    const line = 'git update-ref refs/heads/main $(git commit-tree "HEAD^{tree}" -p main -m snapshot)';
    rmSync(ran, { force: true });
    const pre = runRegisteredHook(dir, { ...bashCall(dir, line), tool_use_id: 'toolu_clean1' }, { HOME: home });
    expect(decisionOf(pre).kind).toBe('allow');
    expect(programRan()).toBe('');
    // The command itself is the agent's: it may run what it likes (and here, in the test, it is not hooked).
    const sha = signedCommitOnMain('signed by the agent');
    rmSync(ran, { force: true }); // what the agent's own git ran (its reference-transaction hook)
    const post = decisionOf(runRegisteredHook(dir, { ...bashPassed(dir, line, ''), tool_use_id: 'toolu_clean1' }, { HOME: home }));
    expect(post.context).toContain('isdlc branch-evidence: main gained 1 commit');
    expect(post.context).toContain('signed by the agent');
    const violations = readJson(join(dir, '.isdlc/state.json'))['branch_violations'] as { to: string }[];
    expect(violations.at(-1)?.to).toBe(sha);
    expect(programRan()).toBe('');
  });

  it('the branch rule still reads the checked-out branch, and an ordinary call runs nothing planted', () => {
    rmSync(ran, { force: true });
    const denied = decisionOf(runRegisteredHook(dir, bashCall(dir, 'git checkout main && git commit --allow-empty -m x'), { HOME: home }));
    expect(denied.kind).toBe('deny');
    expect(denied.reason).toContain('branch-guard');
    shellCall('git status --short', 'toolu_clean2');
    expect(programRan()).toBe('');
  });
});
