// `workflow start --branch X` starts the work on X: it makes X from where HEAD is or switches to it, and
// then the branch rule protects main; where git cannot, the workflow does not start, and says why.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashCall } from '../helpers/payloads.js';
import { cli, decisionOf, git, initedProject, readJson } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const headOf = (dir: string): string => spawnSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim();

function repo(): string {
  const dir = initedProject('isdlc-workflow-branch-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'start');
  return dir;
}

const start = (dir: string, branch: string) => cli(['workflow', 'start', 'feature', '--description', 'Export', '--branch', branch, '--dir', dir]);

describe('workflow start --branch', () => {
  it('makes the branch from where HEAD is and works there; main is then closed to commits', () => {
    const dir = repo();
    const run = start(dir, 'feat/export');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Working on branch feat/export (made from where HEAD was).');
    expect(headOf(dir)).toBe('feat/export');
    expect(readJson<Record<string, any>>(join(dir, '.isdlc/state.json'))['active_workflow']['git_branch']).toMatchObject({
      name: 'feat/export',
      status: 'active',
    });
    git(dir, 'checkout', '-q', 'main');
    const commit = decisionOf(runRegisteredHook(dir, bashCall(dir, 'git commit -am "on main"')));
    expect(commit.kind).toBe('deny');
  });

  it('switches to a branch that exists, and stays on one that is checked out', () => {
    const dir = repo();
    git(dir, 'branch', 'feat/old');
    expect(start(dir, 'feat/old').status).toBe(0);
    expect(headOf(dir)).toBe('feat/old');
    const again = repo();
    git(again, 'checkout', '-q', '-b', 'feat/here');
    const run = start(again, 'feat/here');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Working on branch feat/here.');
  });

  it('refuses, changing nothing, where git cannot: no repository, a bad name, a change in the way', () => {
    const plain = initedProject('isdlc-workflow-no-git-');
    const none = start(plain, 'feat/x');
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('needs a git repository');
    expect(readJson<Record<string, any>>(join(plain, '.isdlc/state.json'))['active_workflow'] ?? null).toBeNull();

    const dir = repo();
    expect(start(dir, '-x').stderr).toContain('is not a branch name git accepts');
    // A change to a file the other branch has differently: git refuses to switch.
    git(dir, 'checkout', '-q', '-b', 'feat/other');
    writeFileSync(join(dir, 'README.txt'), 'other\n');
    git(dir, 'add', 'README.txt');
    git(dir, 'commit', '-q', '-m', 'other');
    git(dir, 'checkout', '-q', 'main');
    writeFileSync(join(dir, 'README.txt'), 'mine, uncommitted\n');
    const blocked = start(dir, 'feat/other');
    expect(blocked.status).toBe(1);
    expect(blocked.stderr).toMatch(/could not switch to branch feat\/other \(.*\); the workflow did not start/);
    expect(headOf(dir)).toBe('main');
    expect(readJson<Record<string, any>>(join(dir, '.isdlc/state.json'))['active_workflow'] ?? null).toBeNull();
  });

  it('a workflow already active is refused before any branch is made', () => {
    const dir = repo();
    expect(cli(['workflow', 'start', 'fix', '--description', 'Bug', '--dir', dir]).status).toBe(0);
    const run = start(dir, 'feat/late');
    expect(run.status).toBe(1);
    expect(headOf(dir)).toBe('main');
    expect(spawnSync('git', ['branch', '--list', 'feat/late'], { cwd: dir, encoding: 'utf8' }).stdout).toBe('');
  });
});
