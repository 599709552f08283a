import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { writeDone } from '../../test/helpers/payloads.js';
import { testRecord, withTests, workflowState } from '../../test/helpers/states.js';

type State = Record<string, any>;
const P = '/project';
const STATE = '.isdlc/state.json';

/** A fix workflow an agent archived by editing state: every phase completed, history entry without snapshots. */
function archivedByHand(endedAt: string, entry: State = {}): State {
  const state = workflowState('fix', '08-code-review');
  const phases: string[] = state['active_workflow'].phases;
  for (const phase of phases) {
    state['phases'][phase].status = 'completed';
    state['phases'][phase].timing = {
      started_at: '2026-11-25T10:00:00.000Z',
      completed_at: '2026-11-25T10:30:00.000Z',
      wall_clock_minutes: 30,
      retries: phase === '06-implementation' ? 2 : 0,
    };
  }
  withTests(state, '06-implementation', testRecord('passed', 3));
  state['workflow_history'] = [
    { type: 'fix', description: 'crash on export', phases, started_at: '2026-11-25T10:00:00.000Z', completed_at: endedAt, ...entry },
  ];
  state['active_workflow'] = null;
  state['current_phase'] = null;
  return state;
}

const now = (): string => new Date().toISOString();

guardTable('workflow-completion-enforcer', {
  valid: [
    {
      name: 'repairs a hand-archived workflow: snapshots, metrics, pruning',
      state: archivedByHand(now()),
      payload: writeDone(P, STATE, '{}'),
      expect: 'allow',
      contextIncludes: ['archived by editing state', 'mcp__isdlc__workflow_finalize'],
      then: ({ state }) => {
        const entry = state['workflow_history'][0];
        expect(entry.phase_snapshots.map((s: State) => s['key'])).toEqual([
          '01-requirements',
          '02-tracing',
          '05-test-strategy',
          '06-implementation',
          '16-quality-loop',
          '08-code-review',
        ]);
        expect(entry.phase_snapshots[3]).toMatchObject({
          key: '06-implementation',
          status: 'completed',
          retries: 2,
          test_iterations: 3,
          last_test_result: 'passed',
          wall_clock_minutes: 30,
        });
        expect(entry.metrics).toMatchObject({ phases_total: 6, phases_completed: 6, total_retries: 2, test_iterations_total: 3, phase_minutes_total: 180 });
        // The JavaScript framework's keys too; no gate_passed was recorded, so no gate is counted.
        expect(entry.metrics).toMatchObject({
          total_phases: 6,
          gates_passed_first_try: 0,
          gates_required_iteration: 0,
          total_duration_minutes: expect.any(Number),
        });
        expect(entry.repaired_at).toBeTypeOf('string');
        expect(state['phases']['06-implementation'].iteration_requirements).toBeUndefined();
        expect(state['phases']['06-implementation']._pruned_at).toBeTypeOf('string');
      },
    },
    {
      name: 'leaves an entry with snapshots and metrics alone',
      state: archivedByHand(now(), { phase_snapshots: [], metrics: { phases_total: 0 } }),
      payload: writeDone(P, STATE, '{}'),
      expect: 'allow',
      then: ({ state, decision }) => {
        expect(decision.context).toBeUndefined();
        expect(state['workflow_history'][0].repaired_at).toBeUndefined();
      },
    },
    {
      name: 'leaves an entry archived long ago alone (the phase records may be from another workflow)',
      state: archivedByHand('2026-01-01T00:00:00.000Z'),
      payload: writeDone(P, STATE, '{}'),
      expect: 'allow',
      then: ({ state }) => expect(state['workflow_history'][0].phase_snapshots).toBeUndefined(),
    },
    {
      name: 'a workflow still active is not archived',
      state: workflowState('fix', '06-implementation'),
      payload: writeDone(P, STATE, '{}'),
      expect: 'allow',
      then: ({ state }) => expect(state['state_version']).toBe(7),
    },
    {
      name: 'a write to another file does nothing',
      state: archivedByHand(now()),
      payload: writeDone(P, 'src/app.ts', 'x'),
      expect: 'allow',
      then: ({ state }) => expect(state['workflow_history'][0].phase_snapshots).toBeUndefined(),
    },
  ],
  invalid: [],
});
