import { describe, expect, it } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { makeLoop } from '../../test/helpers/loops.js';
import { agentResult, recorded332, taskNotification, userPrompt } from '../../test/helpers/payloads.js';
import { decisionOf, hook, readJson, tempDir, writeJson } from '../../test/helpers/project.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
// Recorded from the real host (the one the payload helpers write for): a background launch, and the SubagentStop of that same agent.
const LAUNCH = recorded332('post-agent-async.json');
const BACKGROUND_END = recorded332('subagent-stop-background.json');
const AGENT_ID = String(BACKGROUND_END['agent_id']);
const launchOf = (subagentType: string) => ({
  ...LAUNCH,
  cwd: P,
  tool_input: { ...(LAUNCH['tool_input'] as object), subagent_type: subagentType, description: 'Implement CSV export' },
});
const launchedEntry = (extra: Record<string, unknown> = {}) => ({
  timestamp: '2026-11-25T10:05:00.000Z',
  agent: 'software-developer',
  agent_phase: '06-implementation',
  current_phase: '06-implementation',
  description: 'Implement CSV export',
  status: 'executed',
  reason: 'authorized-phase-match',
  enforcement_mode: 'observe',
  outcome: 'launched',
  agent_id: AGENT_ID,
  ...extra,
});
const withLog = (entries: Record<string, unknown>[]) => ({ ...workflowState('feature', '06-implementation'), skill_usage_log: entries });

