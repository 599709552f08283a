// The shape of `.isdlc/state.json`, field names as the JavaScript iSDLC framework wrote them so that an
// existing project's state reads unchanged. Every field is optional on read; unknown fields are kept.

export type PhaseStatus = 'pending' | 'in_progress' | 'completed' | (string & {});

export interface TestIterationState {
  required?: boolean;
  completed?: boolean;
  status?: string;
  current_iteration?: number;
  max_iterations?: number;
  last_test_result?: 'passed' | 'failed' | 'inconclusive' | (string & {});
  last_test_command?: string;
  failures_count?: number;
  escalation_reason?: string;
  escalation_approved?: boolean;
  history?: unknown[];
  [key: string]: unknown;
}

export interface ConstitutionalValidationState {
  required?: boolean;
  completed?: boolean;
  status?: string;
  iterations_used?: number;
  max_iterations?: number;
  articles_required?: string[];
  articles_checked?: string[];
  violations_found?: unknown[];
  escalation_approved?: boolean;
  started_at?: string;
  [key: string]: unknown;
}

export interface PhaseState {
  status?: PhaseStatus;
  started?: string | null;
  completed?: string | null;
  gate_passed?: string | null;
  summary?: string;
  artifacts?: unknown[];
  iteration_requirements?: {
    test_iteration?: TestIterationState;
    interactive_elicitation?: Record<string, unknown>;
    [key: string]: unknown;
  };
  constitutional_validation?: ConstitutionalValidationState;
  gate_validation?: Record<string, unknown>;
  timing?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ActiveWorkflow {
  type?: string;
  description?: string;
  phases?: string[];
  current_phase?: string;
  current_phase_index?: number;
  phase_status?: Record<string, PhaseStatus>;
  artifact_folder?: string;
  started_at?: string;
  atdd_mode?: boolean;
  git_branch?: { name?: string; status?: string; created_at?: string; [key: string]: unknown } | null;
  [key: string]: unknown;
}

export interface SkillUsageEntry {
  timestamp?: string;
  agent?: string;
  agent_phase?: string;
  current_phase?: string;
  /** isdlc's addition: the subagent's id, as its SubagentStop names it. */
  agent_id?: string;
  /**
   * `launched` (a background subagent still running), `running` (a subagent seen making a tool call before
   * its launch was logged: a synchronous run, or a background one faster than its launch's hook) or
   * `completed`. The JavaScript framework's entries have none: they are judged as completed.
   */
  outcome?: string;
  /** When its end was seen: its SubagentStop, the synchronous Agent result, or the host's task notification. */
  completed_at?: string;
  /** isdlc's addition: when isdlc's hook saw the run's first tool call (only the first is recorded). */
  first_tool_at?: string;
  /** isdlc's addition: how many tool calls the host itself counted for the run, when it says (at its end). */
  tool_calls?: number;
  /**
   * isdlc's addition: what the run did, by the phase the workflow was in when it did it: `change` (a file
   * written or edited with the host's tools, seen in the tool's result) and `test` (a test run).
   */
  work_in?: Record<string, string[]>;
  /** isdlc's addition: the run was seen working before its launch was logged; the launch fills in the rest. */
  launch_pending?: boolean;
  [key: string]: unknown;
}

export interface IsdlcState {
  state_version?: number;
  framework_version?: string;
  project?: Record<string, unknown>;
  active_workflow?: ActiveWorkflow | null;
  current_phase?: string | null;
  active_agent?: string | null;
  phases?: Record<string, PhaseState>;
  iteration_enforcement?: { enabled?: boolean; [key: string]: unknown };
  skill_enforcement?: Record<string, unknown>;
  constitution?: Record<string, unknown>;
  skill_usage_log?: SkillUsageEntry[];
  pending_escalations?: unknown[];
  pending_delegation?: unknown;
  workflow_history?: unknown[];
  history?: unknown[];
  blockers?: unknown[];
  counters?: Record<string, number>;
  [key: string]: unknown;
}
