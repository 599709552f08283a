// The branch rule on git's own evidence, through the hooks `isdlc init` registers: each route around the
// text rule is played for real (the PreToolUse payload, the command run by bash in the project's git
// repository, then the PostToolUse payload), and each commit to a closed branch is told to the model and
// the person, recorded, and keeps the gate closed until a person acknowledges it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bashCall, bashFailed, bashPassed, skillCall, userPrompt } from '../helpers/payloads.js';
import { cli, decisionOf, git, initedProject, readJson, withoutSandbox } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const BRANCH = 'feature/REQ-0001-export';
const IDENTITY = { GIT_AUTHOR_NAME: 'Agent', GIT_AUTHOR_EMAIL: 'agent@example.com', GIT_COMMITTER_NAME: 'Agent', GIT_COMMITTER_EMAIL: 'agent@example.com' };

function sh(dir: string, line: string): number | null {
  return spawnSync('bash', ['-c', line], { cwd: dir, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' }).status;
}

function head(dir: string, branch: string): string {
  return spawnSync('git', ['rev-parse', `refs/heads/${branch}`], { cwd: dir, encoding: 'utf8' }).stdout.trim();
}

let calls = 0;
/** PreToolUse, the command itself, PostToolUse (PostToolUseFailure when it failed): one shell call as Claude Code makes it. */
function shellCall(dir: string, line: string) {
  const id = `toolu_route${(calls += 1)}`;
  const pre = runRegisteredHook(dir, { ...bashCall(dir, line), tool_use_id: id });
  expect(decisionOf(pre).kind, `${line}: ${pre.stderr}`).toBe('allow');
  const status = sh(dir, line);
  const post = runRegisteredHook(dir, { ...(status === 0 ? bashPassed(dir, line, '') : bashFailed(dir, line, status ?? 1, '')), tool_use_id: id });
  expect(post.status, post.stderr).toBe(0);
  return decisionOf(post);
}

/** A project in git with a feature workflow started on its own branch, checked out. */
function workflowOnItsBranch(prefix: string): string {
  const dir = withoutSandbox(initedProject(prefix));
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'project with isdlc');
  git(dir, 'checkout', '-q', '-b', BRANCH);
  expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--branch', BRANCH, '--dir', dir]).status).toBe(0);
  return dir;
}

function violations(dir: string): Record<string, any>[] {
  return (readJson(join(dir, '.isdlc/state.json'))['branch_violations'] as Record<string, any>[] | undefined) ?? [];
}

describe('commits to a closed branch, by any route, through the registered hooks', () => {
  let dir: string;
  beforeAll(() => {
    dir = workflowOnItsBranch('isdlc-branch-routes-');
    mkdirSync(join(dir, 'tools'), { recursive: true });
    writeFileSync(
      join(dir, 'tools/save.sh'),
      '#!/bin/sh\nset -e\nc=$(git commit-tree "HEAD^{tree}" -p main -m "saved by a script")\ngit update-ref refs/heads/main "$c"\n',
    );
  });

  const routes: [string, string, string][] = [
    ['an alias on the checked-out workflow branch, before its last phase', 'git -c alias.ci=commit ci -q --allow-empty -m "wip"', BRANCH],
    ['commit-tree, then update-ref of main', 'git update-ref refs/heads/main $(git commit-tree "HEAD^{tree}" -p main -m snapshot)', 'main'],
    // (An `eval` is read by the text rules now, so the route names git's verb through a variable instead.)
    ['a commit made on main through a variable', `c=commit; git checkout -q main && git $c -q --allow-empty -m evaluated && git checkout -q ${BRANCH}`, 'main'],
    ['a script file that commits', 'sh tools/save.sh', 'main'],
    [
      'update-ref with the reflog turned off',
      'git -c core.logAllRefUpdates=false update-ref refs/heads/main $(git commit-tree "HEAD^{tree}" -p main -m unlogged)',
      'main',
    ],
    ['a commit by alias, then a failing command (PostToolUseFailure)', 'git -c alias.ci=commit ci -q --allow-empty -m "then fail" && false', BRANCH],
  ];

  it.each(routes)('%s: the model and the person are told, a violation is recorded', (_name, line, branch) => {
    const before = head(dir, branch);
    const count = violations(dir).length;
    const decision = shellCall(dir, line);
    const after = head(dir, branch);
    expect(after).not.toBe(before);
    expect(decision.kind).toBe('allow');
    expect(decision.context).toContain(`isdlc branch-evidence: ${branch} gained 1 commit`);
    expect(decision.context).toContain(`git update-ref refs/heads/${branch} ${before} ${after}`);
    expect(decision.systemMessage).toContain('isdlc branch acknowledge');
    const recorded = violations(dir);
    expect(recorded).toHaveLength(count + 1);
    expect(recorded[count]).toMatchObject({ branch, from: before, to: after, commit_count: 1, tool_use_id: `toolu_route${calls}` });
  });

  it('an ordinary command after them is quiet', () => {
    const decision = shellCall(dir, 'git status --short && git log --oneline -3');
    expect(decision.context ?? '').not.toContain('branch-evidence');
  });

  it('the gate stays closed and names every violation', () => {
    const gate = cli(['gate', 'check', '--dir', dir]);
    expect(gate.status).toBe(1);
    expect(gate.stdout).toContain('branch_integrity: commits reached a closed branch');
    for (const word of ['"wip"', '"snapshot"', '"evaluated"', '"saved by a script"', '"unlogged"', '"then fail"']) expect(gate.stdout).toContain(word);
    const advance = decisionOf(runRegisteredHook(dir, skillCall(dir, 'isdlc', 'advance')));
    expect(advance.kind).toBe('deny');
    expect(advance.reason).toContain('branch_integrity');
  });

  it('an agent cannot acknowledge: the hook denies it, and the command refuses inside Claude Code', () => {
    const denied = decisionOf(runRegisteredHook(dir, bashCall(dir, 'node .isdlc/bin/isdlc.cjs branch acknowledge')));
    expect(denied.kind).toBe('deny');
    expect(denied.reason).toContain('isdlc human-only-commands');
    const inside = cli(['branch', 'acknowledge', '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(inside.status).toBe(2);
    expect(inside.stderr).toContain('a decision for a person');
    expect(violations(dir).every((violation) => !violation['acknowledged'])).toBe(true);
  });

  it('a person acknowledges them; the gate no longer counts them', () => {
    const run = cli(['branch', 'acknowledge', '--note', 'undone by hand', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Acknowledged:');
    expect(violations(dir).every((violation) => violation['acknowledged']?.['note'] === 'undone by hand')).toBe(true);
    const gate = cli(['gate', 'check', '--dir', dir, '--json']);
    const evaluation = JSON.parse(gate.stdout) as { checks: { requirement: string; met: boolean }[] };
    expect(evaluation.checks.find((check) => check.requirement === 'branch_integrity')).toMatchObject({ met: true });
    expect(cli(['branch', 'acknowledge', '--dir', dir]).status).toBe(1);
  });
});

/** One hook call that is not a shell command's: the agent's next prompt, as Claude Code sends it. */
function nextCall(dir: string) {
  const result = runRegisteredHook(dir, userPrompt(dir, 'go on'));
  expect(result.status, result.stderr).toBe(0);
  return decisionOf(result);
}

describe('commits between calls: seen at the next hook call, whatever made them', () => {
  let dir: string;
  beforeAll(() => {
    dir = workflowOnItsBranch('isdlc-branch-between-');
    // isdlc's first look.
    nextCall(dir);
  });

  it('a commit a background job makes after its shell call has ended', async () => {
    const before = head(dir, 'main');
    const count = violations(dir).length;
    const quiet = shellCall(dir, '(sleep 1; git update-ref refs/heads/main $(git commit-tree "HEAD^{tree}" -p main -m later)) > /dev/null 2>&1 &');
    expect(quiet.context ?? '').not.toContain('branch-evidence');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(head(dir, 'main')).not.toBe(before);
    const decision = nextCall(dir);
    expect(decision.context).toContain('isdlc branch-evidence: main gained 1 commit');
    expect(decision.context).toContain("since isdlc's last look, between tool calls");
    expect(violations(dir)).toHaveLength(count + 1);
    expect(violations(dir)[count]).toMatchObject({ branch: 'main', from: before, between_calls: true, commit_count: 1 });
  });

  it('a commit whose call then deletes the heads isdlc kept for it', () => {
    const before = head(dir, 'main');
    const count = violations(dir).length;
    const decision = shellCall(
      dir,
      'git update-ref refs/heads/main $(git commit-tree "HEAD^{tree}" -p main -m hidden) && rm -f .isdlc/branch-heads/calls.log*',
    );
    expect(decision.context).toContain('isdlc branch-evidence: main gained 1 commit');
    expect(violations(dir)).toHaveLength(count + 1);
    expect(violations(dir)[count]).toMatchObject({ branch: 'main', from: before });
  });

  it('a commit made by a process outside any call (a rule, a script the person runs)', () => {
    const before = head(dir, 'main');
    const count = violations(dir).length;
    expect(sh(dir, 'git update-ref refs/heads/main $(git commit-tree "HEAD^{tree}" -p main -m outside)')).toBe(0);
    expect(nextCall(dir).context).toContain('isdlc branch-evidence: main gained 1 commit');
    expect(violations(dir)[count]).toMatchObject({ branch: 'main', from: before, between_calls: true });
    // Seen once: the call after is quiet.
    expect(nextCall(dir).context ?? '').not.toContain('branch-evidence');
    expect(violations(dir)).toHaveLength(count + 1);
  });

  it('commits fetched from a remote (already on a remote-tracking branch) are not counted', () => {
    const count = violations(dir).length;
    expect(
      sh(dir, 'c=$(git commit-tree "HEAD^{tree}" -p main -m upstream) && git update-ref refs/remotes/origin/main "$c" && git update-ref refs/heads/main "$c"'),
    ).toBe(0);
    expect(nextCall(dir).context ?? '').not.toContain('branch-evidence');
    expect(violations(dir)).toHaveLength(count);
  });
});
