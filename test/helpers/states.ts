// State files for tests, built the way `isdlc workflow start` builds them (phases from the bundled
// workflows.json), then moved to the phase and situation a test needs.
import workflows from '../../src/config/defaults/workflows.json';

type State = Record<string, any>;

export function workflowState(type: string, phase: string, options: { atdd?: boolean; artifactFolder?: string } = {}): State {
  const phases = (workflows.workflows as Record<string, { phases: string[] }>)[type]!.phases;
  const index = phases.indexOf(phase);
  if (index < 0) throw new Error(`${phase} is not a phase of ${type}`);
  const now = '2026-11-25T10:00:00.000Z';
  return {
    state_version: 7,
    framework_version: '0.1.0',
    current_phase: phase,
    active_agent: null,
    active_workflow: {
      type,
      description: 'test workflow',
      phases,
      current_phase: phase,
      current_phase_index: index,
      phase_status: Object.fromEntries(phases.map((p, i) => [p, i < index ? 'completed' : i === index ? 'in_progress' : 'pending'])),
      artifact_folder: options.artifactFolder ?? 'REQ-0001-test',
      started_at: now,
      atdd_mode: options.atdd === true,
      git_branch: null,
    },
    phases: Object.fromEntries(
      phases.map((p, i) => [
        p,
        {
          status: i < index ? 'completed' : i === index ? 'in_progress' : 'pending',
          started: i <= index ? now : null,
          completed: null,
          gate_passed: null,
          artifacts: [],
        },
      ]),
    ),
    skill_usage_log: [],
    pending_escalations: [],
    cloud_configuration: { provider: 'undecided' },
    history: [],
  };
}

/** The record a phase's tests leave after `n` runs ending in `last`. */
export function testRecord(last: 'passed' | 'failed', iteration: number, extra: State = {}): State {
  return {
    required: true,
    completed: last === 'passed',
    status: last === 'passed' ? 'success' : 'in_progress',
    current_iteration: iteration,
    max_iterations: 10,
    last_test_result: last,
    last_test_command: 'npm test',
    failures_count: last === 'failed' ? iteration : iteration - 1,
    last_error: last === 'failed' ? 'expected 3 to be 4' : null,
    history: [],
    ...extra,
  };
}

export function withTests(state: State, phase: string, record: State): State {
  state['phases'][phase].iteration_requirements = { ...(state['phases'][phase].iteration_requirements ?? {}), test_iteration: record };
  return state;
}

export function withConstitution(state: State, phase: string, record: State): State {
  state['phases'][phase].constitutional_validation = record;
  return state;
}

/** Who checked the articles in `compliant`: isdlc's reviewer agent, not the phase's worker, through the MCP tool (an independent review, as long as no file changed in the phase that it did not read). */
export const REVIEWER_CALL = { session: 's-review', agent_id: 'a0reviewer', agent_type: 'constitution-reviewer' };

export function compliant(articles: string[]): State {
  const check = { result: 'compliant', at: '2026-11-25T10:10:00.000Z', iteration: 1, recorded_with: 'mcp_tool', by: REVIEWER_CALL };
  return {
    required: true,
    completed: true,
    status: 'compliant',
    iterations_used: 1,
    max_iterations: 5,
    articles_required: articles,
    articles_checked: articles,
    article_results: Object.fromEntries(articles.map((id) => [id, check])),
    violations_found: [],
    started_at: '2026-11-25T10:00:00.000Z',
  };
}

/** A run of `agent` in `phase` as the hooks log it: launched, its first tool call seen, a file it changed, then ended. */
export function delegated(state: State, agent: string, phase: string): State {
  state['skill_usage_log'].push({
    timestamp: '2026-11-25T10:05:00.000Z',
    agent,
    agent_phase: phase,
    current_phase: phase,
    status: 'executed',
    reason: 'authorized-phase-match',
    outcome: 'completed',
    agent_id: `a${phase.replace(/\W/g, '')}${agent.length}`,
    first_tool_at: '2026-11-25T10:05:03.000Z',
    work_in: { [phase]: ['change'] },
    completed_at: '2026-11-25T10:09:00.000Z',
  });
  return state;
}
