import { guardTable } from '../../test/helpers/guard-table.js';
import { bashCall } from '../../test/helpers/payloads.js';
import { git } from '../../test/helpers/project.js';
import { BRANCH, inPhase, repoWithBranches } from '../../test/helpers/workflow-branch.js';

/** A real repository with one commit and the workflow branch; `on` is checked out. */
const repo =
  (on: string, branches: string[] = [BRANCH]) =>
  (dir: string): void =>
    repoWithBranches(dir, on, branches);

const commit =
  (command = 'git commit -m "Add CSV export"') =>
  (dir: string) =>
    bashCall(dir, command);

guardTable('branch-guard', {
  valid: [
    {
      name: 'a commit on the workflow branch in its last phase (T03)',
      state: inPhase('08-code-review'),
      setup: repo(BRANCH),
      payload: commit(),
      expect: 'allow',
    },
    { name: 'no active workflow (T04)', state: { state_version: 1, active_workflow: null }, setup: repo('main'), payload: commit(), expect: 'allow' },
    { name: 'a workflow without a branch (T05)', state: inPhase('06-implementation', null), setup: repo('main'), payload: commit(), expect: 'allow' },
    {
      name: 'a workflow branch that is no longer active (T06)',
      state: inPhase('06-implementation', { name: BRANCH, status: 'merged' }),
      setup: repo('main'),
      payload: commit(),
      expect: 'allow',
    },
    {
      name: 'git status, log and diff (T07)',
      state: inPhase('06-implementation'),
      setup: repo('main'),
      payload: commit('git status && git log --oneline -5 && git diff --stat'),
      expect: 'allow',
    },
    { name: 'git push (T08)', state: inPhase('06-implementation'), setup: repo('main'), payload: commit('git push origin main'), expect: 'allow' },
    {
      name: 'the words "git commit" in an echoed string',
      state: inPhase('06-implementation'),
      setup: repo('main'),
      payload: commit('echo "remember to git commit later" >> NOTES.md'),
      expect: 'allow',
    },
    {
      name: 'git commit-tree is another command',
      state: inPhase('06-implementation'),
      setup: repo('main'),
      payload: commit('git commit-tree HEAD^{tree} -m snapshot'),
      expect: 'allow',
    },
    {
      name: 'a branch called maintenance, which is not main',
      state: inPhase('06-implementation'),
      setup: repo('maintenance', [BRANCH, 'maintenance']),
      payload: commit(),
      expect: 'allow',
    },
    { name: 'no state file (T09)', setup: repo('main'), payload: commit(), expect: 'allow' },
    { name: 'a folder without git init: git fails, the commit is allowed (T10)', state: inPhase('06-implementation'), payload: commit(), expect: 'allow' },
    {
      name: 'the workflow branch was deleted after its merge (BUG-0015)',
      state: inPhase('06-implementation'),
      setup: repo('main', []),
      payload: commit(),
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: 'a commit on main while the workflow branch is active, naming the branch (T01, T13)',
      state: inPhase('06-implementation'),
      setup: repo('main'),
      payload: commit(),
      expect: 'deny',
      reasonIncludes: [
        `isdlc branch-guard: Switch to the workflow branch first (\`git checkout ${BRANCH}\`), then commit there.`,
        'commits to main',
        'denied again',
      ],
    },
    {
      name: 'a commit on master (T02)',
      state: inPhase('06-implementation'),
      setup: (dir) => {
        repo('main')(dir);
        git(dir, 'branch', '-m', 'main', 'master');
      },
      payload: commit(),
      expect: 'deny',
      reasonIncludes: ['commits to master'],
    },
    {
      name: 'git commit --amend (T11)',
      state: inPhase('06-implementation'),
      setup: repo('main'),
      payload: commit('git commit --amend --no-edit'),
      expect: 'deny',
    },
    {
      name: 'chained after other commands (T12)',
      state: inPhase('06-implementation'),
      setup: repo('main'),
      payload: commit('npm test && git add -A && git commit -m "wip"'),
      expect: 'deny',
    },
    { name: 'in a subshell', state: inPhase('06-implementation'), setup: repo('main'), payload: commit('(git add -A; git commit -qm wip)'), expect: 'deny' },
    { name: 'inside bash -c', state: inPhase('06-implementation'), setup: repo('main'), payload: commit(`bash -c 'git commit -m "wip"'`), expect: 'deny' },
    {
      name: 'git -C with global options',
      state: inPhase('06-implementation'),
      setup: repo('main'),
      payload: commit('git -C . -c core.editor=true commit -m wip'),
      expect: 'deny',
    },
    {
      name: 'on the workflow branch before its last phase (phase-aware rule), naming the phase',
      state: inPhase('06-implementation'),
      setup: repo(BRANCH),
      payload: commit(),
      expect: 'deny',
      reasonIncludes: [
        'isdlc branch-guard: Do not commit yet: leave the changes in the working tree (or `git stash` them)',
        'No commits on feature/REQ-0001-csv-export during phase 06-implementation',
        '08-code-review',
      ],
    },
  ],
});
