// Supervised workflows: after each phase completes, a person reviews it before the next starts. Continue
// lets the workflow go on; review marks that the person is looking; redo re-opens the phase (it runs
// again and counts a retry). Agents may ask for more scrutiny, never grant less: continue is for people
// only.
import type { ProjectConfig } from '../config/project-config.js';
import type { ActiveWorkflow, IsdlcState } from '../state/schema.js';
import { addHistory, cursorOf, pointAt, setPhaseStatus, timingOf } from './cursor.js';
import { WorkflowError } from './start.js';

export const REVIEW_DECISIONS = ['continue', 'review', 'redo'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export interface SupervisedReview {
  phase: string;
  status: 'awaiting' | 'reviewing' | 'approved' | 'redo';
  requested_at: string;
  decided_at?: string;
  decided_by?: string;
  note?: string;
}

export function supervisedReviewOf(workflow: ActiveWorkflow): SupervisedReview | null {
  const review = workflow['supervised_review'];
  return review && typeof review === 'object' && typeof (review as SupervisedReview).phase === 'string' ? (review as SupervisedReview) : null;
}

/** Why the workflow may not move on yet, or null. */
export function reviewBlocking(workflow: ActiveWorkflow): string | null {
  const review = supervisedReviewOf(workflow);
  if (!review || (review.status !== 'awaiting' && review.status !== 'reviewing')) return null;
  return (
    `phase ${review.phase} is waiting for a person's review (supervised workflow, status ${review.status}). ` +
    'Show the user what the phase produced and ask them to choose: continue (they run `isdlc phase review continue` themselves), ' +
    'review (`isdlc phase review review`) or redo (`isdlc phase review redo`)'
  );
}

export function requestReview(workflow: ActiveWorkflow, phase: string, now: Date): void {
  workflow['supervised_review'] = { phase, status: 'awaiting', requested_at: now.toISOString() } satisfies SupervisedReview;
}

export interface ReviewOutcome {
  phase: string;
  decision: ReviewDecision;
  retries?: number;
}

export function decideReview(
  draft: IsdlcState,
  config: ProjectConfig,
  input: { decision: ReviewDecision; by: string; note?: string; now: Date },
): ReviewOutcome {
  const { workflow, phases } = cursorOf(draft);
  const review = supervisedReviewOf(workflow);
  if (!review || (review.status !== 'awaiting' && review.status !== 'reviewing')) {
    throw new WorkflowError('no phase is waiting for a review: reviews are asked for when a phase of a supervised workflow completes');
  }
  const now = input.now.toISOString();
  const decided = { ...review, decided_at: now, decided_by: input.by, ...(input.note ? { note: input.note } : {}) };
  const outcome: ReviewOutcome = { phase: review.phase, decision: input.decision };
  if (input.decision === 'review') {
    workflow['supervised_review'] = { ...decided, status: 'reviewing' };
  } else if (input.decision === 'continue') {
    workflow['supervised_review'] = { ...decided, status: 'approved' };
  } else {
    const index = phases.indexOf(review.phase);
    if (index < 0) throw new WorkflowError(`phase ${review.phase} is no longer part of the workflow`);
    const record = setPhaseStatus(draft, workflow, review.phase, 'in_progress');
    record.completed = null;
    record.gate_passed = null;
    delete record.summary;
    const timing = timingOf(record);
    delete timing['completed_at'];
    delete timing['wall_clock_minutes'];
    timing['retries'] = (typeof timing['retries'] === 'number' ? timing['retries'] : 0) + 1;
    pointAt(draft, workflow, config, review.phase, index);
    workflow['supervised_review'] = { ...decided, status: 'redo' };
    outcome.retries = timing['retries'] as number;
  }
  addHistory(draft, input.now, `Review of ${review.phase}: ${input.decision}${input.note ? ` (${input.note})` : ''}`);
  return outcome;
}
