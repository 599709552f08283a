import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentCall, skillCall } from '../../test/helpers/payloads.js';
import { compliant, withConstitution, workflowState } from '../../test/helpers/states.js';

const P = '/project';
const REQ_ARTICLES = ['I', 'IV', 'VII', 'IX', 'XII'];
const completion = agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'Requirements phase complete, ready for gate validation.' });

guardTable('constitution-validator', {
  valid: [
    {
      name: 'the validation is complete',
      state: withConstitution(workflowState('feature', '01-requirements'), '01-requirements', compliant(REQ_ARTICLES)),
      payload: completion,
      expect: 'allow',
    },
    {
      name: "the original framework's compliant record (completed, status compliant, no started_at)",
      state: withConstitution(workflowState('feature', '01-requirements'), '01-requirements', { completed: true, status: 'compliant' }),
      payload: completion,
      expect: 'allow',
    },
    {
      name: 'iteration enforcement switched off by the person (as in the original)',
      state: { ...workflowState('feature', '01-requirements'), iteration_enforcement: { enabled: false } },
      payload: completion,
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['01-requirements'].constitutional_validation).toBeUndefined(),
    },
    {
      name: 'not a completion attempt',
      state: workflowState('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'Summarise progress so far' }),
      expect: 'allow',
    },
    {
      name: 'a completion claim by an ordinary subagent is its own business',
      state: workflowState('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'general-purpose', prompt: 'Tell me when the implementation is complete' }),
      expect: 'allow',
    },
    { name: 'the phase does not require it (00-quick-scan)', state: workflowState('feature', '00-quick-scan'), payload: completion, expect: 'allow' },
    {
      name: 'escalated and approved by a person',
      state: withConstitution(workflowState('feature', '01-requirements'), '01-requirements', {
        ...compliant(REQ_ARTICLES),
        completed: true,
        status: 'escalated',
        escalation_approved: true,
      }),
      payload: completion,
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: 'not started: tracking is initialised with every field, and the checklist is given',
      state: workflowState('feature', '01-requirements'),
      payload: completion,
      expect: 'deny',
      reasonIncludes: [
        "isdlc constitution-validator: Check phase 01-requirements's work against each article below and record each check with `mcp__isdlc__constitution_record` (article, result compliant or violation",
        '- [ ] Article I: Specification Primacy',
        '- [ ] Article XII: Cross-Platform Compatibility',
      ],
      then: ({ state }) => {
        const record = state['phases']['01-requirements'].constitutional_validation;
        expect(record).toEqual({
          required: true,
          completed: false,
          status: 'pending',
          iterations_used: 0,
          max_iterations: 5,
          articles_required: REQ_ARTICLES,
          articles_checked: [],
          violations_found: [],
          started_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        });
      },
    },
    {
      name: 'in progress: checked articles are ticked, state left as it was',
      state: withConstitution(workflowState('feature', '01-requirements'), '01-requirements', {
        ...compliant(REQ_ARTICLES),
        completed: false,
        status: 'iterating',
        articles_checked: ['I', 'IV'],
      }),
      payload: skillCall(P, 'isdlc', 'phase complete'),
      expect: 'deny',
      reasonIncludes: ['- [x] Article I: Specification Primacy', '- [ ] Article VII: Artifact Traceability'],
      then: ({ state }) => expect(state['phases']['01-requirements'].constitutional_validation.status).toBe('iterating'),
    },
    {
      name: 'escalated, not approved',
      state: withConstitution(workflowState('feature', '01-requirements'), '01-requirements', {
        ...compliant(REQ_ARTICLES),
        completed: true,
        status: 'escalated',
      }),
      payload: completion,
      expect: 'deny',
      reasonIncludes: [
        'isdlc constitution-validator: Ask the person to review the escalated constitutional validation of phase 01-requirements',
        'isdlc escalation approve --phase 01-requirements',
      ],
    },
  ],
});
