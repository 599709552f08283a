// What a finished workflow leaves in `workflow_history` (seed 003 IR-010 AC-010b/c): one snapshot per
// phase, taken before pruning removes the detail, and the workflow's metrics.
import { phaseOf, phaseStatusOf } from '../state/phase-records.js';
import type { IsdlcState, PhaseState } from '../state/schema.js';
import { finiteNumber as num } from '../util/json.js';
import { minutesBetween } from '../util/minutes.js';

export interface PhaseSnapshot {
  key: string;
  status: string;
  started: string | null;
  completed: string | null;
  gate_passed: string | null;
  summary?: string;
  wall_clock_minutes?: number;
  retries: number;
  test_iterations?: number;
  last_test_result?: string;
  constitutional_iterations?: number;
  skipped?: boolean;
}

export interface WorkflowMetrics {
  phases_total: number;
  phases_completed: number;
  phases_skipped: number;
  total_retries: number;
  test_iterations_total: number;
  phase_minutes_total: number;
  wall_clock_minutes?: number;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function snapshotOf(key: string, record: PhaseState | undefined, workflowStatus: unknown): PhaseSnapshot {
  const timing = record?.timing ?? {};
  const tests = record?.iteration_requirements?.test_iteration;
  const snapshot: PhaseSnapshot = {
    key,
    status: String(record?.status ?? workflowStatus ?? 'pending'),
    started: str(record?.started),
    completed: str(record?.completed),
    gate_passed: str(record?.gate_passed),
    retries: num(timing['retries']) ?? 0,
  };
  if (typeof record?.summary === 'string') snapshot.summary = record.summary;
  const minutes = num(timing['wall_clock_minutes']);
  if (minutes !== undefined) snapshot.wall_clock_minutes = minutes;
  const iterations = num(tests?.current_iteration);
  if (iterations !== undefined) snapshot.test_iterations = iterations;
  if (typeof tests?.last_test_result === 'string') snapshot.last_test_result = tests.last_test_result;
  const constitutional = num(record?.constitutional_validation?.iterations_used);
  if (constitutional !== undefined) snapshot.constitutional_iterations = constitutional;
  if (record?.['skipped']) snapshot.skipped = true;
  return snapshot;
}

export function collectPhaseSnapshots(state: IsdlcState, phases: string[]): PhaseSnapshot[] {
  return phases.map((key) => snapshotOf(key, phaseOf(state, key), phaseStatusOf(state, key)));
}

export function workflowMetrics(snapshots: PhaseSnapshot[], startedAt: unknown, endedAt: Date): WorkflowMetrics {
  const metrics: WorkflowMetrics = {
    phases_total: snapshots.length,
    phases_completed: snapshots.filter((s) => s.status === 'completed').length,
    phases_skipped: snapshots.filter((s) => s.skipped).length,
    total_retries: snapshots.reduce((sum, s) => sum + s.retries, 0),
    test_iterations_total: snapshots.reduce((sum, s) => sum + (s.test_iterations ?? 0), 0),
    phase_minutes_total: Math.round(snapshots.reduce((sum, s) => sum + (s.wall_clock_minutes ?? 0), 0) * 10) / 10,
  };
  const minutes = minutesBetween(startedAt, endedAt);
  if (minutes !== undefined) metrics.wall_clock_minutes = minutes;
  return metrics;
}
