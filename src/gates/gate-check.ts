// One requirement of a phase gate as evaluated: met or not, what was seen, and what to do.

export type GateRequirement =
  | 'test_iteration'
  | 'constitutional_validation'
  | 'interactive_elicitation'
  | 'agent_delegation'
  | 'artifact_presence'
  | 'verified_test_run'
  /** The share of mutants on the workflow's changed lines the tests catch (verify/mutation-evidence.ts). */
  | 'mutation_score'
  | 'branch_integrity'
  | 'tamper_review'
  | 'test_definition'
  /** The installed packages are the ones the lockfile names (checked before the gate runs the tests). */
  | 'dependencies_verified'
  /** Present only while the phase's agent is still running: a phase does not complete under it. */
  | 'phase_agent_finished'
  /** Present only when the person switched iteration enforcement off: says so, always met. */
  | 'iteration_enforcement';

export interface GateCheck {
  requirement: GateRequirement;
  met: boolean;
  /** What was seen. */
  detail: string;
  /** What to do, for an unmet check: said to the agent. */
  action?: string;
  /** What to do where it differs for a person at their own terminal (a test run there is not observed). */
  personAction?: string;
  /** Met so far, and decided at completion: the gate's own test run. */
  atCompletion?: boolean;
}

/** Who reads a gate's account: the agent (hook answers, MCP replies) or a person at their terminal. */
export type GateReader = 'agent' | 'person';
