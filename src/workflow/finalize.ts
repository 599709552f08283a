// `isdlc workflow finalize` and `isdlc workflow cancel`: the workflow goes to `workflow_history` with
// its phase snapshots and metrics, nothing is active any more, and state is pruned. Finalize needs every
// phase completed; cancel archives whatever was reached, with the reason.
import { phaseStatusOf } from '../state/phase-records.js';
import type { IsdlcState } from '../state/schema.js';
import { addHistory, cursorOf } from './cursor.js';
import { pruneAfterWorkflow } from './prune.js';
import { reviewBlocking } from './review.js';
import { collectPhaseSnapshots, workflowMetrics, type PhaseSnapshot, type WorkflowMetrics } from './snapshots.js';
import { WorkflowError } from './start.js';
import { openEscalations } from './escalation.js';
import { carryCountFloor } from '../verify/gate-evidence.js';
import { carryUnacceptedDefinition } from '../verify/test-definition.js';

export interface ArchivedWorkflow {
  type: string;
  description: string;
  status: 'completed' | 'cancelled';
  artifact_folder: string | null;
  phases: string[];
  phase_snapshots: PhaseSnapshot[];
  metrics: WorkflowMetrics;
  started_at: string | null;
  completed_at: string;
  cancellation_reason?: string;
  git_branch?: unknown;
  [key: string]: unknown;
}

/** The project a workflow ends in: what the next workflow must inherit is judged against it. */
export interface EndingIn {
  root: string;
  /** The commands that run the project's tests (what an observed run must have run to set the count floor). */
  suite: readonly string[];
}

function archive(draft: IsdlcState, status: ArchivedWorkflow['status'], now: Date, project: EndingIn, reason?: string): ArchivedWorkflow {
  const { workflow, phases } = cursorOf(draft);
  const snapshots = collectPhaseSnapshots(draft, phases);
  const entry: ArchivedWorkflow = {
    type: String(workflow.type ?? ''),
    description: String(workflow.description ?? ''),
    status,
    artifact_folder: typeof workflow.artifact_folder === 'string' ? workflow.artifact_folder : null,
    phases,
    phase_snapshots: snapshots,
    metrics: workflowMetrics(snapshots, workflow.started_at, now),
    started_at: typeof workflow.started_at === 'string' ? workflow.started_at : null,
    completed_at: now.toISOString(),
    ...(reason ? { cancellation_reason: reason } : {}),
    ...(workflow.git_branch ? { git_branch: workflow.git_branch } : {}),
  };
  (draft.workflow_history ??= []).push(entry);
  // The project's tests do not go away with the workflow: the next one is judged against the same floor.
  const ending = `the ${entry.type} workflow ${status} at ${entry.completed_at}`;
  carryCountFloor(draft, project.suite, ending);
  carryUnacceptedDefinition(draft, project.root, ending);
  draft.active_workflow = null;
  draft.current_phase = null;
  draft.active_agent = null;
  draft.pending_escalations = [];
  addHistory(draft, now, `${status === 'completed' ? 'Finalized' : 'Cancelled'} ${entry.type} workflow${reason ? `: ${reason}` : ''}`);
  pruneAfterWorkflow(draft, now);
  return entry;
}

export function finalizeWorkflow(draft: IsdlcState, input: { now: Date; project: EndingIn }): ArchivedWorkflow {
  const { workflow, phases } = cursorOf(draft);
  const unfinished = phases.filter((phase) => phaseStatusOf(draft, phase) !== 'completed');
  if (unfinished.length > 0) {
    throw new WorkflowError(
      `the workflow cannot be finalized while phases are not completed: ${unfinished.join(', ')}. ` +
        'Complete them (`isdlc phase activate`, the work, `isdlc phase complete`), or end the workflow with `isdlc workflow cancel --reason ...`',
    );
  }
  const waiting = reviewBlocking(workflow);
  if (waiting) throw new WorkflowError(waiting);
  return archive(draft, 'completed', input.now, input.project);
}

export function cancelWorkflow(draft: IsdlcState, input: { reason: string; now: Date; byPerson: boolean; project: EndingIn }): ArchivedWorkflow {
  if (!input.reason.trim()) throw new WorkflowError('say why the workflow is cancelled: --reason "..."');
  // A new workflow starts without them: cancelling would be the agent's way past what only a person may decide.
  const open = openEscalations(draft);
  if (open.length > 0 && !input.byPerson) {
    throw new WorkflowError(
      `the workflow has escalations waiting for a person (${open.join(', ')}), so cancelling it is a person's decision: ` +
        'the user runs `isdlc workflow cancel --reason ...` in their own terminal, or approves them (`isdlc escalation approve --phase P`)',
    );
  }
  return archive(draft, 'cancelled', input.now, input.project, input.reason.trim());
}
