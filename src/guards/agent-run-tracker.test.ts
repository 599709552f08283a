import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineGuard } from '../engine/guard.js';
import { runHook } from '../engine/run-hook.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { HOOK_HOST, GUARDED } from '../../test/helpers/hosts.js';
import { readJson, tempDir, writeJson } from '../../test/helpers/project.js';
import { agentRunTracker } from './agent-run-tracker.js';
import { guardTable } from '../../test/helpers/guard-table.js';
import { bashCall, recorded332 } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

// A Bash call as the host sends it; inside a subagent it also carries the subagent's id and type.
const BASH = bashCall('/project', 'npm test');
const AGENT_ID = String(recorded332('subagent-stop-background.json')['agent_id']);
const insideSubagent = (agentType = 'software-developer', agentId = AGENT_ID) => ({ ...BASH, agent_id: agentId, agent_type: agentType });
const run = (extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-11-25T10:05:00.000Z',
  agent: 'software-developer',
  agent_phase: '06-implementation',
  current_phase: '06-implementation',
  description: 'Implement CSV export',
  status: 'executed',
  reason: 'authorized-phase-match',
  outcome: 'launched',
  agent_id: AGENT_ID,
  ...extra,
});
const withLog = (entries: Record<string, unknown>[]) => ({ ...workflowState('feature', '06-implementation'), skill_usage_log: entries });

guardTable('agent-run-tracker', {
  valid: [
    {
      name: "the main agent's own tool call: nothing recorded",
      state: withLog([run()]),
      payload: BASH,
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([run()]),
    },
    {
      name: "a launched run's first tool call is recorded on its entry",
      state: withLog([run()]),
      payload: insideSubagent(),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([{ ...run(), first_tool_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]),
    },
    {
      name: 'its later tool calls change nothing (only the first is recorded)',
      state: withLog([run({ first_tool_at: '2026-11-25T10:05:07.000Z' })]),
      payload: insideSubagent(),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([run({ first_tool_at: '2026-11-25T10:05:07.000Z' })]),
    },
    {
      name: "a run that already ended stays as it ended (a resumed agent's work is not that run's)",
      state: withLog([run({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
      payload: insideSubagent(),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([run({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
    },
    {
      name: "another subagent's call leaves the launched run alone, and logs that subagent's run as running",
      state: withLog([run()]),
      payload: insideSubagent('software-developer', 'a0000000000000001'),
      expect: 'allow',
      then: ({ state }) => {
        expect(state['skill_usage_log'][0]).toEqual(run());
        expect(state['skill_usage_log'][1]).toEqual({
          timestamp: expect.any(String),
          agent: 'software-developer',
          agent_id: 'a0000000000000001',
          agent_phase: '06-implementation',
          current_phase: '06-implementation',
          outcome: 'running',
          first_tool_at: state['skill_usage_log'][1].timestamp,
          launch_pending: true,
        });
      },
    },
    {
      name: 'a synchronous run (no launch logged yet) gets a running entry under its own agent and phase',
      state: workflowState('feature', '06-implementation'),
      payload: insideSubagent('qa-engineer', 'a0000000000000002'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({
            agent: 'qa-engineer',
            agent_phase: '08-code-review',
            agent_id: 'a0000000000000002',
            outcome: 'running',
            launch_pending: true,
          }),
        ]),
    },
    {
      name: 'no state file: nothing recorded, none created',
      payload: insideSubagent(),
      expect: 'allow',
      then: ({ state }) => expect(state).toEqual({}),
    },
  ],
  invalid: [],
});

describe('agent-run-tracker beside the launch hook', () => {
  it("a first tool call whose run the launch's hook logged in the meantime is recorded on that entry, not dropped", () => {
    const project = tempDir('isdlc-agent-run-race-');
    const stateFile = join(project, '.isdlc/state.json');
    writeJson(stateFile, workflowState('feature', '06-implementation'));
    // Writes the launch's entry after agent-run-tracker read the state (as the launch's own hook, running at the same time, would).
    const launchHook = defineGuard({
      id: 'launch-hook',
      description: 'the launch, logged by another process',
      on: { PreToolUse: true },
      check: () => void new JournaledStateStore(stateFile).update((draft) => void (draft.skill_usage_log ?? []).push(run())),
    });
    const payload = JSON.stringify({ ...insideSubagent(), cwd: project });
    runHook({ host: HOOK_HOST, guarded: GUARDED, payload, env: {}, cwd: project, projectDir: project, guards: [agentRunTracker, launchHook] });
    expect(readJson<Record<string, any>>(stateFile)['skill_usage_log']).toEqual([{ ...run(), first_tool_at: expect.any(String) }]);
  });
});
