// `isdlc status` and the MCP tool `status`: where the workflow stands, and what the current phase's gate
// asks for and has seen.
import type { ProjectConfig } from '../config/project-config.js';
import { evaluateGate, type GateEvaluation } from '../gates/evaluate.js';
import { phaseAgent } from '../config/agents.js';
import { activeWorkflowOf, currentPhaseOf, workflowPhasesOf } from '../state/current-phase.js';
import type { StateLocation } from '../state/locate.js';
import type { Escalation } from '../state/escalations.js';
import { phaseOf, phaseStatusOf } from '../state/phase-records.js';
import type { ActiveWorkflow, IsdlcState } from '../state/schema.js';
import { supervisedReviewOf } from './review.js';
import type { StateSnapshot } from '../state/store.js';
import { finiteNumber as num } from '../util/json.js';
import { WITHOUT_SANDBOX } from '../integrity/tamper-messages.js';

/** What keeps the agent's shell from isdlc's files, as the agent host's settings say; the face asks the host. */
export interface Protection {
  sandboxed: boolean;
  why?: string;
  gap?: string;
  /** Host by host, where the project is set up for more than one (the agent may work in either). */
  hosts?: (Omit<Protection, 'hosts'> & { host: string })[];
}

export interface StatusReport {
  project: string;
  projectId?: string;
  stateFile: string;
  stateVersion: number;
  stateProblem?: string;
  workflow: null | {
    type: string;
    description: string;
    artifactFolder: string | null;
    startedAt: string | null;
    currentPhase: string | null;
    currentPhaseIndex: number | null;
    phases: PhaseLine[];
    /** A supervised workflow's review at the last phase boundary. */
    review: null | { phase: string; status: string };
  };
  gate: null | GateEvaluation;
  escalations: Escalation[];
  /** What moves the workflow on from here. */
  nextStep: string | null;
  /** Whether the agent's shell runs in the host's sandbox with isdlc's files read-only, why not, and a gap it has. */
  protection: Protection;
}

export interface PhaseLine {
  key: string;
  status: string;
  agent: string | null;
  startedAt: string | null;
  completedAt: string | null;
  wallClockMinutes: number | null;
  retries: number;
  summary: string | null;
  skipped: boolean;
}

function phaseLine(state: IsdlcState, config: ProjectConfig, key: string): PhaseLine {
  const record = phaseOf(state, key);
  const timing = record?.timing ?? {};
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  return {
    key,
    status: String(phaseStatusOf(state, key) ?? 'pending'),
    agent: phaseAgent(config.manifest, key) ?? null,
    startedAt: text(timing['started_at']) ?? text(record?.started),
    completedAt: text(timing['completed_at']) ?? text(record?.completed),
    wallClockMinutes: num(timing['wall_clock_minutes']) ?? null,
    retries: num(timing['retries']) ?? 0,
    summary: text(record?.summary),
    skipped: Boolean(record?.['skipped']),
  };
}

function reported(protection: Omit<Protection, 'hosts'>): Omit<Protection, 'hosts'> {
  return { sandboxed: protection.sandboxed, ...(protection.why ? { why: protection.why } : {}), ...(protection.gap ? { gap: protection.gap } : {}) };
}

export function buildStatus(location: StateLocation, snapshot: StateSnapshot, config: ProjectConfig, protection: Protection): StatusReport {
  const state = snapshot.state ?? {};
  const workflow = activeWorkflowOf(state);
  const current = currentPhaseOf(state);
  const report: StatusReport = {
    project: location.root,
    ...(location.projectId ? { projectId: location.projectId } : {}),
    stateFile: location.stateFile,
    stateVersion: snapshot.version,
    workflow: null,
    gate: null,
    escalations: (Array.isArray(state.pending_escalations) ? state.pending_escalations : []) as Escalation[],
    nextStep: null,
    // Only what the report says; a host may know more.
    protection: {
      ...reported(protection),
      ...(protection.hosts && protection.hosts.length > 1 ? { hosts: protection.hosts.map((each) => ({ host: each.host, ...reported(each) })) } : {}),
    },
  };
  if (snapshot.corrupt) report.stateProblem = `${snapshot.corrupt.problem}; kept as ${snapshot.corrupt.keptAs}`;
  else if (!snapshot.state) report.stateProblem = 'no state file: run `isdlc init`';
  if (workflow) {
    report.workflow = {
      type: String(workflow.type ?? '?'),
      description: String(workflow.description ?? ''),
      artifactFolder: typeof workflow.artifact_folder === 'string' ? workflow.artifact_folder : null,
      startedAt: typeof workflow.started_at === 'string' ? workflow.started_at : null,
      currentPhase: current,
      currentPhaseIndex: num(workflow.current_phase_index) ?? null,
      phases: workflowPhasesOf(state).map((key) => phaseLine(state, config, key)),
      review: reviewOf(workflow),
    };
    // The gate that matters is the one of the phase in progress; a completed phase's gate has passed.
    if (current && phaseStatusOf(state, current) === 'in_progress')
      report.gate = evaluateGate({ state, config, phase: current, root: location.root, docsBase: location.docsBase });
    report.nextStep = nextStepOf(report.workflow, report.gate);
  }
  return report;
}

