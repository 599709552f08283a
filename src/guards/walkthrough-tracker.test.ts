import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { agentCall, agentResult } from '../../test/helpers/payloads.js';

const P = '/project';
const DISCOVER = { subagent_type: 'discover-orchestrator', prompt: '/discover the existing project' };
const done = agentResult(P, DISCOVER, 'Discovery complete: architecture, tests and the constitution draft are written.');
const withDiscovery = (context: Record<string, unknown>) => ({ state_version: 3, active_workflow: null, discovery_context: context });

guardTable('walkthrough-tracker', {
  valid: [
    {
      name: 'discovery completed without the walkthrough: a note and a line for the user (T01, T02)',
      state: withDiscovery({ completed_at: '2026-11-25T10:00:00Z', walkthrough_completed: false }),
      payload: done,
      expect: 'allow',
      contextIncludes: ['constitution walkthrough is not recorded as done', 'docs/isdlc/constitution.md'],
      then: ({ decision }) => expect(decision.systemMessage).toContain('without the constitution walkthrough'),
    },
    {
      name: 'walkthrough_completed missing counts as not done (T03)',
      state: withDiscovery({ completed_at: '2026-11-25T10:00:00Z' }),
      payload: done,
      expect: 'allow',
      contextIncludes: ['walkthrough'],
    },
    {
      name: 'silent once the walkthrough is done (T04)',
      state: withDiscovery({ walkthrough_completed: true }),
      payload: done,
      expect: 'allow',
      then: ({ decision }) => expect(decision.context).toBeUndefined(),
    },
    {
      name: 'silent for other subagents (T05)',
      state: withDiscovery({}),
      payload: agentResult(P, { subagent_type: 'general-purpose' }, 'Listed the files.'),
      expect: 'allow',
      then: ({ decision }) => expect(decision.context).toBeUndefined(),
    },
    {
      name: 'silent without a discovery context (T09)',
      state: { state_version: 1 },
      payload: done,
      expect: 'allow',
      then: ({ decision }) => expect(decision.context).toBeUndefined(),
    },
    { name: 'silent without state (T06)', payload: done, expect: 'allow', then: ({ decision }) => expect(decision.context).toBeUndefined() },
    {
      name: 'silent before the agent runs (PreToolUse)',
      state: withDiscovery({}),
      payload: agentCall(P, DISCOVER),
      expect: 'allow',
      then: ({ decision }) => expect(decision.context).toBeUndefined(),
    },
  ],
  invalid: [],
});
