// `isdlc phase complete` (STEP 3e of the /isdlc command): only through an open gate. The phase is marked
// completed in both trackers and the index moves on; the next phase is NOT activated here (BUG-0006:
// activation belongs to `phase activate`, so nothing writes the same fields twice). `isdlc phase skip`
// is a person's override of a closed gate.
import type { ProjectConfig } from '../config/project-config.js';
import { describeUnmet, evaluateGate, type GateEvaluation } from '../gates/evaluate.js';
import { clockOf, runningPhaseRuns } from '../state/agent-runs.js';
import { phaseStatusOf } from '../state/phase-records.js';
import type { IsdlcState } from '../state/schema.js';
import { minutesBetween } from '../util/minutes.js';
import type { MutationRun } from '../verify/mutation-run.js';
import type { GateRun } from '../verify/gate-run.js';
import { addHistory, cursorOf, setPhaseStatus, timingOf, type Cursor } from './cursor.js';
import { requestReview } from './review.js';
import { WorkflowError } from './start.js';

export const SUMMARY_LIMIT = 150;

export interface CompleteResult {
  phase: string;
  index: number;
  next: string | null;
  wallClockMinutes?: number;
  reviewRequested: boolean;
  gate?: GateEvaluation;
}

function cutSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= SUMMARY_LIMIT ? flat : `${flat.slice(0, SUMMARY_LIMIT - 1).trimEnd()}…`;
}

function runningPhase(draft: IsdlcState, cursor: Cursor, verb: string): string {
  const { workflow, phases, index, atIndex } = cursor;
  if (atIndex === null) throw new WorkflowError(`every phase of the ${String(workflow.type ?? '')} workflow is completed: run \`isdlc workflow finalize\``);
  const status = phaseStatusOf(draft, atIndex);
  if (status !== 'in_progress') {
    throw new WorkflowError(
      `phase ${atIndex} (${index + 1} of ${phases.length}) is ${String(status ?? 'pending')}, not in progress, so there is nothing to ${verb}: ` +
        'run `isdlc phase activate` first',
    );
  }
  return atIndex;
}

/** Marks the phase done and moves the index past it; returns what the next phase is. */
function finishPhase(draft: IsdlcState, cursor: Cursor, phase: string, now: Date): { next: string | null; minutes?: number } {
  const { workflow, phases, index } = cursor;
  const record = setPhaseStatus(draft, workflow, phase, 'completed');
  record.completed = now.toISOString();
  const timing = timingOf(record);
  timing['completed_at'] = now.toISOString();
  const minutes = minutesBetween(timing['started_at'] ?? record.started, now);
  if (minutes !== undefined) timing['wall_clock_minutes'] = minutes;
  workflow.current_phase_index = index + 1;
  if (workflow['supervised'] === true) requestReview(workflow, phase, now);
  return { next: phases[index + 1] ?? null, ...(minutes !== undefined ? { minutes } : {}) };
}

/**
 * A phase is not done while its own agent is still at work (a background run, Claude Code's default from
 * 2.1.198, returns to the caller at once): whatever it writes after the phase moved on would land in the
 * next phase's time. Every route to completion (the CLI, the MCP tool) comes through completePhase.
 */
export function refuseWhilePhaseAgentRuns(draft: IsdlcState, phase: string, now: Date): void {
  const running = runningPhaseRuns(draft.skill_usage_log, phase, now);
  if (running.length === 0) return;
  const named = running.map((run) => `${run.agent} (running since ${clockOf(run.since)}, ${run.minutes} min)`).join(', ');
  throw new WorkflowError(
    `${phase} cannot be completed while its agent is still running: ${named}. Wait for it to finish (its end arrives as a ` +
      'task notification), then run `isdlc phase complete` again.',
  );
}

export function completePhase(
  draft: IsdlcState,
  config: ProjectConfig,
  input: { summary?: string; now: Date; root: string; docsBase?: string; gateRun?: GateRun; mutationRun?: MutationRun },
): CompleteResult {
  const cursor = cursorOf(draft);
  const phase = runningPhase(draft, cursor, 'complete');
  refuseWhilePhaseAgentRuns(draft, phase, input.now);
  const gate = evaluateGate({
    state: draft,
    config,
    phase,
    root: input.root,
    docsBase: input.docsBase,
    now: input.now,
    ...(input.gateRun ? { gateRun: input.gateRun } : {}),
    ...(input.mutationRun ? { mutationRun: input.mutationRun } : {}),
  });
  if (!gate.open) {
    throw new WorkflowError(
      `the gate of ${phase} is closed, so the phase stays in progress:\n${describeUnmet(gate)}\nRun \`isdlc gate check\` to see it again once that is done.`,
    );
  }
  const record = draft.phases![phase]!;
  record.gate_passed = input.now.toISOString();
  record.gate_validation = { status: 'passed', passed_at: input.now.toISOString(), checks: gate.checks.map((check) => check.requirement) };
  if (input.summary !== undefined && input.summary.trim()) record.summary = cutSummary(input.summary);
  const { next, minutes } = finishPhase(draft, cursor, phase, input.now);
  addHistory(draft, input.now, `Completed phase ${phase}${record.summary ? `: ${record.summary}` : ''}`);
  return {
    phase,
    index: cursor.index + 1,
    next,
    ...(minutes !== undefined ? { wallClockMinutes: minutes } : {}),
    reviewRequested: cursor.workflow['supervised'] === true,
    gate,
  };
}

export function skipPhase(draft: IsdlcState, input: { reason: string; by: string; now: Date }): CompleteResult {
  const cursor = cursorOf(draft);
  const phase = runningPhase(draft, cursor, 'skip');
  const record = draft.phases![phase]!;
  record.skipped = { by: input.by, reason: input.reason, at: input.now.toISOString() };
  record.summary = cutSummary(`Skipped by ${input.by}: ${input.reason}`);
  draft.pending_escalations = [];
  const { next, minutes } = finishPhase(draft, cursor, phase, input.now);
  addHistory(draft, input.now, `Skipped phase ${phase} (gate overridden by ${input.by}): ${input.reason}`);
  return {
    phase,
    index: cursor.index + 1,
    next,
    ...(minutes !== undefined ? { wallClockMinutes: minutes } : {}),
    reviewRequested: cursor.workflow['supervised'] === true,
  };
}
