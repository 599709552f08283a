// What a finished workflow leaves in `workflow_history`: one snapshot per phase, taken before pruning
// removes the detail, and the workflow's metrics.
import { phaseOf, phaseStatusOf } from '../state/phase-records.js';
import type { IsdlcState, PhaseState } from '../state/schema.js';
import { finiteNumber as num, asText } from '../util/json.js';
import { minutesBetween } from '../util/minutes.js';

export interface PhaseSnapshot {
  key: string;
  status: string;
  started: string | null;
  completed: string | null;
  gate_passed: string | null;
  /** The framework's field: whole minutes from `started` to `completed`, null when either is unknown. */
  duration_minutes: number | null;
  summary?: string;
  wall_clock_minutes?: number;
  retries: number;
  test_iterations?: number;
  last_test_result?: string;
  constitutional_iterations?: number;
  skipped?: boolean;
}

/**
 * The JavaScript framework's metrics (its collectPhaseSnapshots), which readers of `workflow_history`
 * know, beside isdlc's own. A gate passed at the first try is one whose phase ran its tests at most once.
 */
export interface WorkflowMetrics {
  total_phases: number;
  phases_completed: number;
  /** Whole minutes from the workflow's start to its end; null when its start is unknown. */
  total_duration_minutes: number | null;
  test_iterations_total: number;
  gates_passed_first_try: number;
  gates_required_iteration: number;
  phases_total: number;
  phases_skipped: number;
  total_retries: number;
  phase_minutes_total: number;
  wall_clock_minutes?: number;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The framework's duration: whole minutes, null for an unknown start or an end before it. */
function wholeMinutes(startedAt: unknown, endedAt: Date): number | null {
  const elapsed = endedAt.getTime() - (typeof startedAt === 'string' ? Date.parse(startedAt) : NaN);
  return Number.isFinite(elapsed) && elapsed >= 0 ? Math.round(elapsed / 60_000) : null;
}

export function snapshotOf(key: string, record: PhaseState | undefined, workflowStatus: unknown): PhaseSnapshot {
  const timing = record?.timing ?? {};
  const tests = record?.iteration_requirements?.test_iteration;
  const snapshot: PhaseSnapshot = {
    key,
    status: asText(record?.status ?? workflowStatus, 'pending'),
    started: str(record?.started),
    completed: str(record?.completed),
    gate_passed: str(record?.gate_passed),
    duration_minutes: wholeMinutes(record?.started, new Date(str(record?.completed) ?? NaN)),
    retries: num(timing['retries']) ?? 0,
  };
  if (typeof record?.summary === 'string') snapshot.summary = record.summary;
  const minutes = num(timing['wall_clock_minutes']);
  if (minutes !== undefined) snapshot.wall_clock_minutes = minutes;
  // The framework read `current` where `current_iteration` is missing.
  const iterations = num(tests?.current_iteration) ?? num(tests?.['current']);
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
  const passed = snapshots.filter((s) => s.gate_passed !== null);
  const iterated = passed.filter((s) => (s.test_iterations ?? 0) > 1).length;
  const duration = minutesBetween(startedAt, endedAt);
  const metrics: WorkflowMetrics = {
    total_phases: snapshots.length,
    phases_completed: snapshots.filter((s) => s.status === 'completed').length,
    total_duration_minutes: wholeMinutes(startedAt, endedAt),
    test_iterations_total: snapshots.reduce((sum, s) => sum + (s.test_iterations ?? 0), 0),
    gates_passed_first_try: passed.length - iterated,
    gates_required_iteration: iterated,
    phases_total: snapshots.length,
    phases_skipped: snapshots.filter((s) => s.skipped).length,
    total_retries: snapshots.reduce((sum, s) => sum + s.retries, 0),
    phase_minutes_total: Math.round(snapshots.reduce((sum, s) => sum + (s.wall_clock_minutes ?? 0), 0) * 10) / 10,
  };
  if (duration !== undefined) metrics.wall_clock_minutes = duration;
  return metrics;
}
