// The one way to ask which phase is current: `active_workflow.current_phase` first, the top-level
// `current_phase` only as a fallback, legacy keys normalised.
import { normalizePhaseKey } from '../config/phase-keys.js';
import type { ActiveWorkflow, IsdlcState } from './schema.js';

export function activeWorkflowOf(state: IsdlcState | null | undefined): ActiveWorkflow | null {
  const workflow = state?.active_workflow;
  return workflow && typeof workflow === 'object' && !Array.isArray(workflow) ? workflow : null;
}

export function currentPhaseOf(state: IsdlcState | null | undefined): string | null {
  const fromWorkflow = activeWorkflowOf(state)?.current_phase;
  const phase = typeof fromWorkflow === 'string' && fromWorkflow ? fromWorkflow : state?.current_phase;
  return typeof phase === 'string' && phase ? normalizePhaseKey(phase) : null;
}

/** The active workflow's phases, legacy keys normalised. */
export function workflowPhasesOf(state: IsdlcState | null | undefined): string[] {
  const phases = activeWorkflowOf(state)?.phases;
  return Array.isArray(phases) ? phases.filter((p): p is string => typeof p === 'string').map((p) => normalizePhaseKey(p)) : [];
}
