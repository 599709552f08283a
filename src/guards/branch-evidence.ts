// The branch rule of branch-guard, checked on git's own evidence instead of the command's words: a text
// rule cannot see `git -c alias.ci=commit ci`, `commit-tree` + `update-ref`, `eval`, or a script that
// commits. Before each shell command the heads of the closed branches are kept; after it (failed or not)
// a head that moved forward is a commit that landed there during the command, whatever made it. The model
// and the person hear of it, and the violation keeps the gate closed until a person acknowledges it.
// Refs are read from the repository's files; git runs only once a head has moved.
import type { GuardContext } from '../engine/guard.js';
import { defineGuard } from '../engine/guard.js';
import { commitsGained } from '../detect/git-history.js';
import { checkedOutBranch, findGitDirs, readBranchHeads, type GitDirs } from '../detect/git-refs.js';
import { findSnapshot, rotateIfLong, saveSnapshot, setWatchedBranches, watchedBranches } from '../state/branch-heads.js';
import { addEscalation } from '../state/escalations.js';
import { branchRuleOf, MAIN_BRANCHES, type BranchRule } from '../verify/branch-rule.js';
import { ACKNOWLEDGE_COMMAND, describeViolation, recordViolation, shortSha, type BranchViolation } from '../verify/branch-violations.js';

const PREFIX = 'isdlc branch-evidence:';
const COMMAND_KEPT = 300;

function branchesToKeep(dirs: GitDirs, isdlcDir: string): string[] {
  const names = new Set([...MAIN_BRANCHES, ...watchedBranches(isdlcDir)]);
  const head = checkedOutBranch(dirs);
  if (head) names.add(head);
  return [...names];
}

function before({ location, dryRun }: GuardContext, dirs: GitDirs, useId: string): void {
  if (dryRun) return;
  saveSnapshot(location.isdlcDir, useId, { repo: dirs.commonDir, heads: readBranchHeads(dirs, branchesToKeep(dirs, location.isdlcDir)) });
}

/** The PreToolUse never reads state, so it learns the workflow's branch from a file kept here. */
function keepWatchCurrent(context: GuardContext, rule: BranchRule | null): void {
  const wanted = rule?.workflowBranch ? [rule.workflowBranch] : [];
  const watched = watchedBranches(context.location.isdlcDir);
  if (context.dryRun || (wanted.length === watched.length && wanted.every((name, i) => watched[i] === name))) return;
  setWatchedBranches(context.location.isdlcDir, wanted);
}

function undoCommand(violation: BranchViolation): string {
  return `git update-ref refs/heads/${violation.branch} ${violation.from} ${violation.to}`;
}

function modelNote(violation: BranchViolation, rule: BranchRule): string {
  const undo = `\`${undoCommand(violation)}\` sets ${violation.branch} back to where it was (where it is checked out, the changes stay in the working tree, uncommitted, as after \`git reset --soft\`)`;
  const why =
    violation.rule === 'main'
      ? `Commits go on the workflow branch${rule.workflowBranch ? ` ${rule.workflowBranch}` : ''} and reach ${violation.branch} through its merge, after review. To undo: ${undo}${rule.workflowBranch ? `, then \`git checkout ${rule.workflowBranch}\`` : ''}.`
      : `The workflow commits only in its last phase (${rule.lastPhase ?? '?'}), after the quality loop and the review; until then changes stay in the working tree. To undo: ${undo}.`;
  return (
    `${PREFIX} ${describeViolation(violation)}. git's own refs show this happened during this command, however the command made it. ${why} ` +
    `The gate stays closed until a person acknowledges this (\`${ACKNOWLEDGE_COMMAND}\`, in their own terminal; an agent cannot): tell the user what happened and why.`
  );
}