guardTable('log-skill-usage', {
  valid: [
    {
      name: 'logs a delegation to the phase agent as executed in its own phase',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'software-developer', description: 'Implement CSV export' }, 'Done: 3 files changed.'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({
            agent: 'software-developer',
            agent_phase: '06-implementation',
            current_phase: '06-implementation',
            status: 'executed',
            reason: 'authorized-phase-match',
            outcome: 'completed',
            description: 'Implement CSV export',
          }),
        ]),
    },
    {
      name: "a background launch (2.1.332) is logged as launched, with the subagent's id",
      state: workflowState('feature', '06-implementation'),
      payload: launchOf('software-developer'),
      expect: 'allow',
      then: ({ state }) => {
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({
            agent: 'software-developer',
            agent_phase: '06-implementation',
            status: 'executed',
            outcome: 'launched',
            agent_id: AGENT_ID,
          }),
        ]);
        expect(state['skill_usage_log'][0].completed_at).toBeUndefined();
      },
    },
    {
      name: "that agent's SubagentStop marks its entry completed, the framework's fields untouched",
      state: withLog([launchedEntry()]),
      payload: { ...BACKGROUND_END, cwd: P },
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([{ ...launchedEntry(), outcome: 'completed', completed_at: expect.any(String) }]),
    },
    {
      name: "another subagent's SubagentStop leaves the launched entry alone",
      state: withLog([launchedEntry()]),
      payload: { ...BACKGROUND_END, cwd: P, agent_id: 'a0000000000000000' },
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([launchedEntry()]),
    },
    {
      name: 'an entry already completed keeps its first completion time',
      state: withLog([launchedEntry({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
      payload: { ...BACKGROUND_END, cwd: P },
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' }),
    },
    {
      name: 'a synchronous result stays completed and carries its id too',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'software-developer' }, 'Done.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ outcome: 'completed', agent_id: 'a7154de3fc719065c' }),
    },
    {
      name: "a synchronous result is the run's end, with the host's count of its tool calls",
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'software-developer' }, 'Done.'),
      expect: 'allow',
      then: ({ state }) => {
        const [entry] = state['skill_usage_log'];
        expect(entry).toMatchObject({ outcome: 'completed', tool_calls: 1 });
        expect(entry.completed_at).toBe(entry.timestamp);
      },
    },
    {
      name: "a synchronous run that did nothing carries the host's count of zero",
      state: workflowState('feature', '06-implementation'),
      payload: (() => {
        const idle = agentResult(P, { subagent_type: 'software-developer' }, 'OK');
        return { ...idle, tool_response: { ...(idle['tool_response'] as object), totalToolUseCount: 0 } };
      })(),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ outcome: 'completed', tool_calls: 0 }),
    },
    {
      name: 'a run seen working before its result came is filled in by it, not logged twice',
      state: withLog([
        {
          timestamp: '2026-11-25T10:05:00.000Z',
          agent: 'software-developer',
          agent_id: 'a7154de3fc719065c',
          agent_phase: '06-implementation',
          outcome: 'completed',
          completed_at: '2026-11-25T10:07:00.000Z',
          first_tool_at: '2026-11-25T10:05:00.000Z',
          launch_pending: true,
        },
      ]),
      payload: agentResult(P, { subagent_type: 'software-developer', description: 'Implement CSV export' }, 'Done.'),
      expect: 'allow',
      then: ({ state }) => {
        expect(state['skill_usage_log']).toHaveLength(1);
        const [entry] = state['skill_usage_log'];
        expect(entry).toMatchObject({
          timestamp: '2026-11-25T10:05:00.000Z',
          first_tool_at: '2026-11-25T10:05:00.000Z',
          description: 'Implement CSV export',
          status: 'executed',
          outcome: 'completed',
          tool_calls: 1,
        });
        expect(entry.launch_pending).toBeUndefined();
      },
    },
    {
      name: 'a background launch whose run was seen working and already ended stays ended',
      state: withLog([
        {
          timestamp: '2026-11-25T10:05:00.000Z',
          agent: 'software-developer',
          agent_id: AGENT_ID,
          agent_phase: '06-implementation',
          outcome: 'completed',
          completed_at: '2026-11-25T10:05:01.000Z',
          first_tool_at: '2026-11-25T10:05:00.000Z',
          launch_pending: true,
        },
      ]),
      payload: launchOf('software-developer'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({ outcome: 'completed', completed_at: '2026-11-25T10:05:01.000Z', agent_id: AGENT_ID, description: 'Implement CSV export' }),
        ]),
    },
    {
      name: 'a background launch whose run was seen working stays open, keeping its first tool call',
      state: withLog([
        {
          timestamp: '2026-11-25T10:05:00.000Z',
          agent: 'software-developer',
          agent_id: AGENT_ID,
          outcome: 'running',
          first_tool_at: '2026-11-25T10:05:00.000Z',
          launch_pending: true,
        },
      ]),
      payload: launchOf('software-developer'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({ outcome: 'launched', first_tool_at: '2026-11-25T10:05:00.000Z', agent_phase: '06-implementation' }),
        ]),
    },
    {
      name: 'the SubagentStop of a run seen only through its tool calls ends it',
      state: withLog([
        {
          timestamp: '2026-11-25T10:05:00.000Z',
          agent: 'software-developer',
          agent_id: AGENT_ID,
          outcome: 'running',
          first_tool_at: '2026-11-25T10:05:00.000Z',
          launch_pending: true,
        },
      ]),
      payload: { ...BACKGROUND_END, cwd: P },
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ outcome: 'completed', completed_at: expect.any(String), launch_pending: true }),
    },
    {
      name: "the host's task notification ends a run whose SubagentStop was not seen, with its count of tool calls",
      state: withLog([launchedEntry()]),
      payload: taskNotification(P, 'Done.'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log'][0]).toEqual({ ...launchedEntry(), outcome: 'completed', completed_at: expect.any(String), tool_calls: 0 }),
    },
    {
      name: 'a task notification after the SubagentStop adds only the count',
      state: withLog([launchedEntry({ outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z' })]),
      payload: (() => {
        const notification = taskNotification(P, 'Done.');
        return { ...notification, prompt: String(notification['prompt']).replace('<tool_uses>0</tool_uses>', '<tool_uses>4</tool_uses>') };
      })(),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log'][0]).toEqual({ ...launchedEntry(), outcome: 'completed', completed_at: '2026-11-25T10:06:00.000Z', tool_calls: 4 }),
    },
    {
      name: 'a prompt the user typed that mentions a task notification ends nothing',
      state: withLog([launchedEntry()]),
      payload: userPrompt(P, `what does <task-notification><task-id>${AGENT_ID}</task-id> mean?`),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log']).toEqual([launchedEntry()]),
    },
    {
      name: 'logs a cross-phase delegation as such',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'qa-engineer' }, 'Reviewed.'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log'][0]).toMatchObject({
          agent: 'qa-engineer',
          agent_phase: '08-code-review',
          status: 'observed',
          reason: 'cross-phase-usage',
        }),
    },
    ...(
      [
        ['warn', 'warned'],
        ['audit', 'audited'],
        ['strict', 'observed'],
      ] as const
    ).map(([mode, status]) => ({
      name: `a cross-phase delegation in ${mode} mode is ${status}, as the framework logged it`,
      state: { ...workflowState('feature', '06-implementation'), skill_enforcement: { enabled: true, mode } },
      payload: agentResult(P, { subagent_type: 'qa-engineer', description: 'Review the export' }, 'Reviewed.'),
      expect: 'allow' as const,
      then: ({ state }: { state: Record<string, any> }) =>
        expect(state['skill_usage_log'][0]).toMatchObject({
          agent: 'qa-engineer',
          status,
          reason: 'cross-phase-usage',
          enforcement_mode: mode,
          description: 'Review the export',
        }),
    })),
    {
      name: "the phase's own agent is executed whatever the mode",
      state: { ...workflowState('feature', '06-implementation'), skill_enforcement: { enabled: true, mode: 'audit' } },
      payload: agentResult(P, { subagent_type: 'software-developer', description: '' }, 'Done.'),
      expect: 'allow',
      then: ({ state }) => expect(state['skill_usage_log'][0]).toMatchObject({ status: 'executed', reason: 'authorized-phase-match', description: 'N/A' }),
    },
    {
      name: 'logs an ordinary subagent without a phase',
      state: workflowState('feature', '06-implementation'),
      payload: agentResult(P, { subagent_type: 'general-purpose', description: undefined }, 'Found it.'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log'][0]).toMatchObject({
          agent: 'general-purpose',
          agent_phase: '',
          status: 'executed',
          reason: 'allowed',
          description: 'N/A',
        }),
    },
    {
      name: 'logs without a workflow too: the orchestrator that starts one is what delegation-gate looks for',
      state: { state_version: 1, active_workflow: null, skill_usage_log: [] },
      payload: agentResult(P, { subagent_type: 'sdlc-orchestrator' }, 'Workflow initialised.'),
      expect: 'allow',
      then: ({ state }) =>
        expect(state['skill_usage_log']).toEqual([
          expect.objectContaining({ agent: 'sdlc-orchestrator', agent_phase: 'all', status: 'executed', reason: 'authorized-orchestrator' }),
        ]),
    },
    {
      name: 'no state file: nothing is logged (and none is created)',
      payload: agentResult(P, { subagent_type: 'sdlc-orchestrator' }, 'Workflow initialised.'),
      expect: 'allow',
      then: ({ state }) => expect(state).toEqual({}),
    },
  ],
  invalid: [],
});

describe('log-skill-usage with the Stop guards before it', () => {
  it("a SubagentStop that the subagent's loop holds does not mark the subagent completed; its real end does", () => {
    const project = tempDir('isdlc-log-skill-usage-');
    writeJson(`${project}/.isdlc/state.json`, withLog([launchedEntry()]));
    const fails = { type: 'command', name: 'tests', command: ['node', '-e', 'process.exit(1)'] };
    makeLoop(project, { config: { validationRules: [fails], maxIterations: 5 }, sessionId: String(BACKGROUND_END['session_id']), agentId: AGENT_ID });
    const end = { ...BACKGROUND_END, cwd: project };
    const held = hook(project, end);
    expect(decisionOf(held).kind).toBe('block');
    expect(readJson<Record<string, any>>(`${project}/.isdlc/state.json`)['skill_usage_log'][0].outcome).toBe('launched');
    const ended = hook(project, { ...end, last_assistant_message: 'Done.' }, ['--guards', 'log-skill-usage']);
    expect(decisionOf(ended).kind).toBe('allow');
    expect(readJson<Record<string, any>>(`${project}/.isdlc/state.json`)['skill_usage_log'][0].outcome).toBe('completed');
  });
});
