import { expect } from 'vitest';
import bundledRequirements from '../config/defaults/iteration-requirements.json';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentCall, agentResult } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const PROMPT = 'Gather the requirements for the CSV export.';
const analyst = agentCall(P, { subagent_type: 'requirements-analyst', prompt: PROMPT });
const rewritten = ({ decision }: { decision: { raw?: Record<string, any> } }): Record<string, any> | undefined =>
  decision.raw?.['hookSpecificOutput']?.['updatedInput'];
const untouched = (result: { decision: { raw?: Record<string, any> } }) => expect(rewritten(result)).toBeUndefined();

guardTable('gate-requirements-injector', {
  valid: [
    {
      name: 'a phase delegation without the block gets it appended, the prompt otherwise as written',
      state: workflowState('feature', '01-requirements'),
      payload: analyst,
      expect: 'allow',
      contextIncludes: ['GATE REQUIREMENTS of 01-requirements were appended'],
      then: (result) => {
        const input = rewritten(result) ?? {};
        expect((result.decision.raw?.['hookSpecificOutput'] as Record<string, unknown>)['permissionDecision']).toBe('allow');
        const prompt = String(input['prompt']);
        expect(prompt.startsWith(`${PROMPT}\n\nGATE REQUIREMENTS (Phase: 01-requirements):\n`)).toBe(true);
        expect(prompt.match(/GATE REQUIREMENTS/g)).toHaveLength(1);
        expect(input).toMatchObject({ subagent_type: 'requirements-analyst', description: 'Phase work' });
      },
    },
    {
      name: 'a prompt that carries the block already is left alone (no second copy)',
      state: workflowState('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'requirements-analyst', prompt: `${PROMPT}\n\nGATE REQUIREMENTS (Phase: 01-requirements):\n  ...` }),
      expect: 'allow',
      then: untouched,
    },
    {
      name: 'an ordinary subagent',
      state: workflowState('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'Explore', prompt: 'Find the orders list.' }),
      expect: 'allow',
      then: untouched,
    },
    {
      name: 'a phase that is not in progress',
      state: (() => {
        const s = workflowState('feature', '01-requirements');
        s['phases']['01-requirements'].status = 'completed';
        s['active_workflow'].phase_status['01-requirements'] = 'completed';
        return s;
      })(),
      payload: analyst,
      expect: 'allow',
      then: untouched,
    },
    { name: 'no active workflow', state: { state_version: 1, active_workflow: null }, payload: analyst, expect: 'allow', then: untouched },
    {
      name: 'turned off in config',
      state: workflowState('feature', '01-requirements'),
      files: { '.isdlc/config/iteration-requirements.json': { ...bundledRequirements, gate_requirements_injection: { delegation_prompt: false } } },
      payload: analyst,
      expect: 'allow',
      then: untouched,
    },
    {
      name: 'after the tool (PostToolUse) nothing is rewritten',
      state: workflowState('feature', '01-requirements'),
      payload: agentResult(P, { subagent_type: 'requirements-analyst', prompt: PROMPT }, 'Done.'),
      expect: 'allow',
      then: untouched,
    },
  ],
  invalid: [],
});
