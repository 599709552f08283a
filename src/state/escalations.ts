// `pending_escalations`: what guards blocked, for the orchestrator and the human to see. Bounded (at most
// 20, oldest dropped) and de-duplicated (the same guard, phase and type within 60 seconds is one entry)
// so a loop of retries cannot flood it.
import type { IsdlcState } from './schema.js';

export const MAX_ESCALATIONS = 20;
export const ESCALATION_DEDUP_MS = 60_000;

export interface Escalation {
  type: string;
  hook: string;
  phase: string | null;
  detail: string;
  timestamp: string;
}

export function addEscalation(draft: IsdlcState, escalation: Escalation): void {
  const queue = (Array.isArray(draft.pending_escalations) ? draft.pending_escalations : []) as Escalation[];
  const at = Date.parse(escalation.timestamp);
  const duplicate = queue.some(
    (entry) =>
      entry.type === escalation.type &&
      entry.hook === escalation.hook &&
      entry.phase === escalation.phase &&
      Math.abs(at - Date.parse(entry.timestamp)) < ESCALATION_DEDUP_MS,
  );
  if (!duplicate) queue.push(escalation);
  draft.pending_escalations = queue.slice(-MAX_ESCALATIONS);
}
