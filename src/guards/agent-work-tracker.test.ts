import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { bashFailed, bashPassed, isdlcToolResult, readDone, recorded332, writeCall, writeDone } from '../../test/helpers/payloads.js';
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
const withLog = (entries: Record<string, unknown>[], phase = '06-implementation'): Record<string, any> => ({
  ...workflowState('feature', phase),
  skill_usage_log: entries,
});
const logOf = (state: Record<string, any>) => state['skill_usage_log'];

guardTable('agent-work-tracker', {
  valid: [
    {
      name: "a subagent's write that ran is a change in the current phase",
      state: withLog([run()]),
      payload: inside(writeDone('/project', 'src/sum.js', 'x')),
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
      payload: inside(writeDone('/project', 'src/sum.js', 'x')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ work_in: { '01-requirements': ['change'] } })]),
    },
    {
      name: 'the same kind again writes nothing new',
      state: withLog([run({ work_in: { '06-implementation': ['change'] } })]),
      payload: inside(writeDone('/project', 'src/other.js', 'y')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ work_in: { '06-implementation': ['change'] } })]),
    },
    ...(
      [
        ['`true` in the shell', inside(bashPassed('/project', 'true', ''))],
        ['a file read printed by the shell', inside(bashPassed('/project', 'cat README.md', 'hello'))],
        ["a call of isdlc's own tools", inside(isdlcToolResult('/project', 'status', { ok: true }, 'subagent'))],
        ['a write that has not run yet (PreToolUse)', inside(writeCall('/project', '/project/src/sum.js', 'x'))],
        ["the main session's own write", writeDone('/project', 'src/sum.js', 'x')],
        ['a write outside the project (a temp file)', inside(writeDone('/project', '/tmp/scratch.js', 'x'))],
      ] as const
    ).map(([name, payload]) => ({
      name: `no work: ${name}`,
      state: withLog([run()]),
      payload,
      expect: 'allow' as const,
      then: ({ state }: { state: Record<string, any> }) => expect(logOf(state)).toEqual([run()]),
    })),
    {
      name: "another run's write is that run's: it gets the entry agent-run-tracker would have made",
      state: withLog([run()]),
      payload: inside(writeDone('/project', 'src/sum.js', 'x'), 'a0000000000000009'),
      expect: 'allow',
      then: ({ state }) =>
        expect(logOf(state)).toEqual([
          run(),
          expect.objectContaining({ agent_id: 'a0000000000000009', outcome: 'running', launch_pending: true, work_in: { '06-implementation': ['change'] } }),
        ]),
    },
    {
      name: 'any write that ran, the main session’s too, is a file the phase changed, with when',
      state: withLog([run()]),
      payload: writeDone('/project', 'src/sum.js', 'x'),
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['06-implementation'].changed_files).toEqual({ 'src/sum.js': expect.stringMatching(/^\d{4}-/) }),
    },
    {
      name: "a write to isdlc's own files is no change of the phase's work",
      state: withLog([run()]),
      payload: writeDone('/project', '.isdlc/state.json', '{}'),
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['06-implementation'].changed_files).toBeUndefined(),
    },
    {
      name: 'a run reading a file the phase changed is recorded with when; a file it did not change is not',
      state: (() => {
        const state = withLog([run({ agent: 'constitution-reviewer', agent_phase: '' })]);
        state['phases']['06-implementation'].changed_files = { 'src/sum.js': '2026-11-25T10:00:00.000Z' };
        return state;
      })(),
      payload: inside(readDone('/project', 'src/sum.js', 'x')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)[0].read_in).toEqual({ '06-implementation': { 'src/sum.js': expect.stringMatching(/^\d{4}-/) } }),
    },
    {
      name: 'reading a file the phase did not change records nothing',
      state: (() => {
        const state = withLog([run()]);
        state['phases']['06-implementation'].changed_files = { 'src/sum.js': '2026-11-25T10:00:00.000Z' };
        return state;
      })(),
      payload: inside(readDone('/project', 'README.md', 'x')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)[0].read_in).toBeUndefined(),
    },
    ...(
      [
        ['cat', "cat src/sum.js && sed -n '1,40p' test/sum.test.js", ['src/sum.js', 'test/sum.test.js']],
        ['a cd before it, nl and head with their values', 'cd src && nl -ba sum.js | head -n 20', ['src/sum.js']],
        ['a search is no reading, nor an edit in place', "grep -n add src/sum.js; sed -i 's/a/b/' test/sum.test.js", []],
        ['a word the shell still expands names no file yet', 'cat src/*.js', []],
      ] as const
    ).map(([name, command, read]) => ({
      name: `a reviewer reading with the shell: ${name}`,
      state: (() => {
        const state = withLog([run({ agent: 'constitution-reviewer', agent_phase: '' })]);
        state['phases']['06-implementation'].changed_files = { 'src/sum.js': '2026-11-25T10:00:00.000Z', 'test/sum.test.js': '2026-11-25T10:00:00.000Z' };
        return state;
      })(),
      payload: inside(bashPassed('/project', command, 'module.exports = (a, b) => a + b;')),
      expect: 'allow' as const,
      then: ({ state }: { state: Record<string, any> }) =>
        expect(logOf(state)[0].read_in).toEqual(
          read.length === 0 ? undefined : { '06-implementation': Object.fromEntries(read.map((path) => [path, expect.stringMatching(/^\d{4}-/)])) },
        ),
    })),
    {
      name: 'an ended run stays as it ended',
      state: withLog([run({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
      payload: inside(writeDone('/project', 'src/sum.js', 'x')),
      expect: 'allow',
      then: ({ state }) => expect(logOf(state)).toEqual([run({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
    },
  ],
  invalid: [],
});
