// Which branches an active workflow keeps commits off, as branch-guard reads the rule before a
// `git commit` and branch-evidence checks it after every shell command: main and master while the
// workflow works on a branch of its own, and that branch itself until the last phase.
import { activeWorkflowOf, currentPhaseOf, workflowPhasesOf } from '../state/current-phase.js';
import type { IsdlcState } from '../state/schema.js';

export const MAIN_BRANCHES: readonly string[] = ['main', 'master'];

export type BranchRuleKind = 'main' | 'before-last-phase';

export interface BranchRule {
  workflowType: string;
  /** The workflow's branch, when state names it. */
  workflowBranch: string | null;
  phase: string | null;
  lastPhase: string | null;
  /** Each branch that may not gain a commit now, and why. */
  closed: Map<string, BranchRuleKind>;
}

/** The rule in force, or null when no workflow works on an active branch of its own. */
export function branchRuleOf(state: IsdlcState | null): BranchRule | null {
  const workflow = activeWorkflowOf(state);
  const branch = workflow?.git_branch;
  if (!workflow || !branch || typeof branch !== 'object' || branch.status !== 'active') return null;
  const workflowBranch = typeof branch.name === 'string' && branch.name ? branch.name : null;
  const phases = workflowPhasesOf(state);
  const phase = currentPhaseOf(state);
  const lastPhase = phases[phases.length - 1] ?? null;
  const closed = new Map<string, BranchRuleKind>();
  for (const name of MAIN_BRANCHES) if (name !== workflowBranch) closed.set(name, 'main');
  if (workflowBranch && phase && lastPhase && phase !== lastPhase) closed.set(workflowBranch, 'before-last-phase');
  return { workflowType: String(workflow.type ?? ''), workflowBranch, phase, lastPhase, closed };
}
