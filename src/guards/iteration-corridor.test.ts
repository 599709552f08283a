import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentCall, skillCall, bashCall } from '../../test/helpers/payloads.js';
import { compliant, testRecord, withConstitution, withTests, workflowState } from '../../test/helpers/states.js';

const P = '/project'; // replaced by the table with the real project directory
const failing = () => withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('failed', 2));
const passing = () => withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('passed', 3));

guardTable('iteration-corridor', {
  valid: [
    {
      name: 'TEST_CORRIDOR: delegating the fix to the phase agent',
      state: failing(),
      payload: agentCall(P, { subagent_type: 'software-developer', prompt: 'Fix the failing tests, then proceed' }),
      expect: 'allow',
    },
    {
      name: 'TEST_CORRIDOR: an ordinary subagent whose prompt says proceed',
      state: failing(),
      payload: agentCall(P, { subagent_type: 'general-purpose', prompt: 'Proceed to read the file src/cart.ts and explain it' }),
      expect: 'allow',
    },
    {
      name: 'TEST_CORRIDOR: a setup command to the orchestrator',
      state: failing(),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: '/isdlc status' }),
      expect: 'allow',
    },
    { name: 'TEST_CORRIDOR: running the tests, editing, reading', state: failing(), payload: bashCall(P, 'npm test'), expect: 'allow' },
    { name: 'TEST_CORRIDOR: the isdlc skill for something other than advancing', state: failing(), payload: skillCall(P, 'isdlc', 'status'), expect: 'allow' },
    {
      name: "TEST_CORRIDOR: /isdlc add of an item whose text has gate words (the original's BUG-0031)",
      state: failing(),
      payload: skillCall(P, 'isdlc', 'add "Advance to the next phase faster: the gate should delegate and hand off"'),
      expect: 'allow',
    },
    {
      name: 'TEST_CORRIDOR: /isdlc analyze of an item, unquoted, after a flag',
      state: failing(),
      payload: skillCall(P, 'isdlc', '--deep analyze proceed button skips the gate'),
      expect: 'allow',
    },
    {
      name: 'TEST_CORRIDOR: asking the gate (gate check) is a question, not an advance',
      state: failing(),
      payload: skillCall(P, 'isdlc', 'gate check'),
      expect: 'allow',
    },
    { name: 'TEST_CORRIDOR: gate check of a named phase', state: failing(), payload: skillCall(P, 'isdlc', 'gate check 06-implementation'), expect: 'allow' },
    {
      name: 'no corridor: tests passed and the constitution is compliant',
      state: withConstitution(passing(), '06-implementation', compliant(['I', 'II'])),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'Advance to the next phase' }),
      expect: 'allow',
    },
    {
      name: 'no corridor: tests escalated (a human decides; the gate holds)',
      state: withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('failed', 3, { status: 'escalated', completed: true })),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'advance' }),
      expect: 'allow',
    },
    {
      name: 'iteration enforcement switched off by the person: no corridor (as in the original)',
      state: { ...failing(), iteration_enforcement: { enabled: false } },
      payload: skillCall(P, 'isdlc', 'advance'),
      expect: 'allow',
    },
    {
      name: 'no active workflow',
      state: { state_version: 1, active_workflow: null },
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'advance' }),
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: "CONST_CORRIDOR after the original framework's passed record (completed, status success, no last_test_result)",
      state: withTests(workflowState('feature', '06-implementation'), '06-implementation', { completed: true, status: 'success' }),
      payload: skillCall(P, 'isdlc', 'advance'),
      expect: 'deny',
      reasonIncludes: ['CONST_CORRIDOR'],
    },
    {
      name: 'TEST_CORRIDOR counts to the iteration_config the person set, where the record has no maximum',
      state: {
        ...withTests(workflowState('feature', '06-implementation'), '06-implementation', {
          last_test_result: 'failed',
          completed: false,
          current_iteration: 1,
        }),
        iteration_config: { testing_max: 4, configured_at: '2026-11-25T09:00:00.000Z' },
      },
      payload: skillCall(P, 'isdlc', 'advance'),
      expect: 'deny',
      reasonIncludes: ['Iteration 1 of 4'],
    },
    {
      name: 'TEST_CORRIDOR: asking the orchestrator to advance, with iteration, max, last error and command',
      state: failing(),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'Tests are mostly fine; advance to the next phase' }),
      expect: 'deny',
      reasonIncludes: [
        'isdlc iteration-corridor: Fix the failing tests of phase 06-implementation and run them again before moving the workflow on',
        'TEST_CORRIDOR',
        'Iteration 2 of 10',
        'npm test',
        'expected 3 to be 4',
        'software-developer',
      ],
    },
    {
      name: 'TEST_CORRIDOR: handing work to the next phase agent',
      state: failing(),
      payload: agentCall(P, { subagent_type: 'quality-loop-engineer' }),
      expect: 'deny',
      reasonIncludes: ['16-quality-loop'],
    },
    { name: 'TEST_CORRIDOR: the isdlc skill asked to advance', state: failing(), payload: skillCall(P, 'isdlc', 'advance'), expect: 'deny' },
    {
      name: 'TEST_CORRIDOR: the older sdlc skill asked for the gate',
      state: failing(),
      payload: skillCall(P, 'sdlc', 'gate-check and move on'),
      expect: 'deny',
    },
    {
      name: 'TEST_CORRIDOR: /isdlc add followed by an advance on a new line',
      state: failing(),
      payload: skillCall(P, 'isdlc', 'add "x"\nadvance'),
      expect: 'deny',
    },
    {
      name: 'TEST_CORRIDOR: /isdlc add with an advance chained after it',
      state: failing(),
      payload: skillCall(P, 'isdlc', 'add make it faster; advance to the next phase'),
      expect: 'deny',
    },
    {
      name: 'TEST_CORRIDOR: /isdlc add "x" with advance outside the quotes',
      state: failing(),
      payload: skillCall(P, 'isdlc', 'add "x" advance'),
      expect: 'deny',
    },
    {
      name: 'TEST_CORRIDOR: gate check followed by a request to move on',
      state: failing(),
      payload: skillCall(P, 'isdlc', 'gate check and advance'),
      expect: 'deny',
    },
    {
      name: 'TEST_CORRIDOR: gate check with a flag that asks to advance',
      state: failing(),
      payload: skillCall(P, 'isdlc', 'gate check --then-advance'),
      expect: 'deny',
    },
    {
      name: 'TEST_CORRIDOR: the orchestrator told to hand off',
      state: failing(),
      payload: agentCall(P, { subagent_type: 'orchestrator', prompt: 'Hand off to QA' }),
      expect: 'deny',
    },
    {
      name: 'CONST_CORRIDOR: tests pass, constitution not started',
      state: passing(),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'Proceed to the next phase' }),
      expect: 'deny',
      reasonIncludes: [
        "isdlc iteration-corridor: Check phase 06-implementation's work against each article below and record each check with `mcp__isdlc__constitution_record` (article, result compliant or violation",
        'CONST_CORRIDOR',
        'not started',
        '- [ ] Article II: Test-First Development',
      ],
      then: ({ state }) => expect(state['phases']['06-implementation'].constitutional_validation).toMatchObject({ status: 'pending', iterations_used: 0 }),
    },
    {
      name: 'CONST_CORRIDOR: in progress, with the articles already checked marked',
      state: withConstitution(passing(), '06-implementation', {
        ...compliant(['I', 'II']),
        completed: false,
        status: 'iterating',
        articles_checked: ['I'],
        iterations_used: 2,
      }),
      payload: skillCall(P, 'isdlc', 'advance'),
      expect: 'deny',
      reasonIncludes: ['iterating', 'iteration 2 of 5', '- [x] Article I: Specification Primacy', '- [ ] Article II'],
    },
    {
      name: 'CONST_CORRIDOR in a phase without tests (01-requirements)',
      state: workflowState('feature', '01-requirements'),
      payload: agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'move to phase 02' }),
      expect: 'deny',
      reasonIncludes: ['CONST_CORRIDOR'],
      then: ({ state }) => expect(state['phases']['01-requirements'].constitutional_validation.articles_required).toEqual(['I', 'IV', 'VII', 'IX', 'XII']),
    },
  ],
});
