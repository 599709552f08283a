import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { stop } from '../../test/helpers/payloads.js';
import { fixture, lastActivity } from '../../test/helpers/project.js';

const P = '/project';
const SESSION = String(fixture('stop.json')['session_id']);
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
function pending(extra: Record<string, unknown> = {}, log: Record<string, unknown>[] = []) {
  return {
    state_version: 4,
    active_workflow: null,
    skill_usage_log: log,
    pending_delegation: {
      skill: 'isdlc',
      required_agent: 'sdlc-orchestrator',
      invoked_at: minutesAgo(2),
      args: 'feature "CSV export"',
      session_id: SESSION,
      reminders: 0,
      ...extra,
    },
  };
}
const ended = stop(P, 'I implemented the CSV export directly.');
const cleared = ({ state }: { state: Record<string, any> }) => expect(state['pending_delegation']).toBeNull();

guardTable('delegation-gate', {
  valid: [
    {
      name: 'the orchestrator ran after the command was loaded: the marker is cleared',
      state: pending({}, [{ timestamp: minutesAgo(1), agent: 'sdlc-orchestrator', agent_phase: 'all' }]),
      payload: ended,
      expect: 'allow',
      then: cleared,
    },
    {
      name: 'a marker for /isdlc add (handled inline, no orchestrator) never holds the turn, and is cleared',
      state: pending({ args: 'add "Advance the gate report to the next phase"' }),
      payload: ended,
      expect: 'allow',
      then: cleared,
    },
    {
      name: 'a marker for /isdlc analyze, after a flag, never holds the turn, and is cleared',
      state: pending({ args: '--verbose analyze "hand off flow"' }),
      payload: ended,
      expect: 'allow',
      then: cleared,
    },
    {
      name: 'a marker older than 30 minutes (here 45) belongs to an abandoned command and is dropped',
      state: pending({ invoked_at: minutesAgo(45) }),
      payload: ended,
      expect: 'allow',
      then: cleared,
    },
    {
      name: 'after the cap the turn ends and the user is told (no Stop loop)',
      state: pending({ reminders: 2 }),
      payload: ended,
      expect: 'allow',
      then: ({ state, decision }) => {
        expect(state['pending_delegation']).toBeNull();
        expect(decision.systemMessage).toContain('sdlc-orchestrator never ran, after 2 reminders');
      },
    },
    {
      name: 'stop_hook_active: the host is already continuing because of a Stop hook, so the turn ends',
      state: pending({ reminders: 1 }),
      payload: { ...ended, stop_hook_active: true },
      expect: 'allow',
      then: ({ state, decision }) => {
        expect(state['pending_delegation']).toBeNull();
        expect(decision.systemMessage).toContain('stopped holding the turn');
      },
    },
    {
      name: "another session's marker is not ours to act on",
      state: pending({ session_id: 'another-session' }),
      payload: ended,
      expect: 'allow',
      then: ({ state }) => expect(state['pending_delegation']).not.toBeNull(),
    },
    { name: 'no marker', state: { state_version: 1, pending_delegation: null }, payload: ended, expect: 'allow' },
    { name: 'no state', payload: ended, expect: 'allow' },
    {
      name: 'a subagent ending (SubagentStop) is never held',
      state: pending(),
      payload: { ...fixture('subagent-stop.json'), cwd: P },
      expect: 'allow',
      then: ({ state }) => expect(state['pending_delegation'].reminders).toBe(0),
    },
  ],
  invalid: [
    {
      name: 'no delegation yet: the turn is held, once, with what to do',
      state: pending(),
      payload: ended,
      expect: 'block',
      reasonIncludes: ['isdlc delegation-gate: Delegate to sdlc-orchestrator now', '/isdlc was loaded', 'subagent_type "sdlc-orchestrator"', 'at most 2 times'],
      then: ({ state, decision, project }) => {
        expect(state['pending_delegation'].reminders).toBe(1);
        expect(decision.reason!.length).toBeLessThanOrEqual(320);
        // The activity log says what the wire said: a held Stop is a block.
        expect(lastActivity(project)).toMatchObject({ event: 'Stop', decision: 'block', guard: 'delegation-gate' });
      },
    },
    {
      name: 'a delegation to another agent, or one from before the command, does not count',
      state: pending({}, [
        { timestamp: minutesAgo(1), agent: 'general-purpose' },
        { timestamp: minutesAgo(10), agent: 'sdlc-orchestrator' },
      ]),
      payload: ended,
      expect: 'block',
    },
  ],
});
