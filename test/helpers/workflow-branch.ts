// A workflow that works on its own git branch, for the guards that watch branches: the branch's name, a
// real repository with it, and a state in a phase of that workflow.
import { git } from './project.js';
import { workflowState } from './states.js';

export const BRANCH = 'feature/REQ-0001-csv-export';

/** A real repository with one commit and `branches`; `on` is checked out. */
export function repoWithBranches(dir: string, on: string, branches: string[] = [BRANCH]): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'initial');
  for (const branch of branches) git(dir, 'branch', branch);
  if (on !== 'main') git(dir, 'checkout', '-q', on);
}

/** A feature workflow in `phase`, working on `gitBranch` (none: null). */
export function inPhase(phase: string, gitBranch: Record<string, unknown> | null = { name: BRANCH, status: 'active', created_at: '2026-11-25T10:00:00Z' }) {
  const state = workflowState('feature', phase);
  state['active_workflow'].git_branch = gitBranch;
  return state;
}
