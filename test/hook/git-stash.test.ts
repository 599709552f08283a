// The workflow state is this machine's, kept out of git (.isdlc/.gitignore): `git stash` and `git stash pop`
// around isdlc's own writes leave it alone and work, with the hooks running in between and no change to
// isdlc's files reported. Where a project still tracks it, doctor says so and how to stop.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashCall, bashPassed } from '../helpers/payloads.js';
import { cli, decisionOf, git, initedProject, withoutSandbox } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const sh = (dir: string, line: string) => spawnSync('bash', ['-c', line], { cwd: dir, encoding: 'utf8' });

let calls = 0;
function shellCall(dir: string, line: string): number | null {
  const id = `toolu_stash${(calls += 1)}`;
  expect(decisionOf(runRegisteredHook(dir, { ...bashCall(dir, line), tool_use_id: id })).kind, line).toBe('allow');
  const run = sh(dir, line);
  expect(runRegisteredHook(dir, { ...bashPassed(dir, line, run.stdout), tool_use_id: id }).status).toBe(0);
  return run.status;
}

function project(): string {
  const dir = withoutSandbox(initedProject('isdlc-stash-'));
  writeFileSync(join(dir, 'app.js'), 'module.exports = 1;\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'start');
  expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--dir', dir]).status).toBe(0);
  return dir;
}

describe('git stash and the workflow state', () => {
  it('is not tracked, so stash and pop work around isdlc writing it, and nothing is reported', () => {
    const dir = project();
    expect(sh(dir, 'git ls-files .isdlc/state.json').stdout).toBe('');
    writeFileSync(join(dir, 'app.js'), 'module.exports = 2;\n');
    expect(shellCall(dir, 'git -c user.name=a -c user.email=a@b stash')).toBe(0);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('module.exports = 1;\n');
    // isdlc writes its state in between (a phase activated).
    expect(cli(['phase', 'activate', '--dir', dir]).status).toBe(0);
    const state = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    expect(shellCall(dir, 'git stash pop')).toBe(0);
    expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe('module.exports = 2;\n');
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(state);
    const changes = cli(['changes', 'list', '--json', '--dir', dir]);
    expect(JSON.parse(changes.stdout)).toMatchObject({ incidents: [] });
  });

  it('doctor warns where a project still tracks it, and says how to stop', () => {
    const dir = project();
    git(dir, 'add', '-f', '.isdlc/state.json');
    git(dir, 'commit', '-q', '-m', 'state in git');
    const run = cli(['doctor', dir, '--json', '--claude-version', '2.1.332']);
    const { findings } = JSON.parse(run.stdout) as { findings: { severity: string; what: string; fix?: string }[] };
    expect(findings).toContainEqual({
      severity: 'warn',
      what: expect.stringContaining('.isdlc/state.json is tracked by git: git stash, a checkout of another branch or a pull would rewrite it'),
      fix: expect.stringContaining('git rm --cached .isdlc/state.json'),
    });
  });
});
