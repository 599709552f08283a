// Commits that reached a branch the workflow keeps closed, as git itself showed them after a shell
// command (`branch_violations` in state). Each stays open, and keeps the gate closed, until a person has
// looked at it and runs `isdlc branch acknowledge`: the commit may already be pushed or built on, so
// undoing it is not the same as a person knowing it happened.
import type { GainedCommit } from '../detect/git-history.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import type { IsdlcState } from '../state/schema.js';
import type { BranchRuleKind } from './branch-rule.js';

export const ACKNOWLEDGE_COMMAND = 'isdlc branch acknowledge';
const KEPT = 50;

export interface BranchViolation {
  branch: string;
  rule: BranchRuleKind;
  from: string;
  to: string;
  /** What git listed (the newest first); `commit_count` counts them all, or is null when git could not say. */
  commits: GainedCommit[];
  commit_count: number | null;
  phase: string | null;
  /** The workflow it happened in (its `started_at`): the gate of a later workflow does not answer for it. */
  workflow_started_at: string | null;
  detected_at: string;
  tool?: string;
  tool_use_id?: string;
  command?: string;
  /** Seen at a hook call as a move since isdlc's last look, not during a shell command it watched. */
  between_calls?: true;
  acknowledged?: { by: string; at: string; note?: string };
}

export function violationsOf(state: IsdlcState | null | undefined): BranchViolation[] {
  const list = state?.['branch_violations'];
  return Array.isArray(list) ? (list.filter((entry) => entry && typeof entry === 'object') as BranchViolation[]) : [];
}

/** Adds one, unless the same move of the same branch is there already (two calls saw it). */
export function recordViolation(draft: IsdlcState, violation: BranchViolation): boolean {
  const list = violationsOf(draft);
  if (list.some((entry) => entry.branch === violation.branch && entry.to === violation.to && entry.from === violation.from)) return false;
  list.push(violation);
  // Bounded like the other logs in state; an open one is never dropped.
  while (list.length > KEPT) {
    const index = list.findIndex((entry) => entry.acknowledged);
    if (index < 0) break;
    list.splice(index, 1);
  }
  draft['branch_violations'] = list;
  return true;
}

/** Those of the active workflow that no person has acknowledged yet. */
export function openViolations(state: IsdlcState | null | undefined): BranchViolation[] {
  const workflow = activeWorkflowOf(state);
  if (!workflow) return [];
  const started = typeof workflow.started_at === 'string' ? workflow.started_at : null;
  return violationsOf(state).filter((entry) => !entry.acknowledged && (entry.workflow_started_at ?? null) === started);
}

export function acknowledgedViolations(state: IsdlcState | null | undefined): BranchViolation[] {
  const workflow = activeWorkflowOf(state);
  const started = typeof workflow?.started_at === 'string' ? workflow.started_at : null;
  return violationsOf(state).filter((entry) => entry.acknowledged && (entry.workflow_started_at ?? null) === started);
}

/** A person has seen them: every open one is marked acknowledged. Returns those it marked. */
export function shortSha(sha: string): string {
  return sha.slice(0, 10);
}

/** One line per violation, for the gate, `status` and the acknowledgement. */
export function describeViolation(violation: BranchViolation): string {
  const count = violation.commit_count === null ? 'moved' : `gained ${violation.commit_count} commit${violation.commit_count === 1 ? '' : 's'}`;
  const listed = violation.commits.map((commit) => `${shortSha(commit.sha)} "${commit.subject}"`).join(', ');
  const why = violation.rule === 'main' ? 'while the workflow works on its own branch' : `in phase ${violation.phase ?? '?'}, before the workflow's last phase`;
  return `${violation.branch} ${count} (${shortSha(violation.from)} → ${shortSha(violation.to)})${listed ? `: ${listed}` : ''}, ${why}`;
}
