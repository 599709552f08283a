// The branch rule of branch-guard, checked on git's own evidence instead of the command's words: a text
// rule cannot see `git -c alias.ci=commit ci`, `commit-tree` + `update-ref`, `eval`, or a script that
// commits. Before each shell command the heads of the closed branches are kept; after it (failed or not)
// a head that moved forward is a commit that landed there during the command, whatever made it. And at
// every other hook call the heads are compared with the ones isdlc last saw (`branch_heads_seen` in state,
// which the journal vouches for): a commit made between calls (a job the agent left in the background, a
// rule isdlc ran, anything outside the agent's calls) shows at the next one, and deleting the kept heads
// of a call does not hide it. The model and the person hear of it, and the violation keeps the gate closed
// until a person acknowledges it. Commits already on a remote-tracking branch (fetched, not made here) are
// not counted. Refs are read from the repository's files; git runs only once a head has moved.
import type { GuardContext } from '../engine/guard.js';
import { defineGuard } from '../engine/guard.js';
import { commitsGained, onRemoteBranch } from '../detect/git-history.js';
import { checkedOutBranch, findGitDirs, readBranchHeads, type BranchHeads, type GitDirs } from '../detect/git-refs.js';
import type { IsdlcState } from '../state/schema.js';
import { findSnapshot, rotateIfLong, saveSnapshot, setWatchedBranches, watchedBranches } from '../state/branch-heads.js';
import { addEscalation } from '../state/escalations.js';
import { branchRuleOf, MAIN_BRANCHES, type BranchRule } from '../verify/branch-rule.js';
import { ACKNOWLEDGE_COMMAND, describeViolation, recordViolation, shortSha, violationsOf, type BranchViolation } from '../verify/branch-violations.js';

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
  const when = violation.between_calls
    ? "git's own refs show this happened since isdlc's last look, between tool calls (a job left running in the background, a rule, or a process outside your calls)"
    : "git's own refs show this happened during this command, however the command made it";
  return (
    `${PREFIX} ${describeViolation(violation)}. ${when}. ${why} ` +
    `The gate stays closed until a person acknowledges this (\`${ACKNOWLEDGE_COMMAND}\`, in their own terminal; an agent cannot): tell the user what happened and why.`
  );
}

function userMessage(violation: BranchViolation, rule: BranchRule): string {
  const command = violation.command ? ` \`${violation.command.length > 120 ? `${violation.command.slice(0, 117)}...` : violation.command}\`` : '';
  const who = violation.between_calls
    ? 'a commit reached a closed branch between tool calls'
    : `the agent's shell command${command} committed to a closed branch`;
  return (
    `isdlc: ${who}: ${describeViolation(violation)}` +
    `${rule.workflowBranch && violation.rule === 'main' ? ` (the ${rule.workflowType} workflow works on ${rule.workflowBranch})` : ''}. ` +
    `The gate stays closed until you look and run \`${ACKNOWLEDGE_COMMAND}\` in your own terminal. To undo: \`${undoCommand(violation)}\`.`
  );
}

/** The heads isdlc last saw, from state, when they are this repository's. */
const SEEN = 'branch_heads_seen';
function seenHeads(state: IsdlcState | null, repo: string): BranchHeads | undefined {
  const seen = state?.[SEEN] as { repo?: unknown; heads?: unknown } | undefined;
  if (!seen || seen.repo !== repo || typeof seen.heads !== 'object' || seen.heads === null) return undefined;
  return seen.heads as BranchHeads;
}

