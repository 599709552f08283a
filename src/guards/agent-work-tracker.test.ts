import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { bashFailed, bashPassed, isdlcToolResult, recorded332, writeCall, writeDone } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const AGENT_ID = String(recorded332('subagent-stop-background.json')['agent_id']);
const inside = (payload: Record<string, unknown>, agentId = AGENT_ID) => ({ ...payload, agent_id: agentId, agent_type: 'software-developer' });
const run = (extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-11-25T10:05:00.000Z',
  agent: 'software-developer',
  agent_phase: '06-implementation',
  current_phase: '06-implementation',
  outcome: 'launched',
  agent_id: AGENT_ID,
  ...extra,
});
const withLog = (entries: Record<string, unknown>[], phase = '06-implementation') => ({ ...workflowState('feature', phase), skill_usage_log: entries });
const logOf = (state: Record<string, any>) => state['skill_usage_log'];

guardTable('agent-work-tracker', {
  valid: [
    {
      name: "a subagent's write that ran is a change in the current phase",
      state: withLog([run()]),
      payload: inside(writeDone('/project', '/project/src/sum.js', 'x')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ work_in: { '06-implementation': ['change'] } })]),
    },
    {
      name: 'a test run is recorded, failing as well as passing',
      state: withLog([run()], '16-quality-loop'),
      payload: inside(bashFailed('/project', 'npm test', 1, '1 failing')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ work_in: { '16-quality-loop': ['test'] } })]),
    },
    {
      name: 'work while another phase is active is recorded under that phase, not the agent’s own',
      state: withLog([run()], '01-requirements'),
      payload: inside(writeDone('/project', '/project/src/sum.js', 'x')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ work_in: { '01-requirements': ['change'] } })]),
    },
    {
      name: 'the same kind again writes nothing new',
      state: withLog([run({ work_in: { '06-implementation': ['change'] } })]),
      payload: inside(writeDone('/project', '/project/src/other.js', 'y')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ work_in: { '06-implementation': ['change'] } })]),
    },
    ...(
      [
        ['`true` in the shell', inside(bashPassed('/project', 'true', ''))],
        ['a file read printed by the shell', inside(bashPassed('/project', 'cat README.md', 'hello'))],
        ["a call of isdlc's own tools", inside(isdlcToolResult('/project', 'status', { ok: true }, 'subagent'))],
        ['a write that has not run yet (PreToolUse)', inside(writeCall('/project', '/project/src/sum.js', 'x'))],
        ["the main session's own write", writeDone('/project', '/project/src/sum.js', 'x')],
        ["another run's write", inside(writeDone('/project', '/project/src/sum.js', 'x'), 'a0000000000000009')],
      ] as const
    ).map(([name, payload]) => ({
      name: `no work: ${name}`,
      state: withLog([run()]),
      payload,
      expect: 'allow' as const,
      then: ({ state }: { state: Record<string, any> }) => expect(logOf(state)).toEqual([run()]),
    })),
    {
      name: 'an ended run stays as it ended',
      state: withLog([run({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
      payload: inside(writeDone('/project', '/project/src/sum.js', 'x')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
    },
  ],
  invalid: [],
});
