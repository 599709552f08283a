import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { activityLog } from '../../test/helpers/project.js';
import { agentCall } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const lastDetail = (project: string) => JSON.stringify(activityLog(project).at(-1));

guardTable('skill-validator', {
  valid: [
    {
      name: 'an agent of another phase is logged as cross-phase, never blocked',
      state: workflowState('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'software-developer' }),
      expect: 'allow',
      then: ({ project }) => expect(lastDetail(project)).toMatch(/"outcome":"cross-phase".*"agent":"software-developer"/),
    },
    {
      name: 'the phase agent passes silently',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'software-developer' }),
      expect: 'allow',
      then: ({ project }) => expect(lastDetail(project)).not.toContain('cross-phase'),
    },
    {
      name: 'the orchestrator (phase all)',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator' }),
      expect: 'allow',
      then: ({ project }) => expect(lastDetail(project)).not.toContain('cross-phase'),
    },
    {
      name: 'an agent the manifest does not know',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'Explore' }),
      expect: 'allow',
      then: ({ project }) => expect(lastDetail(project)).not.toContain('cross-phase'),
    },
    {
      name: 'skill enforcement switched off',
      state: { ...workflowState('feature', '01-requirements'), skill_enforcement: { enabled: false } },
      payload: agentCall(P, { subagent_type: 'software-developer' }),
      expect: 'allow',
      then: ({ project }) => expect(lastDetail(project)).not.toContain('cross-phase'),
    },
  ],
  invalid: [],
});
