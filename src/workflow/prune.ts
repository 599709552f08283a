// Keeps state.json small after a workflow ends: bounded logs, and completed phases stripped of the
// detail their snapshot already holds. Newest entries are always kept, so the workflow just archived
// survives its own pruning.
import type { IsdlcState } from '../state/schema.js';

export const PRUNE_LIMITS = Object.freeze({ skillUsageLog: 50, history: 100, workflowHistory: 50, text: 200 });

/** Records that only matter while a phase runs; its snapshot keeps their outcome. */
const PHASE_DETAIL = [
  'iteration_requirements',
  'constitutional_validation',
  'gate_validation',
  'testing_environment',
  'verification_summary',
  'atdd_validation',
];

function cut(text: unknown): unknown {
  return typeof text === 'string' && text.length > PRUNE_LIMITS.text ? `${text.slice(0, PRUNE_LIMITS.text)}...` : text;
}

function keepLast<T>(list: unknown, limit: number): T[] {
  return Array.isArray(list) ? (list.slice(-limit) as T[]) : [];
}

export function pruneAfterWorkflow(draft: IsdlcState, now: Date): void {
  draft.skill_usage_log = keepLast(draft.skill_usage_log, PRUNE_LIMITS.skillUsageLog);
  draft.history = keepLast<Record<string, unknown>>(draft.history, PRUNE_LIMITS.history).map((entry) =>
    entry && typeof entry === 'object' ? { ...entry, action: cut(entry['action']) } : entry,
  );
  draft.workflow_history = keepLast<Record<string, unknown>>(draft.workflow_history, PRUNE_LIMITS.workflowHistory).map((entry) => {
    if (!entry || typeof entry !== 'object') return entry;
    const branch = entry['git_branch'] as { name?: unknown } | null | undefined;
    return { ...entry, description: cut(entry['description']), ...(branch && typeof branch === 'object' ? { git_branch: { name: branch.name } } : {}) };
  });
  for (const record of Object.values(draft.phases ?? {})) {
    if (!record || typeof record !== 'object' || (record.status !== 'completed' && !record.gate_passed)) continue;
    if (!PHASE_DETAIL.some((field) => field in record)) continue;
    for (const field of PHASE_DETAIL) delete record[field];
    record['_pruned_at'] = now.toISOString();
  }
}
