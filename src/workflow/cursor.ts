// Where the active workflow stands, for the transition commands: its phases (keys normalised), the index
// of the phase that runs next or now, and the trackers that must agree.
import { normalizePhaseKey } from '../config/phase-keys.js';
import type { ProjectConfig } from '../config/project-config.js';
import { phaseAgent } from '../config/agents.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import { phaseDraft, phaseOf } from '../state/phase-records.js';
import type { ActiveWorkflow, IsdlcState, PhaseState, PhaseStatus } from '../state/schema.js';
import { WorkflowError } from './start.js';

export interface Cursor {
  workflow: ActiveWorkflow;
  phases: string[];
  /** `current_phase_index`, clamped to 0..phases.length (length means every phase is done). */
  index: number;
  /** The phase at `index`, or null when every phase is done. */
  atIndex: string | null;
}

/** Rewrites legacy phase keys in the trackers as the current ones, so a command leaves one spelling. */
function settleLegacyKeys(draft: IsdlcState, workflow: ActiveWorkflow, phases: string[]): void {
  workflow.phases = phases;
  if (typeof workflow.current_phase === 'string') workflow.current_phase = normalizePhaseKey(workflow.current_phase);
  if (typeof draft.current_phase === 'string') draft.current_phase = normalizePhaseKey(draft.current_phase);
  if (workflow.phase_status) {
    workflow.phase_status = Object.fromEntries(Object.entries(workflow.phase_status).map(([key, status]) => [normalizePhaseKey(key), status]));
  }
  for (const phase of phases) {
    if (!draft.phases?.[phase] && phaseOf(draft, phase)) phaseDraft(draft, phase); // moves the record kept under a legacy key
  }
}

export function cursorOf(draft: IsdlcState): Cursor {
  const workflow = activeWorkflowOf(draft);
  if (!workflow) throw new WorkflowError('no active workflow: start one with `isdlc workflow start <type>`');
  const phases = (Array.isArray(workflow.phases) ? workflow.phases : []).filter((p): p is string => typeof p === 'string').map((p) => normalizePhaseKey(p));
  settleLegacyKeys(draft, workflow, phases);
  if (phases.length === 0) throw new WorkflowError('the active workflow lists no phases; cancel it with `isdlc workflow cancel --reason ...`');
  const raw = typeof workflow.current_phase_index === 'number' && Number.isInteger(workflow.current_phase_index) ? workflow.current_phase_index : 0;
  const index = Math.min(Math.max(raw, 0), phases.length);
  return { workflow, phases, index, atIndex: phases[index] ?? null };
}

/** Sets a phase's status in both trackers at once. */
export function setPhaseStatus(draft: IsdlcState, workflow: ActiveWorkflow, phase: string, status: PhaseStatus): PhaseState {
  const record = phaseDraft(draft, phase);
  record.status = status;
  workflow.phase_status = { ...(workflow.phase_status ?? {}), [phase]: status };
  return record;
}

/** Makes `phase` the current one everywhere it is tracked: the workflow, the top level, the agent (one map). */
export function pointAt(draft: IsdlcState, workflow: ActiveWorkflow, config: ProjectConfig, phase: string, index: number): void {
  workflow.current_phase = phase;
  workflow.current_phase_index = index;
  draft.current_phase = phase;
  draft.active_agent = phaseAgent(config.manifest, phase) ?? null;
}

export function timingOf(record: PhaseState): Record<string, unknown> {
  return (record.timing ??= {});
}

export function addHistory(draft: IsdlcState, now: Date, action: string): void {
  (draft.history ??= []).push({ timestamp: now.toISOString(), agent: 'isdlc', action });
}
