import { guardTable } from '../../test/helpers/guard-table.js';
import { agentCall } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

type State = Record<string, any>;
const P = '/project';

/** After `isdlc phase complete` of `phase`: completed everywhere, index moved on, nothing activated yet. */
function completedAndWaiting(type: string, phase: string, extra: State = {}): State {
  const state = workflowState(type, phase);
  state['active_workflow'].phase_status[phase] = 'completed';
  state['phases'][phase].status = 'completed';
  state['active_workflow'].current_phase_index += 1;
  Object.assign(state['active_workflow'], extra);
  return state;
}

/** Right after `workflow start` in a state written by an older tool: the first phase still pending. */
function neverActivated(): State {
  const state = workflowState('fix', '01-requirements');
  state['active_workflow'].phase_status['01-requirements'] = 'pending';
  state['phases']['01-requirements'].status = 'pending';
  return state;
}

guardTable('phase-loop-controller', {
  valid: [
    {
      name: 'the agent of the phase in progress (T03)',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'software-developer' }),
      expect: 'allow',
    },
    {
      name: 'tracing sub-agents T1-T3 of 02-tracing (BUG-0013)',
      state: workflowState('fix', '02-tracing'),
      payload: agentCall(P, { subagent_type: 'execution-path-tracer' }),
      expect: 'allow',
    },
    {
      name: 'an ordinary subagent (T04)',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'general-purpose', prompt: 'List the files under src/export.' }),
      expect: 'allow',
    },
    {
      name: 'no active workflow (T05)',
      state: { state_version: 1, active_workflow: null },
      payload: agentCall(P, { subagent_type: 'software-developer' }),
      expect: 'allow',
    },
    { name: 'no state file (T06)', payload: agentCall(P, { subagent_type: 'software-developer' }), expect: 'allow' },
    {
      name: 'malformed state (T07)',
      files: { '.isdlc/state.json': '{"active_workflow": ' },
      payload: agentCall(P, { subagent_type: 'software-developer' }),
      expect: 'allow',
    },
    {
      name: 'a setup command (T09)',
      state: neverActivated(),
      payload: agentCall(P, { subagent_type: 'discover-orchestrator', prompt: '/isdlc discover' }),
      expect: 'allow',
    },
    {
      name: 'the orchestrator itself',
      state: completedAndWaiting('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'Run the next phase' }),
      expect: 'allow',
    },
    {
      name: 'a phase further ahead is left to phase-sequence-guard',
      state: completedAndWaiting('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'software-developer' }),
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: 'the first phase before it was activated (T01)',
      state: neverActivated(),
      payload: agentCall(P, { subagent_type: 'requirements-analyst' }),
      expect: 'deny',
      reasonIncludes: [
        'isdlc phase-loop-controller: Call `mcp__isdlc__phase_activate` first, then delegate again.',
        '01-requirements',
        'has not been activated',
        'denied',
      ],
    },
    {
      name: 'a workflow whose phase records are missing (T02)',
      state: {
        ...workflowState('feature', '01-requirements'),
        phases: {},
        active_workflow: { ...workflowState('feature', '01-requirements')['active_workflow'], phase_status: {} },
      },
      payload: agentCall(P, { subagent_type: 'requirements-analyst' }),
      expect: 'deny',
      reasonIncludes: ['its status is missing'],
    },
    {
      name: 'the next phase after the previous completed, before activation (BUG-0006)',
      state: completedAndWaiting('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'impact-analysis-orchestrator' }),
      expect: 'deny',
      reasonIncludes: ['02-impact-analysis', 'mcp__isdlc__phase_activate'],
    },
    {
      name: 'agent names written differently (T10)',
      state: completedAndWaiting('feature', '05-test-strategy'),
      payload: agentCall(P, { subagent_type: 'isdlc:Software_Developer' }),
      expect: 'deny',
      reasonIncludes: ['06-implementation'],
    },
    {
      name: 'the agent of a phase that has already completed',
      state: completedAndWaiting('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'requirements-analyst' }),
      expect: 'deny',
      reasonIncludes: [
        'isdlc phase-loop-controller: Call `mcp__isdlc__phase_activate` to start 02-impact-analysis, the phase the workflow has reached',
        '01-requirements, which is completed',
      ],
    },
    {
      name: 'a supervised workflow waiting for its review',
      state: completedAndWaiting('feature', '01-requirements', {
        supervised: true,
        supervised_review: { phase: '01-requirements', status: 'awaiting', requested_at: '2026-11-25T10:30:00.000Z' },
      }),
      payload: agentCall(P, { subagent_type: 'impact-analysis-orchestrator' }),
      expect: 'deny',
      reasonIncludes: ["isdlc phase-loop-controller: Wait for the person's review first", "waiting for a person's review", 'isdlc phase review continue'],
    },
    {
      name: 'after the last phase completed',
      state: completedAndWaiting('fix', '08-code-review'),
      payload: agentCall(P, { subagent_type: 'qa-engineer' }),
      expect: 'deny',
      reasonIncludes: ['isdlc phase-loop-controller: Call `mcp__isdlc__workflow_finalize`: every phase is completed.'],
    },
  ],
});
