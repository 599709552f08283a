// One requirement of a phase gate as evaluated: met or not, what was seen, and what to do.

export type GateRequirement =
  | 'test_iteration'
  | 'constitutional_validation'
  | 'interactive_elicitation'
  | 'agent_delegation'
  | 'artifact_presence'
  | 'verified_test_run'
  | 'branch_integrity'
  | 'tamper_review'
  | 'test_definition'
  /** Present only when the person switched iteration enforcement off: says so, always met. */
  | 'iteration_enforcement';

export interface GateCheck {
  requirement: GateRequirement;
  met: boolean;
  /** What was seen. */
  detail: string;
  /** What to do, for an unmet check. */
  action?: string;
}
