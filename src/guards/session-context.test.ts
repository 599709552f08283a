import { expect } from 'vitest';
import bundledRequirements from '../config/defaults/iteration-requirements.json';
import { guardTable } from '../../test/helpers/guard-table.js';
import { fixture } from '../../test/helpers/project.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const session = (source: string) => ({ ...fixture('session-start-compact.json'), cwd: P, source });
const quiet = ({ decision }: { decision: { context?: string } }) => expect(decision.context).toBeUndefined();

guardTable('session-context', {
  valid: [
    {
      name: 'after a compaction: the workflow, the phase, and its gate requirements',
      state: workflowState('feature', '06-implementation'),
      payload: session('compact'),
      expect: 'allow',
      contextIncludes: ['continues a feature workflow', 'The current phase is 06-implementation, in progress', 'GATE REQUIREMENTS (Phase: 06-implementation):', 'test_iteration: enabled'],
    },
    { name: 'a resumed session too', state: workflowState('fix', '01-requirements'), payload: session('resume'), expect: 'allow', contextIncludes: ['GATE REQUIREMENTS (Phase: 01-requirements):'] },
    {
      name: 'a completed phase: the next step, without a block',
      state: (() => { const s = workflowState('fix', '01-requirements'); s['phases']['01-requirements'].status = 'completed'; s['active_workflow'].phase_status['01-requirements'] = 'completed'; return s; })(),
      payload: session('compact'),
      expect: 'allow',
      contextIncludes: ['isdlc phase activate'],
      then: ({ decision }) => expect(decision.context).not.toContain('GATE REQUIREMENTS'),
    },
    { name: 'a fresh start is not a continuation', state: workflowState('feature', '06-implementation'), payload: session('startup'), expect: 'allow', then: quiet },
    { name: 'no active workflow', state: { state_version: 1, active_workflow: null }, payload: session('compact'), expect: 'allow', then: quiet },
    { name: 'turned off in config', state: workflowState('feature', '06-implementation'), files: { '.isdlc/config/iteration-requirements.json': { ...bundledRequirements, gate_requirements_injection: { session_start: false } } }, payload: session('compact'), expect: 'allow', then: quiet },
  ],
  invalid: [],
});
