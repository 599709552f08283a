// `isdlc phase activate` (STEP 3c-prime of the /isdlc command): the phase the workflow has reached
// becomes the current one in every tracker, in one write, before any delegation to its agent. Running it
// again for the same phase is a retry: the first start time is kept and the retry is counted.
import { normalizePhaseKey } from '../config/phase-keys.js';
import type { ProjectConfig } from '../config/project-config.js';
import type { IsdlcState } from '../state/schema.js';
import { addHistory, cursorOf, pointAt, setPhaseStatus, timingOf } from './cursor.js';
import { reviewBlocking } from './review.js';
import { WorkflowError } from './start.js';

export interface ActivateResult {
  phase: string;
  index: number;
  total: number;
  agent: string | null;
  retry: boolean;
  retries: number;
  startedAt: string;
  pendingEscalations: number;
}

export function activatePhase(draft: IsdlcState, config: ProjectConfig, input: { phase?: string; now: Date }): ActivateResult {
  const { workflow, phases, index, atIndex } = cursorOf(draft);
  if (atIndex === null) {
    throw new WorkflowError(`every phase of the ${String(workflow.type ?? '')} workflow is completed: run \`isdlc workflow finalize\``);
  }
  const wanted = input.phase ? normalizePhaseKey(input.phase) : atIndex;
  if (wanted !== atIndex) {
    const where = phases.includes(wanted)
      ? `${wanted} is phase ${phases.indexOf(wanted) + 1} of ${phases.length}`
      : `${wanted} is not a phase of this workflow (${phases.join(' → ')})`;
    throw new WorkflowError(
      `the workflow has reached ${atIndex} (phase ${index + 1} of ${phases.length}) and phases run in order; ${where}. ` +
        `Run \`isdlc phase activate\` for ${atIndex}` +
        (phases.indexOf(wanted) < index && phases.includes(wanted) ? ', or ask for a redo at a supervised review' : ''),
    );
  }
  const waiting = reviewBlocking(workflow);
  if (waiting) throw new WorkflowError(waiting);

  const now = input.now.toISOString();
  const record = setPhaseStatus(draft, workflow, wanted, 'in_progress');
  record.started ??= now;
  const timing = timingOf(record);
  const retry = typeof timing['started_at'] === 'string';
  if (retry) timing['retries'] = (typeof timing['retries'] === 'number' ? timing['retries'] : 0) + 1;
  else Object.assign(timing, { started_at: now, retries: 0 });
  pointAt(draft, workflow, config, wanted, index);
  addHistory(draft, input.now, `${retry ? 'Re-activated' : 'Activated'} phase ${wanted}`);
  return {
    phase: wanted,
    index,
    total: phases.length,
    agent: draft.active_agent ?? null,
    retry,
    retries: timing['retries'] as number,
    startedAt: timing['started_at'] as string,
    pendingEscalations: Array.isArray(draft.pending_escalations) ? draft.pending_escalations.length : 0,
  };
}
