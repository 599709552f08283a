// The state a freshly set-up project starts with: the JavaScript iSDLC field names, no workflow, and no
// phases until a workflow starts (phase entries are made for the workflow's own phases then).
import type { IsdlcState } from './schema.js';

export function initialState(input: { projectName: string; now: string; version: string }): IsdlcState {
  return {
    framework_version: input.version,
    project: { name: input.projectName, created: input.now, description: '' },
    constitution: { enforced: true, path: 'docs/isdlc/constitution.md', validated_at: null },
    autonomous_iteration: { enabled: true, max_iterations: 10, circuit_breaker_threshold: 3 },
    iteration_enforcement: { enabled: true },
    skill_enforcement: { enabled: true, mode: 'observe', fail_behavior: 'allow' },
    cloud_configuration: { provider: 'undecided', configured_at: null },
    code_review: { enabled: false, team_size: 1 },
    counters: { next_req_id: 1, next_bug_id: 1 },
    active_workflow: null,
    current_phase: null,
    active_agent: null,
    phases: {},
    skill_usage_log: [],
    pending_escalations: [],
    blockers: [],
    workflow_history: [],
    history: [{ timestamp: input.now, agent: 'isdlc', action: 'Project set up with isdlc init' }],
  };
}
