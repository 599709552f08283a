// A workflow archived by hand (not with `isdlc workflow finalize`) may lack its phase snapshots or
// metrics. Within two minutes of the archive they can still be rebuilt from the phase records, which
// pruning has not yet stripped; later the records may describe another workflow.
import type { IsdlcState } from '../state/schema.js';
import { pruneAfterWorkflow } from './prune.js';
import { collectPhaseSnapshots, workflowMetrics } from './snapshots.js';

export const REPAIR_WINDOW_MS = 2 * 60_000;

function endOf(entry: Record<string, unknown>): number {
  for (const field of ['completed_at', 'cancelled_at', 'finalized_at', 'ended_at']) {
    const at = typeof entry[field] === 'string' ? Date.parse(entry[field]) : NaN;
    if (Number.isFinite(at)) return at;
  }
  return NaN;
}

/** The last archived workflow, when it was archived by hand moments ago and lacks snapshots or metrics. */
export function archiveNeedingRepair(state: IsdlcState | null, now: Date): Record<string, unknown> | null {
  if (!state || (state.active_workflow && typeof state.active_workflow === 'object')) return null;
  const history = Array.isArray(state.workflow_history) ? state.workflow_history : [];
  const last = history[history.length - 1];
  if (!last || typeof last !== 'object') return null;
  const entry = last as Record<string, unknown>;
  if (Array.isArray(entry['phase_snapshots']) && entry['metrics'] && typeof entry['metrics'] === 'object') return null;
  const ended = endOf(entry);
  return Number.isFinite(ended) && Math.abs(now.getTime() - ended) <= REPAIR_WINDOW_MS ? entry : null;
}

/** Adds what is missing to the last archived workflow, then prunes; false when there was nothing to do. */
export function repairArchivedWorkflow(draft: IsdlcState, now: Date): boolean {
  const entry = archiveNeedingRepair(draft, now);
  if (!entry) return false;
  const phases = (Array.isArray(entry['phases']) ? entry['phases'] : Object.keys(draft.phases ?? {})).filter((p): p is string => typeof p === 'string');
  if (!Array.isArray(entry['phase_snapshots'])) entry['phase_snapshots'] = collectPhaseSnapshots(draft, phases);
  if (!entry['metrics'] || typeof entry['metrics'] !== 'object') {
    entry['metrics'] = workflowMetrics(entry['phase_snapshots'] as ReturnType<typeof collectPhaseSnapshots>, entry['started_at'], new Date(endOf(entry)));
  }
  entry['repaired_at'] = now.toISOString();
  pruneAfterWorkflow(draft, now);
  return true;
}
