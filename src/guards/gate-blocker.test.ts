import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentCall, skillCall } from '../../test/helpers/payloads.js';
import { passingSuiteFiles } from '../../test/helpers/test-suite.js';
import { compliant, delegated, testRecord, withConstitution, withTests, workflowState } from '../../test/helpers/states.js';

const P = '/project';
const IMPL_ARTICLES = ['I', 'II', 'III', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

/** 06-implementation with every requirement met. */
function ready(): Record<string, any> {
  const state = withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('passed', 2));
  withConstitution(state, '06-implementation', compliant(IMPL_ARTICLES));
  return delegated(state, 'software-developer', '06-implementation');
}

const advance = agentCall(P, { subagent_type: 'sdlc-orchestrator', prompt: 'Phase done. Advance to the next phase.' });

guardTable('gate-blocker', {
  valid: [
    {
      name: 'every check holds: the gate opens and passing is recorded',
      state: ready(),
      files: passingSuiteFiles(),
      payload: advance,
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['06-implementation'].gate_validation).toMatchObject({ status: 'passed' }),
    },
    {
      name: 'not a gate attempt: a delegation to the phase agent',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'software-developer', prompt: 'proceed with the gate work' }),
      expect: 'allow',
    },
    {
      name: 'not a gate attempt: "proceed to read the file" to an ordinary subagent',
      state: workflowState('feature', '06-implementation'),
      payload: agentCall(P, { subagent_type: 'general-purpose', prompt: 'Proceed to read the file' }),
      expect: 'allow',
    },
    {
      name: "not a gate attempt: /isdlc add of an item whose text says gate and advance (the original's BUG-0031)",
      state: withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('failed', 2)),
      payload: skillCall(P, 'isdlc', 'add "Gate report should say why we cannot advance"'),
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['06-implementation'].gate_validation).toBeUndefined(),
    },
    {
      name: 'not a gate attempt: /isdlc analyze of an item about the gate',
      state: workflowState('feature', '06-implementation'),
      payload: skillCall(P, 'isdlc', 'analyze "proceed to next phase when the gate is green"'),
      expect: 'allow',
    },
    {
      name: 'not a gate attempt: gate check --json --phase 06-implementation',
      state: workflowState('feature', '06-implementation'),
      payload: skillCall(P, 'isdlc', 'gate check --json --phase 06-implementation'),
      expect: 'allow',
    },
    {
      name: 'not a gate attempt: gate check asks where the gate stands, with the tests failing',
      state: withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('failed', 2)),
      payload: skillCall(P, 'isdlc', 'gate check'),
      expect: 'allow',
    },
    {
      name: 'not a gate attempt: a setup command',
      state: workflowState('feature', '06-implementation'),
      payload: skillCall(P, 'isdlc', 'status'),
      expect: 'allow',
    },
    {
      name: 'iteration enforcement switched off by the person: the gate is not judged here, nothing is recorded (as in the original)',
      state: { ...workflowState('feature', '06-implementation'), iteration_enforcement: { enabled: false } },
      payload: advance,
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['06-implementation'].gate_validation).toBeUndefined(),
    },
    {
      name: "the original framework's completed records (no current_iteration, no started_at) count as they did there",
      state: delegated(
        withConstitution(
          withTests(workflowState('test-generate', '07-testing'), '07-testing', { completed: true, status: 'success', last_test_result: 'passed' }),
          '07-testing',
          { completed: true, status: 'compliant' },
        ),
        'integration-tester',
        '07-testing',
      ),
      files: passingSuiteFiles(),
      payload: advance,
      expect: 'allow',
    },
    {
      name: 'escalated tests approved by a person count as met',
      state: delegated(
        withConstitution(
          withTests(
            workflowState('feature', '06-implementation'),
            '06-implementation',
            testRecord('failed', 3, { status: 'escalated', completed: true, escalation_reason: 'circuit_breaker', escalation_approved: true }),
          ),
          '06-implementation',
          compliant(IMPL_ARTICLES),
        ),
        'software-developer',
        '06-implementation',
      ),
      files: passingSuiteFiles(),
      payload: advance,
      expect: 'allow',
    },
    {
      name: 'agent delegation fails open when no agent owns the phase',
      state: withConstitution(
        withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('passed', 1)),
        '06-implementation',
        compliant(IMPL_ARTICLES),
      ),
      files: { ...passingSuiteFiles(), '.isdlc/config/skills-manifest.json': { ownership: { 'sdlc-orchestrator': { phase: 'all' } } } },
      payload: advance,
      expect: 'allow',
    },
    {
      name: 'a passing gate with the cloud undecided writes the cloud trigger',
      state: delegated(
        withConstitution(
          withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('passed', 1)),
          '06-implementation',
          compliant(IMPL_ARTICLES),
        ),
        'software-developer',
        '06-implementation',
      ),
      files: { ...passingSuiteFiles(), '.isdlc/config/iteration-requirements.json': gateConfigWithCloudTrigger() },
      payload: advance,
      expect: 'allow',
      contextIncludes: ['cloud provider is still undecided'],
      then: ({ state }) => expect(state['pending_triggers']).toEqual([expect.objectContaining({ type: 'cloud_configuration', phase: '06-implementation' })]),
    },
  ],
  invalid: [
    // Found by an attacker: requests that hide behind the add/analyze and gate check exemptions.
    {
      name: 'an /isdlc add whose text goes on to an advance on a new line',
      state: workflowState('feature', '06-implementation'),
      payload: skillCall(P, 'isdlc', "add Bob's bug\nadvance the gate to the next phase\nthat's all"),
      expect: 'deny',
    },
    {
      name: 'a flag asking to advance before add',
      state: workflowState('feature', '06-implementation'),
      payload: skillCall(P, 'isdlc', '--advance add "x"'),
      expect: 'deny',
    },
    {
      name: 'gate check with a flag of its own invention',
      state: workflowState('feature', '06-implementation'),
      payload: skillCall(P, 'isdlc', 'gate check --pass'),
      expect: 'deny',
    },
    {
      name: 'an /isdlc add with an advance chained after the item',
      state: workflowState('feature', '06-implementation'),
      payload: skillCall(P, 'isdlc', 'add "x" && advance'),
      expect: 'deny',
    },
    {
      name: 'tests not run, constitution not started, no delegation: all listed with what to do',
      state: workflowState('feature', '06-implementation'),
      files: passingSuiteFiles(),
      payload: advance,
      expect: 'deny',
      reasonIncludes: [
        '3 of 4 requirements are unmet',
        '1. test_iteration: no test run recorded',
        '2. constitutional_validation: not started',
        '3. agent_delegation: no delegation to software-developer',
        'Next:',
      ],
      then: ({ state, decision }) => {
        expect(decision.reason).toMatch(/^isdlc gate-blocker: Meet the requirements below before asking to pass the gate of phase 06-implementation again\./);
        const gate = state['phases']['06-implementation'].gate_validation;
        expect(gate.status).toBe('blocked');
        expect(gate.blocking_requirements).toEqual(['test_iteration', 'constitutional_validation', 'agent_delegation']);
        expect(state['phases']['06-implementation'].constitutional_validation).toMatchObject({
          status: 'pending',
          iterations_used: 0,
          articles_required: IMPL_ARTICLES,
        });
        expect(state['pending_escalations']).toEqual([expect.objectContaining({ type: 'gate_blocked', hook: 'gate-blocker', phase: '06-implementation' })]);
      },
    },
    {
      name: 'tests failing',
      state: delegated(
        withConstitution(
          withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('failed', 4)),
          '06-implementation',
          compliant(IMPL_ARTICLES),
        ),
        'software-developer',
        '06-implementation',
      ),
      payload: skillCall(P, 'isdlc', 'advance'),
      expect: 'deny',
      reasonIncludes: ['tests failing (iteration 4/10'],
    },
    {
      name: 'escalated but not approved',
      state: delegated(
        withConstitution(
          withTests(
            workflowState('feature', '06-implementation'),
            '06-implementation',
            testRecord('failed', 3, { status: 'escalated', completed: true, escalation_reason: 'circuit_breaker' }),
          ),
          '06-implementation',
          compliant(IMPL_ARTICLES),
        ),
        'software-developer',
        '06-implementation',
      ),
      payload: advance,
      expect: 'deny',
      reasonIncludes: ['escalated to a human (circuit_breaker', 'isdlc escalation approve --phase 06-implementation'],
    },
    {
      name: 'elicitation never started',
      state: delegated(
        withConstitution(workflowState('feature', '01-requirements'), '01-requirements', compliant(['I', 'IV', 'VII', 'IX', 'XII'])),
        'requirements-analyst',
        '01-requirements',
      ),
      files: { 'docs/requirements/REQ-0001-test/requirements-spec.md': '# spec\n' },
      payload: advance,
      expect: 'deny',
      reasonIncludes: ['interactive_elicitation: Interactive elicitation not started'],
    },
    {
      name: 'elicitation ended with a selection that is not allowed',
      state: (() => {
        const state = delegated(
          withConstitution(workflowState('feature', '01-requirements'), '01-requirements', compliant(['I', 'IV', 'VII', 'IX', 'XII'])),
          'requirements-analyst',
          '01-requirements',
        );
        state['phases']['01-requirements'].iteration_requirements = {
          interactive_elicitation: { started_at: 'x', completed: true, final_selection: 'exit', menu_interactions: 4 },
        };
        return state;
      })(),
      files: { 'docs/requirements/REQ-0001-test/requirements-spec.md': '# spec\n' },
      payload: advance,
      expect: 'deny',
      reasonIncludes: ['ended with "exit", not save or continue'],
    },
    {
      name: 'a required artifact is missing',
      state: (() => {
        const state = delegated(
          withConstitution(workflowState('feature', '04-design'), '04-design', compliant(['I', 'IV', 'V', 'VII', 'IX'])),
          'system-designer',
          '04-design',
        );
        return state;
      })(),
      payload: advance,
      expect: 'deny',
      reasonIncludes: ['artifact_presence: missing: docs/requirements/REQ-0001-test/module-design.md'],
    },
    {
      name: 'an artifact folder that would leave the project never resolves',
      state: delegated(
        withConstitution(workflowState('feature', '04-design', { artifactFolder: '../../etc' }), '04-design', compliant(['I', 'IV', 'V', 'VII', 'IX'])),
        'system-designer',
        '04-design',
      ),
      payload: advance,
      expect: 'deny',
      reasonIncludes: ['cannot be used'],
    },
  ],
});

function gateConfigWithCloudTrigger(): Record<string, unknown> {
  return {
    version: '2.1.0',
    phase_requirements: {
      '06-implementation': {
        test_iteration: { enabled: true, max_iterations: 10 },
        constitutional_validation: { enabled: true, max_iterations: 5, articles: IMPL_ARTICLES },
        agent_delegation_validation: { enabled: true },
        on_gate_pass: { trigger_cloud_config: { enabled: true } },
      },
    },
  };
}
