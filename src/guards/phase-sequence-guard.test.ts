import { guardTable } from '../../test/helpers/guard-table.js';

const FEATURE_PHASES = [
  '00-quick-scan',
  '01-requirements',
  '02-impact-analysis',
  '03-architecture',
  '04-design',
  '05-test-strategy',
  '06-implementation',
  '16-quality-loop',
  '08-code-review',
];

function workflowAt(phase: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    state_version: 4,
    current_phase: phase,
    active_workflow: {
      type: 'feature',
      phases: FEATURE_PHASES,
      current_phase: phase,
      current_phase_index: FEATURE_PHASES.indexOf(phase),
      ...extra,
    },
  };
}

/** A PreToolUse Agent call shaped like the recorded ones (test/fixtures/payloads/pre-agent.json). */
function agentCall(input: Record<string, unknown>, toolName = 'Agent'): Record<string, unknown> {
  return {
    session_id: '8bbcceab-0b3e-4e24-98c9-ec146b1ca8c6',
    transcript_path: '/root/.agent-host/transcripts/8bbcceab.jsonl',
    hook_event_name: 'PreToolUse',
    permission_mode: 'default',
    tool_name: toolName,
    tool_input: { description: 'phase work', prompt: 'Do the phase work.', ...input },
    tool_use_id: 'toolu_01UyNmiq2fWehP4Jooar3YS7',
  };
}

guardTable('phase-sequence-guard', {
  valid: [
    {
      name: 'a delegation to the current phase agent',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'requirements-analyst' }),
      expect: 'allow',
    },
    {
      name: 'the legacy Task tool name to the current phase agent',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'requirements-analyst' }, 'Task'),
      expect: 'allow',
    },
    {
      name: 'a sub-agent of the current phase (BUG-0013: tracing sub-agents)',
      state: workflowAt('02-impact-analysis'),
      payload: agentCall({ subagent_type: 'risk-assessor' }),
      expect: 'allow',
    },
    {
      name: 'an agent name written differently (Software_Developer, isdlc:software-developer)',
      state: workflowAt('06-implementation'),
      payload: agentCall({ subagent_type: 'isdlc:Software_Developer' }),
      expect: 'allow',
    },
    {
      name: 'an agent that owns several phases, in one of them',
      state: {
        ...workflowAt('12-remote-build'),
        active_workflow: { type: 'x', phases: ['11-local-testing', '12-remote-build'], current_phase: '12-remote-build' },
      },
      payload: agentCall({ subagent_type: 'environment-builder' }),
      expect: 'allow',
    },
    {
      name: 'an ordinary subagent (general-purpose) with an ordinary prompt',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'general-purpose', prompt: 'Find where the CSV export button is rendered.' }),
      expect: 'allow',
    },
    {
      name: 'the orchestrator (phase "all")',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'sdlc-orchestrator', prompt: 'advance to 06-implementation' }),
      expect: 'allow',
    },
    { name: 'a setup agent (discover)', state: workflowAt('01-requirements'), payload: agentCall({ subagent_type: 'discover-orchestrator' }), expect: 'allow' },
    {
      name: 'a setup command in the text of an unnamed agent',
      state: workflowAt('01-requirements'),
      payload: agentCall({ prompt: '/isdlc status then report back; the software-developer will wait' }),
      expect: 'allow',
    },
    {
      name: 'a phase key mentioned in passing',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'Explore', prompt: 'Summarise the notes in docs/06-implementation-notes.md' }),
      expect: 'allow',
    },
    {
      name: 'no active workflow',
      state: { state_version: 1, active_workflow: null },
      payload: agentCall({ subagent_type: 'software-developer' }),
      expect: 'allow',
    },
    { name: 'no state file at all', payload: agentCall({ subagent_type: 'software-developer' }), expect: 'allow' },
    {
      name: 'stale top-level current_phase: active_workflow wins',
      state: { ...workflowAt('03-architecture'), current_phase: '01-requirements' },
      payload: agentCall({ subagent_type: 'solution-architect' }),
      expect: 'allow',
    },
    {
      name: 'a legacy phase key in the workflow (13-test-deploy reads as 12-test-deploy)',
      state: { current_phase: '13-test-deploy', active_workflow: { type: 'x', phases: ['13-test-deploy'], current_phase: '13-test-deploy' } },
      payload: agentCall({ subagent_type: 'deployment-engineer-staging' }),
      expect: 'allow',
    },
    {
      name: 'a recorded real Agent payload (general-purpose)',
      state: workflowAt('01-requirements'),
      payload: {
        hook_event_name: 'PreToolUse',
        tool_name: 'Agent',
        tool_input: {
          description: 'Run bash echo sub command',
          prompt: 'Run the Bash command: echo sub. Then reply done.',
          subagent_type: 'general-purpose',
          run_in_background: false,
        },
      },
      expect: 'allow',
    },
  ],
  invalid: [
    {
      name: 'a delegation to a later phase agent, naming both phases',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'software-developer' }),
      expect: 'deny',
      reasonIncludes: [
        'isdlc phase-sequence-guard: Carry on with phase 01-requirements (its agent is requirements-analyst) instead',
        'out-of-order phase delegation',
        '06-implementation',
        'denied again',
      ],
    },
    {
      name: 'a delegation back to an earlier phase',
      state: workflowAt('06-implementation'),
      payload: agentCall({ subagent_type: 'requirements-analyst' }),
      expect: 'deny',
      reasonIncludes: ['01-requirements', '06-implementation'],
    },
    {
      name: 'the legacy Task tool name to a later phase',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'software-developer' }, 'Task'),
      expect: 'deny',
    },
    {
      name: 'a short alias (developer)',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'developer' }),
      expect: 'deny',
      reasonIncludes: ['software-developer'],
    },
    {
      name: 'an agent named in the prompt of an unnamed subagent',
      state: workflowAt('01-requirements'),
      payload: agentCall({ prompt: 'You are the software-developer. Implement the CSV export.' }),
      expect: 'deny',
      reasonIncludes: ['06-implementation'],
    },
    {
      name: 'a phase named in the description',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'general-purpose', description: 'Phase 08-code-review for REQ-0001' }),
      expect: 'deny',
      reasonIncludes: ['08-code-review'],
    },
    {
      name: 'a phase that is not part of this workflow',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'security-compliance-auditor' }),
      expect: 'deny',
      reasonIncludes: ['not part of the active feature workflow'],
    },
    {
      name: 'words like "status code" do not disable detection',
      state: workflowAt('01-requirements'),
      payload: agentCall({ subagent_type: 'software-developer', prompt: 'Fix the status code returned by the export endpoint and reinstall the hook' }),
      expect: 'deny',
    },
  ],
});