/** Records each closed branch that moved forward from `from` to `to`, as one violation each. */
function judgeMoves(
  context: GuardContext,
  dirs: GitDirs,
  rule: BranchRule,
  from: BranchHeads,
  to: BranchHeads,
  useId: string | undefined,
  betweenCalls: boolean,
): void {
  const { event, state, now } = context;
  const moved = Object.keys(to).filter((branch) => from[branch] && to[branch] && from[branch] !== to[branch]);
  if (moved.length === 0) return;
  // A workflow branch deleted after its merge: the workflow is over in all but name, as for branch-guard.
  if (rule.workflowBranch && !readBranchHeads(dirs, [rule.workflowBranch])[rule.workflowBranch]) {
    context.log({ outcome: 'workflow-branch-gone', branch: rule.workflowBranch, branches: moved });
    return;
  }
  const command = !betweenCalls && typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
  for (const branch of moved) {
    const kind = rule.closed.get(branch);
    const start = from[branch]!;
    const end = to[branch]!;
    if (!kind) continue;
    const gain = commitsGained(dirs.top, start, end);
    if (gain && gain.total === 0) {
      // Moved back (a reset, an undo): nothing landed.
      context.log({ outcome: 'moved-back', branch, from: start, to: end });
      continue;
    }
    if (betweenCalls && onRemoteBranch(dirs.top, end)) {
      context.log({ outcome: 'fetched', branch, from: start, to: end });
      continue;
    }
    const violation: BranchViolation = {
      branch,
      rule: kind,
      from: start,
      to: end,
      commits: gain?.commits ?? [],
      commit_count: gain ? gain.total : null,
      phase: rule.phase,
      workflow_started_at: typeof state?.active_workflow?.started_at === 'string' ? state.active_workflow.started_at : null,
      detected_at: now.toISOString(),
      ...(betweenCalls ? { between_calls: true as const } : {}),
      ...(event.tool && !betweenCalls ? { tool: event.tool.name } : {}),
      ...(useId && !betweenCalls ? { tool_use_id: useId } : {}),
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
    // Already recorded (another call saw the same move): said once.
    if (violationsOf(state).some((known) => known.branch === branch && known.from === start && known.to === end)) continue;
    context.log({
      outcome: 'violation',
      branch,
      rule: kind,
      from: shortSha(start),
      to: shortSha(end),
      commits: violation.commit_count,
      ...(betweenCalls ? { between_calls: true } : {}),
    });
    context.note(modelNote(violation, rule));
    context.tellUser(userMessage(violation, rule));
  }
}

/** A hook call other than a shell command's PreToolUse: what moved since the last look, then during the command. */
function look(context: GuardContext, dirs: GitDirs): void {
  const { event, location, state } = context;
  const rule = branchRuleOf(state);
  keepWatchCurrent(context, rule);
  const shellResult = (event.name === 'PostToolUse' || event.name === 'PostToolUseFailure') && event.tool?.kind === 'shell';
  const useId = event.tool?.useId;
  if (shellResult && !context.dryRun) rotateIfLong(location.isdlcDir);
  if (!rule || !state) return;
  const watched = branchesToKeep(dirs, location.isdlcDir);
  const current = readBranchHeads(dirs, watched);
  const kept = shellResult && useId ? findSnapshot(location.isdlcDir, useId) : null;
  const atStart = kept && kept.repo === dirs.commonDir ? kept.heads : undefined;
  const seen = seenHeads(state, dirs.commonDir);
  if (seen) judgeMoves(context, dirs, rule, seen, atStart ?? current, useId, true);
  if (atStart) judgeMoves(context, dirs, rule, atStart, current, useId, false);
  if (
    !context.dryRun &&
    !(seen && Object.keys(current).every((branch) => seen[branch] === current[branch]) && Object.keys(seen).length === Object.keys(current).length)
  ) {
    context.update((draft) => {
      draft[SEEN] = { repo: dirs.commonDir, heads: current };
    });
  }
}

export const branchEvidence = defineGuard({
  id: 'branch-evidence',
  description:
    "After each shell command, and at every other hook call, reads git's refs to see whether main/master (or the workflow branch before its last phase) gained a commit during the command or since isdlc's last look, however it was made; tells the model and the person and records a violation that keeps the gate closed until a person acknowledges it.",
  on: { PreToolUse: true, PostToolUse: true, PostToolUseFailure: true, UserPromptSubmit: true, Stop: true, SubagentStop: true, SessionStart: true },
  check(context) {
    const { event, location } = context;
    const dirs = findGitDirs(location.root);
    if (!dirs) return;
    if (event.name === 'PreToolUse' && event.tool?.kind === 'shell') {
      // The shell's PreToolUse never reads state: it only keeps the heads the command starts from.
      if (event.tool.useId) before(context, dirs, event.tool.useId);
      return;
    }
    look(context, dirs);
  },
});
