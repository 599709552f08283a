// What an agent's own edit of a state file would change, judged before it is written. The fields isdlc's
// commands and watchers own may change only through them: a stale copy (V7), a regression (V8), a change
// to recorded evidence or to the phase trackers is refused. Inconsistencies already present (V1-V3, V9)
// are reported, not refused.
import { normalizePhaseKey } from '../config/phase-keys.js';
import { asRecord as obj, asText } from '../util/json.js';
import type { IsdlcState, PhaseState } from './schema.js';
import { RECORD_ARTICLE, toolRef } from '../config/agent-operations.js';

export interface EditFinding {
  rule: 'V7' | 'V8' | 'protected' | 'transition';
  field: string;
  detail: string;
  /** The command that makes this change properly. */
  instead: string;
}

export interface EditReview {
  refusals: EditFinding[];
  notes: string[];
}

type Json = unknown;
const STATUS_ORDER: Record<string, number> = { pending: 0, in_progress: 1, completed: 2 };

function canonical(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, Json>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const same = (a: Json, b: Json): boolean => canonical(a) === canonical(b);
const versionOf = (state: IsdlcState): number | undefined => (typeof state.state_version === 'number' ? state.state_version : undefined);

/** Evidence the watchers record and the commands decide on; never an agent's to write. */
const PROTECTED_IN_PHASE: { path: string[]; instead: string }[] = [
  { path: ['iteration_requirements', 'test_iteration'], instead: 'run the tests; isdlc records every run it sees' },
  { path: ['iteration_requirements', 'interactive_elicitation'], instead: 'present the menu to the user; isdlc records their choices' },
  { path: ['constitutional_validation'], instead: RECORD_ARTICLE },
  { path: ['gate_validation'], instead: `${toolRef('gate_check')}, then ${toolRef('phase_complete')}` },
];

const PROTECTED_TOP: { field: string; instead: string }[] = [
  { field: 'iteration_enforcement', instead: 'the user changes enforcement settings themselves' },
  // The test loop's limits (testwatch/limits.ts); the JavaScript framework listed them as protected too.
  { field: 'iteration_config', instead: 'the user changes the iteration limits themselves' },
  { field: 'skill_enforcement', instead: 'the user changes enforcement settings themselves' },
  { field: 'code_review', instead: 'the user changes the review setting themselves' },
  { field: 'recovery_action', instead: `a redo at a supervised review (${toolRef('phase_review')}, decision "redo")` },
  { field: 'skill_usage_log', instead: 'delegate to the agent; isdlc logs every delegation it sees' },
  { field: 'pending_delegation', instead: 'delegate to the orchestrator the command asked for; isdlc clears the marker then' },
  { field: 'pending_escalations', instead: `${toolRef('escalations_clear')}, when the user chose to retry` },
  { field: 'branch_violations', instead: 'tell the user; a person acknowledges commits to a closed branch with `isdlc branch acknowledge`' },
  // What an ended workflow leaves the next (the count floor, an unaccepted test definition): a person's `isdlc tests accept` moves them.
  { field: 'test_count_floor', instead: 'tell the user; a person accepts fewer tests with `isdlc tests accept`' },
  { field: 'test_definition_carried', instead: 'tell the user; a person accepts a changed test definition with `isdlc tests accept`' },
];

const PHASE_TRACKERS = ['status', 'started', 'completed', 'gate_passed', 'timing'];
const WORKFLOW_TRACKERS = ['phases', 'current_phase', 'current_phase_index', 'phase_status', 'supervised_review'];

function at(record: Json, path: string[]): Json {
  return path.reduce<Json>((value, key) => obj(value)[key], record);
}

/** Phases a recorded redo or rollback lets be set back by hand (the V8 exception). */
function recoveringPhases(disk: IsdlcState): Set<string> {
  const phases = new Set<string>();
  // The original framework's retry and rollback scripts keep it in active_workflow; isdlc reads either place.
  for (const recovery of [obj(disk['recovery_action']), obj(obj(disk.active_workflow)['recovery_action'])]) {
    if ((recovery['type'] === 'rollback' || recovery['type'] === 'retry') && typeof recovery['phase'] === 'string')
      phases.add(normalizePhaseKey(recovery['phase']));
  }
  const review = obj(obj(disk.active_workflow)['supervised_review']);
  if (review['status'] === 'redo' && typeof review['phase'] === 'string') phases.add(normalizePhaseKey(review['phase']));
  return phases;
}

function regressions(disk: IsdlcState, incoming: IsdlcState, recovering: Set<string>): EditFinding[] {
  const found: EditFinding[] = [];
  const before = obj(disk.active_workflow);
  const after = obj(incoming.active_workflow);
  const instead = `${toolRef('phase_activate')} and ${toolRef('phase_complete')} move phases forward; a redo goes through a supervised review`;
  if (
    typeof before['current_phase_index'] === 'number' &&
    typeof after['current_phase_index'] === 'number' &&
    after['current_phase_index'] < before['current_phase_index']
  ) {
    found.push({
      rule: 'V8',
      field: 'active_workflow.current_phase_index',
      detail: `goes back from ${before['current_phase_index']} to ${after['current_phase_index']}`,
      instead,
    });
  }
  const check = (field: string, from: Json, to: Json, phase: string): void => {
    if (recovering.has(normalizePhaseKey(phase))) return;
    const a = STATUS_ORDER[String(from)];
    const b = STATUS_ORDER[String(to)];
    if (a !== undefined && b !== undefined && b < a) found.push({ rule: 'V8', field, detail: `goes back from "${String(from)}" to "${String(to)}"`, instead });
  };
  for (const [phase, status] of Object.entries(obj(before['phase_status'])))
    check(`active_workflow.phase_status["${phase}"]`, status, obj(after['phase_status'])[phase], phase);
  for (const [phase, record] of Object.entries(obj(disk.phases)))
    check(`phases["${phase}"].status`, obj(record)['status'], obj(obj(incoming.phases)[phase])['status'], phase);
  return found;
}

function protectedChanges(disk: IsdlcState, incoming: IsdlcState): EditFinding[] {
  const found: EditFinding[] = [];
  for (const { field, instead } of PROTECTED_TOP) {
    if (!same(disk[field], incoming[field])) found.push({ rule: 'protected', field, detail: "is isdlc's to record", instead });
  }
  if (!same(obj(disk.active_workflow)['recovery_action'], obj(incoming.active_workflow)['recovery_action'])) {
    found.push({
      rule: 'protected',
      field: 'active_workflow.recovery_action',
      detail: 'would let phases be set back',
      instead: `a redo at a supervised review (${toolRef('phase_review')}, decision "redo")`,
    });
  }
  // Its baseline moves only with a person's `isdlc tests accept`.
  if (!same(obj(disk.active_workflow)['test_definition'], obj(incoming.active_workflow)['test_definition'])) {
    found.push({
      rule: 'protected',
      field: 'active_workflow.test_definition',
      detail: "is isdlc's record of what defines the test command",
      instead: 'tell the user; a person accepts a change to the test command with `isdlc tests accept`',
    });
  }
  const phases = new Set([...Object.keys(obj(disk.phases)), ...Object.keys(obj(incoming.phases))]);
  for (const phase of phases) {
    const before = obj(disk.phases)[phase];
    const after = obj(incoming.phases)[phase];
    for (const { path, instead } of PROTECTED_IN_PHASE) {
      const from = at(before, path);
      const to = at(after, path);
      if (same(from, to)) continue;
      const approval = obj(to)['escalation_approved'] === true && obj(from)['escalation_approved'] !== true;
      found.push({
        rule: 'protected',
        field: `phases["${phase}"].${path.join('.')}`,
        detail: approval ? 'would approve an escalation' : 'is evidence isdlc records itself',
        instead: approval ? 'a person runs `isdlc escalation approve` in their own terminal' : instead,
      });
    }
  }
  return found;
}

function allCompleted(state: IsdlcState): boolean {
  const workflow = obj(state.active_workflow);
  const phases = Array.isArray(workflow['phases']) ? (workflow['phases'] as Json[]) : [];
  return phases.every(
    (phase) => obj(workflow['phase_status'])[String(phase)] === 'completed' || obj(obj(state.phases)[String(phase)])['status'] === 'completed',
  );
}

function transitionChanges(disk: IsdlcState, incoming: IsdlcState, recovering: Set<string>, alreadyFound: Set<string>): EditFinding[] {
  const found: EditFinding[] = [];
  const add = (field: string, detail: string, instead: string): void => {
    if (!alreadyFound.has(field)) found.push({ rule: 'transition', field, detail, instead });
  };
  const hadWorkflow = Object.keys(obj(disk.active_workflow)).length > 0;
  const hasWorkflow = Object.keys(obj(incoming.active_workflow)).length > 0;
  if (!hadWorkflow && hasWorkflow) {
    add('active_workflow', 'would start a workflow by hand', toolRef('workflow_start'));
    return found;
  }
  if (hadWorkflow && !hasWorkflow) {
    // Finishing by hand after every gate was passed loses nothing the enforcer cannot rebuild.
    if (!allCompleted(disk))
      add(
        'active_workflow',
        'would end a workflow whose phases are not all completed',
        `${toolRef('workflow_finalize')}, or ${toolRef('workflow_cancel')} when the user asks`,
      );
    return found;
  }
  const before = obj(disk.active_workflow);
  const after = obj(incoming.active_workflow);
  const instead = `${toolRef('phase_activate')} (before delegating) and ${toolRef('phase_complete')} (through the gate)`;
  for (const field of WORKFLOW_TRACKERS) {
    if (field === 'phase_status') {
      for (const phase of new Set([...Object.keys(obj(before[field])), ...Object.keys(obj(after[field]))])) {
        if (!recovering.has(normalizePhaseKey(phase)) && !same(obj(before[field])[phase], obj(after[field])[phase]))
          add(`active_workflow.phase_status["${phase}"]`, 'is a phase tracker', instead);
      }
    } else if (!same(before[field], after[field])) {
      add(
        `active_workflow.${field}`,
        field === 'supervised_review' ? "is a person's review decision" : 'is a phase tracker',
        field === 'supervised_review' ? `the user's decision (${toolRef('phase_review')} for review or redo)` : instead,
      );
    }
  }
  for (const field of ['current_phase', 'active_agent']) {
    if (!same(disk[field], incoming[field])) add(field, 'is a phase tracker', instead);
  }
  for (const phase of new Set([...Object.keys(obj(disk.phases)), ...Object.keys(obj(incoming.phases))])) {
    if (recovering.has(normalizePhaseKey(phase))) continue;
    const from = obj(obj(disk.phases)[phase]);
    const to = obj(obj(incoming.phases)[phase]);
    for (const field of PHASE_TRACKERS) {
      if (!same(from[field], to[field])) add(`phases["${phase}"].${field}`, 'is a phase tracker', instead);
    }
  }
  return found;
}

/** V1-V3 and V9: impossible or diverging records in what would be written. */
function consistencyNotes(state: IsdlcState): string[] {
  const notes: string[] = [];
  for (const [phase, value] of Object.entries(obj(state.phases))) {
    const record = value as PhaseState;
    const constitutional = record?.constitutional_validation;
    if (constitutional?.completed === true && !((constitutional.iterations_used ?? 0) >= 1))
      notes.push(`V1: ${phase} constitutional_validation is completed with iterations_used ${constitutional.iterations_used ?? 0}`);
    const elicitation = obj(record?.iteration_requirements?.interactive_elicitation);
    if (elicitation['completed'] === true && !(Number(elicitation['menu_interactions'] ?? 0) >= 1))
      notes.push(`V2: ${phase} interactive_elicitation is completed with ${Number(elicitation['menu_interactions'] ?? 0)} menu interactions`);
    const tests = record?.iteration_requirements?.test_iteration;
    if (tests?.completed === true && !((tests.current_iteration ?? 0) >= 1))
      notes.push(`V3: ${phase} test_iteration is completed with current_iteration ${tests.current_iteration ?? 0}`);
  }
  const statuses = obj(obj(state.active_workflow)['phase_status']);
  for (const [phase, status] of Object.entries(statuses)) {
    const detailed = obj(obj(state.phases)[phase])['status'];
    if (detailed !== undefined && detailed !== status)
      notes.push(`V9: ${phase} is "${asText(status)}" in active_workflow.phase_status but "${asText(detailed)}" in phases`);
  }
  return notes;
}

export function reviewStateEdit(disk: IsdlcState, incoming: IsdlcState): EditReview {
  const diskVersion = versionOf(disk);
  const incomingVersion = versionOf(incoming);
  if (diskVersion !== undefined && incomingVersion !== undefined && incomingVersion < diskVersion) {
    return {
      refusals: [
        {
          rule: 'V7',
          field: 'state_version',
          detail: `is ${incomingVersion} in this write but ${diskVersion} on disk: it was made from a stale read`,
          instead: 're-read the file; better, use the isdlc command for the change',
        },
      ],
      notes: [],
    };
  }
  const refusals: EditFinding[] = [];
  if (diskVersion !== incomingVersion) {
    refusals.push({
      rule: 'protected',
      field: 'state_version',
      detail: `would change from ${String(diskVersion)} to ${String(incomingVersion)}; isdlc counts the versions`,
      instead: `keep it at ${String(diskVersion)}`,
    });
  }
  const recovering = recoveringPhases(disk);
  refusals.push(...regressions(disk, incoming, recovering), ...protectedChanges(disk, incoming));
  refusals.push(...transitionChanges(disk, incoming, recovering, new Set(refusals.map((r) => r.field))));
  return { refusals, notes: consistencyNotes(incoming) };
}
