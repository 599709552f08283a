// `isdlc escalation approve`: a person lets a phase go on after its tests or its constitutional
// validation were escalated.
import { phaseDraft } from '../state/phase-records.js';
import type { IsdlcState } from '../state/schema.js';
import { WorkflowError } from './start.js';

export interface Approval {
  phase: string;
  by: string;
  now: string;
  note?: string;
}

/** `phase: requirement` for every escalation of the active workflow that no person has approved. */
export function openEscalations(state: IsdlcState): string[] {
  const open: string[] = [];
  for (const [phase, record] of Object.entries(state.phases ?? {})) {
    const candidates: [string, Record<string, unknown> | undefined][] = [
      ['test_iteration', record?.iteration_requirements?.test_iteration],
      ['constitutional_validation', record?.constitutional_validation],
    ];
    for (const [name, requirement] of candidates) {
      if (requirement?.['status'] === 'escalated' && requirement['escalation_approved'] !== true) open.push(`${phase}: ${name}`);
    }
  }
  return open;
}

/** Approves whatever is escalated in the phase; returns which requirements that was. */
export function approveEscalation(draft: IsdlcState, approval: Approval): string[] {
  const record = phaseDraft(draft, approval.phase);
  const candidates: [string, Record<string, unknown> | undefined][] = [
    ['test_iteration', record.iteration_requirements?.test_iteration],
    ['constitutional_validation', record.constitutional_validation],
  ];
  const approved: string[] = [];
  for (const [name, requirement] of candidates) {
    if (requirement?.['status'] !== 'escalated' || requirement['escalation_approved'] === true) continue;
    requirement['escalation_approved'] = true;
    requirement['approved_at'] = approval.now;
    requirement['approved_by'] = approval.by;
    if (approval.note) requirement['approval_note'] = approval.note;
    approved.push(name);
  }
  if (approved.length === 0) throw new WorkflowError(`nothing in phase ${approval.phase} is escalated and waiting for approval`);
  return approved;
}
