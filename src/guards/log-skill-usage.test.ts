import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentResult } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';

guardTable('log-skill-usage', {
  valid: [
    {
      name: 'logs a delegation to the phase agent as executed in its own phase',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'software-developer', description: 'Implement CSV export' }, 'Done: 3 files changed.'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({ agent: 'software-developer', agent_phase: '06-implementation', current_phase: '06-implementation', status: 'executed', reason: 'authorized-phase-match', outcome: 'completed', description: 'Implement CSV export' }),
        ]),
    },
    {
      name: 'logs a cross-phase delegation as such',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'qa-engineer' }, 'Reviewed.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ agent: 'qa-engineer', agent_phase: '08-code-review', status: 'observed', reason: 'cross-phase-usage' }),
    },
    {
      name: 'logs an ordinary subagent without a phase',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'general-purpose' }, 'Found it.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ agent: 'general-purpose', status: 'executed', reason: 'allowed' }),
    },
    {
      name: 'logs without a workflow too: the orchestrator that starts one is what delegation-gate looks for',
      state: { state_version: 1, active_workflow: null, skill_usage_log: [] },
      payload: agentResult(P, { subagent_type: 'sdlc-orchestrator' }, 'Workflow initialised.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([expect.objectContaining({ agent: 'sdlc-orchestrator', agent_phase: 'all', status: 'executed', reason: 'authorized-orchestrator' })]),
    },
    {
      name: 'no state file: nothing is logged (and none is created)',
      payload: agentResult(P, { subagent_type: 'sdlc-orchestrator' }, 'Workflow initialised.'),
      expect: 'allow',
      then: ({ state }) => expect(state).toEqual({}),
    },
  ],
  invalid: [],
});
