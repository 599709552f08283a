import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentResult } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';

guardTable('log-skill-usage', {
  valid: [
    {
      name: 'logs a delegation to the phase agent as authorised',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'software-developer', description: 'Implement CSV export' }, 'Done: 3 files changed.'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({ agent: 'software-developer', agent_phase: '06-implementation', current_phase: '06-implementation', status: 'authorised', outcome: 'completed', description: 'Implement CSV export' }),
        ]),
    },
    {
      name: 'logs a cross-phase delegation as such',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'qa-engineer' }, 'Reviewed.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ agent: 'qa-engineer', agent_phase: '08-code-review', status: 'cross-phase' }),
    },
    {
      name: 'logs an ordinary subagent without a phase',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'general-purpose' }, 'Found it.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ agent: 'general-purpose', status: 'authorised' }),
    },
    {
      name: 'logs nothing without an active workflow',
      state: { state_version: 1, active_workflow: null, skill_usage_log: [] },
      payload: agentResult(P, { subagent_type: 'software-developer' }, 'Done.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([]),
    },
  ],
  invalid: [],
});
