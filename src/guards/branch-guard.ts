// While a workflow works on its own branch, nothing is committed to main or master; and on the workflow
// branch nothing is committed before the last phase, which is where the work has passed its quality loop
// and review (the phase-aware rule).
import { isAbsolute, resolve } from 'node:path';
import { branchExists, currentBranch } from '../detect/git-branch.js';
import { gitCommitsIn } from '../detect/git-commands.js';
import { defineGuard } from '../engine/guard.js';
import { activeWorkflowOf, currentPhaseOf, workflowPhasesOf } from '../state/current-phase.js';

const PROTECTED_BRANCHES = new Set(['main', 'master']);
const PREFIX = 'isdlc branch-guard:';

export const branchGuard = defineGuard({
  id: 'branch-guard',
  description: "Denies `git commit` on main/master while a workflow's branch is active, and on the workflow branch before the workflow's last phase.",
  on: { PreToolUse: ['shell'] },
  check({ event, state, location, deny, log }) {
    const command = typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
    const commits = gitCommitsIn(command, { powershell: event.tool?.name === 'PowerShell' });
    if (commits.length === 0) return;
    const workflow = activeWorkflowOf(state);
    const branch = workflow?.git_branch;
    if (!workflow || !branch || typeof branch !== 'object' || branch.status !== 'active') return;
    const cwd = event.cwd ?? location.root;
    const dir = commits[0]!.dir ? (isAbsolute(commits[0]!.dir) ? commits[0]!.dir : resolve(cwd, commits[0]!.dir)) : cwd;
    const checkedOut = currentBranch(dir);
    if (!checkedOut) return;
    const workflowBranch = typeof branch.name === 'string' && branch.name ? branch.name : null;
    // A workflow branch deleted after its merge: the workflow is over in all but name (BUG-0015).
    if (workflowBranch && !branchExists(dir, workflowBranch)) {
      log({ outcome: 'workflow-branch-gone', branch: workflowBranch });
      return;
    }
    if (PROTECTED_BRANCHES.has(checkedOut)) {
      deny(
        `${PREFIX} ${workflowBranch ? `Switch to the workflow branch first (\`git checkout ${workflowBranch}\`)` : 'Check out the workflow branch first'}, then commit there. ` +
          `This command commits to ${checkedOut}, but the active ${String(workflow.type ?? '')} workflow works on ` +
          `${workflowBranch ? `its branch ${workflowBranch}` : 'a branch of its own'}; commits reach ${checkedOut} through that branch's merge, after review. ` +
          'The same command will be denied again on this branch.',
      );
      return;
    }
    const phases = workflowPhasesOf(state);
    const current = currentPhaseOf(state);
    const last = phases[phases.length - 1];
    if (workflowBranch && checkedOut === workflowBranch && current && last && current !== last) {
      deny(
        `${PREFIX} Do not commit yet: leave the changes in the working tree (or \`git stash\` them); the commit happens at the end of the workflow. ` +
          `No commits on ${workflowBranch} during phase ${current}: the workflow commits once its last phase (${last}) is reached, ` +
          'after the quality loop and the review, so that no unchecked snapshot enters history. The same command will be denied again in this phase.',
      );
    }
  },
});