function userMessage(violation: BranchViolation, rule: BranchRule): string {
  const command = violation.command ? ` \`${violation.command.length > 120 ? `${violation.command.slice(0, 117)}...` : violation.command}\`` : '';
  return (
    `isdlc: the agent's shell command${command} committed to a closed branch: ${describeViolation(violation)}` +
    `${rule.workflowBranch && violation.rule === 'main' ? ` (the ${rule.workflowType} workflow works on ${rule.workflowBranch})` : ''}. ` +
    `The gate stays closed until you look and run \`${ACKNOWLEDGE_COMMAND}\` in your own terminal. To undo: \`${undoCommand(violation)}\`.`
  );
}

function after(context: GuardContext, dirs: GitDirs, useId: string): void {
  const { event, location, state, now } = context;
  const kept = findSnapshot(location.isdlcDir, useId);
  const rule = branchRuleOf(state);
  keepWatchCurrent(context, rule);
  if (!context.dryRun) rotateIfLong(location.isdlcDir);
  if (!kept || kept.repo !== dirs.commonDir) return;
  const current = readBranchHeads(dirs, Object.keys(kept.heads));
  const moved = Object.keys(current).filter((branch) => kept.heads[branch] && current[branch] && kept.heads[branch] !== current[branch]);
  if (moved.length === 0) return;
  if (!rule) {
    context.log({ outcome: 'heads-moved', branches: moved, rule: 'none' });
    return;
  }
  // A workflow branch deleted after its merge: the workflow is over in all but name, as for branch-guard.
  if (rule.workflowBranch && !readBranchHeads(dirs, [rule.workflowBranch])[rule.workflowBranch]) {
    context.log({ outcome: 'workflow-branch-gone', branch: rule.workflowBranch, branches: moved });
    return;
  }
  const command = typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
  for (const branch of moved) {
    const kind = rule.closed.get(branch);
    const from = kept.heads[branch]!;
    const to = current[branch]!;
    if (!kind) continue;
    const gain = commitsGained(dirs.top, from, to);
    if (gain && gain.total === 0) {
      // Moved back (a reset, an undo): nothing landed.
      context.log({ outcome: 'moved-back', branch, from, to });
      continue;
    }
    const violation: BranchViolation = {
      branch,
      rule: kind,
      from,
      to,
      commits: gain?.commits ?? [],
      commit_count: gain ? gain.total : null,
      phase: rule.phase,
      workflow_started_at: typeof state?.active_workflow?.started_at === 'string' ? state.active_workflow.started_at : null,
      detected_at: now.toISOString(),
      ...(event.tool ? { tool: event.tool.name } : {}),
      tool_use_id: useId,
      ...(command ? { command: command.length > COMMAND_KEPT ? `${command.slice(0, COMMAND_KEPT - 3)}...` : command } : {}),
    };
    context.update((draft) => {
      if (recordViolation(draft, violation)) {
        addEscalation(draft, {
          type: 'branch_violation',
          hook: 'branch-evidence',
          phase: rule.phase,
          detail: describeViolation(violation),
          timestamp: violation.detected_at,
        });
      }
    });
    context.log({ outcome: 'violation', branch, rule: kind, from: shortSha(from), to: shortSha(to), commits: violation.commit_count });
    context.note(modelNote(violation, rule));
    context.tellUser(userMessage(violation, rule));
  }
}

export const branchEvidence = defineGuard({
  id: 'branch-evidence',
  description:
    "After each shell command, reads git's refs to see whether main/master (or the workflow branch before its last phase) gained a commit during it, however it was made; tells the model and the person and records a violation that keeps the gate closed until a person acknowledges it.",
  on: { PreToolUse: ['shell'], PostToolUse: ['shell'], PostToolUseFailure: ['shell'] },
  check(context) {
    const { event, location } = context;
    const useId = event.tool?.useId;
    if (!useId) return;
    const dirs = findGitDirs(location.root);
    if (!dirs) return;
    if (event.name === 'PreToolUse') before(context, dirs, useId);
    else after(context, dirs, useId);
  },
});
