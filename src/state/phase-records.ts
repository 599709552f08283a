// Reading and creating a phase's records in state: `phases[p]` and the requirement records under it, by
// the JavaScript framework's field names.
import { PHASE_KEY_ALIASES } from '../config/phase-keys.js';
import { activeWorkflowOf } from './current-phase.js';
import type { ConstitutionalValidationState, IsdlcState, PhaseState, PhaseStatus, TestIterationState } from './schema.js';

export type ElicitationState = {
  required?: boolean;
  started_at?: string;
  menu_presentations?: number;
  menu_interactions?: number;
  awaiting_selection?: boolean;
  last_menu_at?: string;
  /** `timestamp` as the JavaScript framework wrote it (isdlc wrote `at` before). */
  selections?: { selection: string; timestamp?: string; at?: string }[];
  last_selection?: string;
  last_selection_at?: string;
  /** The framework's step names (`project_discovery`, `user_personas`, ...). */
  steps_completed?: string[];
  last_step_completed?: { step: number; name: string };
  last_step_at?: string;
  completed?: boolean;
  final_selection?: string;
  completed_at?: string;
  [key: string]: unknown;
};

/** The keys a phase may be stored under: its own, then the legacy keys that mean it. */
function keysOf(phase: string): string[] {
  return [
    phase,
    ...Object.entries(PHASE_KEY_ALIASES)
      .filter(([, canonical]) => canonical === phase)
      .map(([legacy]) => legacy),
  ];
}

export function phaseOf(state: IsdlcState | null | undefined, phase: string): PhaseState | undefined {
  for (const key of keysOf(phase)) {
    const record = state?.phases?.[key];
    if (record && typeof record === 'object') return record;
  }
  return undefined;
}

/** A phase's status: its own record first, then the workflow's map, legacy keys included. */
export function phaseStatusOf(state: IsdlcState | null | undefined, phase: string): PhaseStatus | undefined {
  const statuses = activeWorkflowOf(state)?.phase_status ?? {};
  return (
    phaseOf(state, phase)?.status ??
    keysOf(phase)
      .map((key) => statuses[key])
      .find((status) => status !== undefined)
  );
}

export function testIterationOf(state: IsdlcState | null | undefined, phase: string): TestIterationState | undefined {
  return phaseOf(state, phase)?.iteration_requirements?.test_iteration;
}

export function constitutionalOf(state: IsdlcState | null | undefined, phase: string): ConstitutionalValidationState | undefined {
  return phaseOf(state, phase)?.constitutional_validation;
}

export function elicitationOf(state: IsdlcState | null | undefined, phase: string): ElicitationState | undefined {
  return phaseOf(state, phase)?.iteration_requirements?.interactive_elicitation;
}

/** `phases[phase]` in a draft, created when missing. */
export function phaseDraft(draft: IsdlcState, phase: string): PhaseState {
  const phases = (draft.phases ??= {});
  // A record under a legacy key moves to the current key the first time isdlc writes to it.
  const legacy = keysOf(phase)
    .slice(1)
    .find((key) => phases[key] && typeof phases[key] === 'object');
  if (!phases[phase] && legacy) {
    phases[phase] = phases[legacy]!;
    delete phases[legacy];
  }
  return (phases[phase] ??= { status: 'pending', started: null, completed: null, gate_passed: null, artifacts: [] });
}

export function testIterationDraft(draft: IsdlcState, phase: string): TestIterationState {
  const requirements = (phaseDraft(draft, phase).iteration_requirements ??= {});
  return (requirements.test_iteration ??= {});
}

export function elicitationDraft(draft: IsdlcState, phase: string): ElicitationState {
  const requirements = (phaseDraft(draft, phase).iteration_requirements ??= {});
  return (requirements.interactive_elicitation ??= {});
}

export function constitutionalDraft(draft: IsdlcState, phase: string): ConstitutionalValidationState {
  return (phaseDraft(draft, phase).constitutional_validation ??= {});
}

/** Constitutional tracking as it starts, unless it has started already. */
export function ensureConstitutionalTracking(
  draft: IsdlcState,
  phase: string,
  input: { articles: string[]; maxIterations: number; now: string },
): ConstitutionalValidationState {
  const record = constitutionalDraft(draft, phase);
  if (record.started_at) return record;
  Object.assign(record, {
    required: true,
    completed: false,
    status: 'pending',
    iterations_used: 0,
    max_iterations: input.maxIterations,
    articles_required: input.articles,
    articles_checked: [],
    violations_found: [],
    started_at: input.now,
  });
  return record;
}
