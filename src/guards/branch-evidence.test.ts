import { projectEnv } from '../../test/helpers/hosts.js';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { guardTable, type GuardCase } from '../../test/helpers/guard-table.js';
import { bashCall, bashFailed, bashPassed } from '../../test/helpers/payloads.js';
import { BIN, git, hook, tempDir, writeFile } from '../../test/helpers/project.js';
import { BRANCH, inPhase, repoWithBranches } from '../../test/helpers/workflow-branch.js';

const GUARD = ['--guards', 'branch-evidence'];
const IDENTITY = { GIT_AUTHOR_NAME: 'Agent', GIT_AUTHOR_EMAIL: 'agent@example.com', GIT_COMMITTER_NAME: 'Agent', GIT_COMMITTER_EMAIL: 'agent@example.com' };

/** A command line as the agent's shell runs it, in the project. */
function sh(dir: string, line: string): void {
  const run = spawnSync('bash', ['-c', line], { cwd: dir, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' });
  if (run.status !== 0 && !line.endsWith('false')) throw new Error(`${line} failed: ${run.stderr}`);
}

const withId = (payload: Record<string, unknown>, id: string) => ({ ...payload, tool_use_id: id });

/**
 * One shell call played for real: the PreToolUse through the hook, the command run by bash, then the
 * PostToolUse (or PostToolUseFailure) the case's payload sends. `prepare` shapes the repository first.
 */
function played(line: string, options: { on?: string; branches?: string[]; prepare?: (dir: string) => void; id?: string } = {}) {
  return (dir: string): void => {
    repoWithBranches(dir, options.on ?? 'main', options.branches);
    options.prepare?.(dir);
    const pre = hook(dir, withId(bashCall(dir, line), options.id ?? 'toolu_case'), GUARD);
    expect(pre.status, pre.stderr).toBe(0);
    sh(dir, line);
  };
}

const after =
  (line: string, id = 'toolu_case') =>
  (dir: string) =>
    withId(bashPassed(dir, line, ''), id);

const quiet: GuardCase['then'] = ({ decision, state }) => {
  expect(decision.context).toBeUndefined();
  expect(decision.systemMessage).toBeUndefined();
  expect(state['branch_violations']).toBeUndefined();
};

function reported(branch: string, ...context: string[]): Pick<GuardCase, 'expect' | 'contextIncludes' | 'then'> {
  return {
    expect: 'allow',
    contextIncludes: ['isdlc branch-evidence:', `${branch} gained 1 commit`, 'git update-ref', 'isdlc branch acknowledge', ...context],
    then: ({ decision, state, project }) => {
      expect(decision.systemMessage).toContain('isdlc branch acknowledge');
      const violations = state['branch_violations'] as Record<string, any>[];
      expect(violations).toHaveLength(1);
      expect(violations[0]).toMatchObject({ branch, commit_count: 1 });
      expect(violations[0]!['acknowledged']).toBeUndefined();
      expect((state['pending_escalations'] as Record<string, unknown>[]).some((entry) => entry['type'] === 'branch_violation')).toBe(true);
      // The heads the call started from were kept under its tool-use id.
      expect(readFileSync(join(project, '.isdlc/branch-heads/calls.log'), 'utf8')).toMatch(/^toolu_case\t/m);
    },
  };
}

const alias = 'git -c alias.ci=commit ci -q --allow-empty -m "wip"';
const commitTree = 'git update-ref refs/heads/main $(git commit-tree "HEAD^{tree}" -p HEAD -m snapshot)';

guardTable('branch-evidence', {
  valid: [
    {
      name: 'a command that commits nothing',
      state: inPhase('06-implementation'),
      setup: played('git status && ls'),
      payload: after('git status && ls'),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'no active workflow: a commit on main is ordinary work',
      state: { state_version: 1, active_workflow: null },
      setup: played(alias),
      payload: after(alias),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'a workflow branch that is no longer active',
      state: inPhase('06-implementation', { name: BRANCH, status: 'merged' }),
      setup: played(alias),
      payload: after(alias),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'a commit on the workflow branch in its last phase',
      state: inPhase('08-code-review'),
      setup: played(alias, { on: BRANCH }),
      payload: after(alias),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'main moved back (a reset) gained nothing',
      state: inPhase('06-implementation'),
      setup: played('git reset -q --hard HEAD~1', { prepare: (dir) => git(dir, 'commit', '-q', '--allow-empty', '-m', 'second') }),
      payload: after('git reset -q --hard HEAD~1'),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'a commit on a branch the workflow does not close',
      state: inPhase('06-implementation'),
      setup: played(alias, { on: 'scratch', branches: [BRANCH, 'scratch'] }),
      payload: after(alias),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'the workflow branch was deleted after its merge (BUG-0015)',
      state: inPhase('06-implementation'),
      setup: played(alias, { branches: [] }),
      payload: after(alias),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'a PostToolUse whose PreToolUse never came',
      state: inPhase('06-implementation'),
      setup: played(alias, { id: 'toolu_other' }),
      payload: after(alias),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'a folder that is no git repository',
      state: inPhase('06-implementation'),
      setup: (dir) => void hook(dir, withId(bashCall(dir, 'ls'), 'toolu_case'), GUARD),
      payload: after('ls'),
      expect: 'allow',
      then: quiet,
    },
    {
      name: 'the dry run keeps nothing',
      state: inPhase('06-implementation'),
      setup: (dir) => {
        repoWithBranches(dir, 'main');
        spawnSync(process.execPath, [BIN, 'hook', ...GUARD], {
          cwd: dir,
          env: { ...process.env, ...projectEnv(dir), ISDLC_DRY_RUN: '1' },
          input: JSON.stringify(withId(bashCall(dir, alias), 'toolu_case')),
        });
        expect(existsSync(join(dir, '.isdlc/branch-heads'))).toBe(false);
        sh(dir, alias);
      },
      payload: after(alias),
      expect: 'allow',
      then: quiet,
    },
  ],
  invalid: [],
});

// Each route a text rule misses, played for real in a repository on disk: all of them are seen.
guardTable('branch-evidence', {
  valid: [
    {
      name: 'plain `git commit` on main',
      state: inPhase('06-implementation'),
      setup: played('git commit -q --allow-empty -m wip'),
      payload: after('git commit -q --allow-empty -m wip'),
      ...reported('main', 'while the workflow works on its own branch', `git checkout ${BRANCH}`),
    },
    { name: 'an alias: `git -c alias.ci=commit ci`', state: inPhase('06-implementation'), setup: played(alias), payload: after(alias), ...reported('main') },
    {
      name: '`git commit-tree` then `git update-ref refs/heads/main`',
      state: inPhase('06-implementation'),
      setup: played(commitTree),
      payload: after(commitTree),
      ...reported('main', '"snapshot"'),
    },
    {
      name: '`eval "git commit ..."`',
      state: inPhase('06-implementation'),
      setup: played('eval "git commit -q --allow-empty -m wip"'),
      payload: after('eval "git commit -q --allow-empty -m wip"'),
      ...reported('main'),
    },
    {
      name: 'a script file that commits',
      state: inPhase('06-implementation'),
      setup: played('bash tools/save.sh', { prepare: (dir) => writeScript(dir) }),
      payload: after('bash tools/save.sh'),
      ...reported('main'),
    },
    {
      name: 'update-ref with the reflog off (`core.logAllRefUpdates=false`)',
      state: inPhase('06-implementation'),
      setup: played(`git -c core.logAllRefUpdates=false ${commitTree.slice(4)}`, { on: BRANCH }),
      payload: after(`git -c core.logAllRefUpdates=false ${commitTree.slice(4)}`),
      ...reported('main'),
    },
    {
      name: 'main only in packed-refs before the command',
      state: inPhase('06-implementation'),
      setup: played(alias, { prepare: (dir) => git(dir, 'pack-refs', '--all') }),
      payload: after(alias),
      ...reported('main'),
    },
    {
      name: 'a failed command that committed first (PostToolUseFailure)',
      state: inPhase('06-implementation'),
      setup: played(`${alias} && false`),
      payload: (dir) => withId(bashFailed(dir, `${alias} && false`, 1, ''), 'toolu_case'),
      ...reported('main'),
    },
    {
      name: 'the workflow branch before its last phase',
      state: inPhase('06-implementation'),
      setup: played(alias, { on: BRANCH }),
      payload: after(alias),
      ...reported(BRANCH, 'in phase 06-implementation', '08-code-review', 'git reset --soft'),
    },
    {
      name: 'the workflow branch moved while main is checked out (learnt from an earlier call)',
      state: inPhase('06-implementation'),
      setup: played(`git update-ref refs/heads/${BRANCH} $(git commit-tree "HEAD^{tree}" -p ${BRANCH} -m early)`, {
        prepare: (dir) => {
          // A first command's PostToolUse reads the workflow's branch from state and keeps it watched.
          hook(dir, withId(bashCall(dir, 'true'), 'toolu_first'), GUARD);
          hook(dir, withId(bashPassed(dir, 'true', ''), 'toolu_first'), GUARD);
        },
      }),
      payload: after(`git update-ref refs/heads/${BRANCH} $(git commit-tree "HEAD^{tree}" -p ${BRANCH} -m early)`),
      ...reported(BRANCH, '"early"'),
    },
    {
      name: 'heads kept just before the log of calls was started anew',
      state: inPhase('06-implementation'),
      setup: (dir) => {
        repoWithBranches(dir, 'main');
        writeFile(join(dir, '.isdlc/branch-heads/calls.log'), `toolu_old\t{}\n`.repeat(6000));
        hook(dir, withId(bashCall(dir, alias), 'toolu_case'), GUARD);
        // Another call's PostToolUse finds the log long and moves it aside.
        hook(dir, withId(bashPassed(dir, 'true', ''), 'toolu_other'), GUARD);
        expect(existsSync(join(dir, '.isdlc/branch-heads/calls.log.1'))).toBe(true);
        sh(dir, alias);
      },
      payload: after(alias),
      ...reported('main'),
      then: ({ state }) => expect(state['branch_violations']).toHaveLength(1),
    },
    {
      name: 'a commit on main made in another work tree of the same repository',
      state: inPhase('06-implementation'),
      setup: (dir) => {
        const other = join(tempDir('isdlc-be-other-'), 'wt');
        played(`git -C ${other} commit -q --allow-empty -m elsewhere`, {
          on: BRANCH,
          prepare: (project) => git(project, 'worktree', 'add', '-q', other, 'main'),
        })(dir);
      },
      payload: after('git -C ../wt commit -q --allow-empty -m elsewhere'),
      ...reported('main', '"elsewhere"'),
    },
  ],
  invalid: [],
});

// The project itself a linked work tree (`.git` is a `gitdir:` file; branches live in the main repository).
guardTable('branch-evidence', {
  valid: [
    {
      name: 'in a linked work tree, a commit on main through update-ref',
      state: inPhase('06-implementation'),
      setup: (dir) => {
        const main = tempDir('isdlc-be-main-');
        repoWithBranches(main, 'main');
        // `git worktree add` wants an empty folder: the project's files step aside meanwhile.
        const aside = tempDir('isdlc-be-aside-');
        renameSync(join(dir, '.isdlc'), join(aside, '.isdlc'));
        rmSync(dir, { recursive: true, force: true });
        git(main, 'worktree', 'add', '-q', dir, BRANCH);
        renameSync(join(aside, '.isdlc'), join(dir, '.isdlc'));
        expect(existsSync(join(dir, '.git')) && !readdirSync(dir).includes('HEAD')).toBe(true);
        hook(dir, withId(bashCall(dir, commitTree), 'toolu_case'), GUARD);
        sh(dir, commitTree);
      },
      payload: after(commitTree),
      ...reported('main'),
    },
  ],
  invalid: [],
});

function writeScript(dir: string): void {
  sh(dir, 'mkdir -p tools');
  writeFileSync(join(dir, 'tools/save.sh'), '#!/bin/sh\nset -e\ngit add -A >/dev/null 2>&1 || true\ngit commit -q --allow-empty -m "saved by script"\n');
}