function nextStepOf(workflow: NonNullable<StatusReport['workflow']>, gate: GateEvaluation | null): string {
  if (workflow.review && (workflow.review.status === 'awaiting' || workflow.review.status === 'reviewing')) {
    return `a person reviews ${workflow.review.phase}: \`isdlc phase review continue\` (in their own terminal), or redo`;
  }
  const index = workflow.currentPhaseIndex ?? 0;
  const reached = workflow.phases[index];
  if (!reached) return '`isdlc workflow finalize` (every phase is completed)';
  if (reached.status !== 'in_progress') return `\`isdlc phase activate\` starts ${reached.key}, then delegate to ${reached.agent ?? 'its agent'}`;
  return gate?.open
    ? `\`isdlc phase complete --summary "..."\` (the gate of ${reached.key} is open)`
    : `meet the gate of ${reached.key} (above), then \`isdlc phase complete\``;
}

function reviewOf(workflow: ActiveWorkflow): { phase: string; status: string } | null {
  const review = supervisedReviewOf(workflow);
  return review ? { phase: review.phase, status: review.status } : null;
}

function protectionText(state: Omit<Protection, 'hosts'>): string {
  if (!state.sandboxed) return `not sandboxed: ${state.why ?? 'unknown'}. ${WITHOUT_SANDBOX}`;
  if (state.gap) return `sandboxed, with a gap: ${state.gap.split(', so ')[0]} (\`isdlc doctor\` says more)`;
  return "sandboxed (the agent's shell cannot write isdlc's files)";
}

/** `Protection: sandboxed` or `Protection: not sandboxed: why`, for `status`; a line per host where there are several. */
function protectionLines(state: Protection): string[] {
  if (!state.hosts || state.hosts.length < 2) return [`Protection: ${protectionText(state)}`];
  return ['Protection (the agent may work in either host):', ...state.hosts.map((each) => `  ${each.host}: ${protectionText(each)}`)];
}

const MARK: Record<string, string> = { completed: '✓', in_progress: '▶', pending: '·' };

function minutesSince(iso: string, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 60_000));
  return Number.isFinite(minutes) ? `${minutes} min ago` : iso;
}

function timingText(phase: PhaseLine, now: Date): string {
  const retries = phase.retries > 0 ? `, ${phase.retries} retr${phase.retries === 1 ? 'y' : 'ies'}` : '';
  if (phase.status === 'completed') {
    const took = phase.wallClockMinutes !== null ? `took ${phase.wallClockMinutes} min` : 'completed';
    return `${phase.skipped ? 'skipped; ' : ''}${took}${retries}`;
  }
  if (phase.status === 'in_progress' && phase.startedAt) return `started ${minutesSince(phase.startedAt, now)}${retries}`;
  return retries.slice(2);
}

export function formatStatus(report: StatusReport): string {
  const lines = [`isdlc status: ${report.project}${report.projectId ? ` (project ${report.projectId})` : ''}`];
  lines.push(`State: ${report.stateFile} (version ${report.stateVersion})${report.stateProblem ? `: ${report.stateProblem}` : ''}`);
  lines.push(...protectionLines(report.protection));
  const workflow = report.workflow;
  if (!workflow) {
    lines.push('No active workflow. Start one with `isdlc workflow start <type>`.');
    return `${[...lines, ...escalationLines(report)].join('\n')}\n`;
  }
  lines.push(
    `Workflow: ${workflow.type}${workflow.description ? ` "${workflow.description}"` : ''}` + `${workflow.startedAt ? `, started ${workflow.startedAt}` : ''}`,
  );
  if (workflow.artifactFolder) lines.push(`Artifact folder: ${workflow.artifactFolder}`);
  const index = workflow.phases.findIndex((phase) => phase.key === workflow.currentPhase);
  const currentStatus = index >= 0 && workflow.phases[index]!.status !== 'in_progress' ? `, ${workflow.phases[index]!.status}` : '';
  lines.push(`Current phase: ${workflow.currentPhase ?? '?'}${index >= 0 ? ` (${index + 1} of ${workflow.phases.length}${currentStatus})` : ''}`);
  lines.push('Phases:');
  const now = new Date();
  for (const phase of workflow.phases) {
    lines.push(
      `  ${MARK[phase.status] ?? '?'} ${phase.key.padEnd(20)} ${phase.status.padEnd(12)} ${(phase.agent ?? '').padEnd(30)} ${timingText(phase, now)}`.trimEnd(),
    );
  }
  if (workflow.review && (workflow.review.status === 'awaiting' || workflow.review.status === 'reviewing')) {
    lines.push(
      `Review: ${workflow.review.phase} is ${workflow.review.status === 'awaiting' ? 'waiting for' : 'under'} a person's review (isdlc phase review continue | review | redo)`,
    );
  }
  if (report.gate) {
    const gate = report.gate;
    lines.push(`Gate of ${gate.phase}: ${gate.open ? 'open' : `closed (${gate.unmet.length} of ${gate.checks.length} unmet)`}`);
    if (gate.checks.length === 0) lines.push('  nothing is required in this phase');
    for (const check of gate.checks) {
      lines.push(`  ${check.met ? '✓' : '✗'} ${check.requirement}: ${check.detail}`);
      if (!check.met && check.action) lines.push(`      next: ${check.action}`);
    }
  }
  lines.push(...escalationLines(report));
  if (report.nextStep) lines.push(`Next: ${report.nextStep}`);
  return `${lines.join('\n')}\n`;
}

function escalationLines(report: StatusReport): string[] {
  if (report.escalations.length === 0) return [];
  return [
    `Open escalations (${report.escalations.length}; \`isdlc escalations --clear\` empties the queue):`,
    ...report.escalations.map((entry) => `  ! ${entry.hook} (${entry.type}${entry.phase ? `, ${entry.phase}` : ''}): ${entry.detail}`),
  ];
}
