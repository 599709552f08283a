// `isdlc status`: where the workflow stands, and what the current phase's gate asks for and has seen.
import type { ProjectConfig } from '../config/project-config.js';
import { evaluateGate, type GateEvaluation } from '../gates/evaluate.js';
import { phaseAgent } from '../detect/agents.js';
import { activeWorkflowOf, currentPhaseOf, workflowPhasesOf } from '../state/current-phase.js';
import type { StateLocation } from '../state/locate.js';
import { phaseStatusOf } from '../state/phase-records.js';
import type { IsdlcState } from '../state/schema.js';
import type { StateSnapshot } from '../state/store.js';

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
    phases: { key: string; status: string; agent: string | null }[];
  };
  gate: null | GateEvaluation;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function phaseStatus(state: IsdlcState, phase: string): string {
  return String(phaseStatusOf(state, phase) ?? 'pending');
}

export function buildStatus(location: StateLocation, snapshot: StateSnapshot, config: ProjectConfig): StatusReport {
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
      phases: workflowPhasesOf(state).map((key) => ({ key, status: phaseStatus(state, key), agent: phaseAgent(config.manifest, key) ?? null })),
    };
    if (current) report.gate = evaluateGate({ state, config, phase: current, root: location.root, docsBase: location.docsBase });
  }
  return report;
}

const MARK: Record<string, string> = { completed: '✓', in_progress: '▶', pending: '·' };

export function formatStatus(report: StatusReport): string {
  const lines = [`isdlc status: ${report.project}${report.projectId ? ` (project ${report.projectId})` : ''}`];
  lines.push(`State: ${report.stateFile} (version ${report.stateVersion})${report.stateProblem ? `: ${report.stateProblem}` : ''}`);
  const workflow = report.workflow;
  if (!workflow) {
    lines.push('No active workflow. Start one with `isdlc workflow start <type>`.');
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    `Workflow: ${workflow.type}${workflow.description ? ` "${workflow.description}"` : ''}` +
      `${workflow.startedAt ? `, started ${workflow.startedAt}` : ''}`,
  );
  if (workflow.artifactFolder) lines.push(`Artifact folder: ${workflow.artifactFolder}`);
  const index = workflow.phases.findIndex((phase) => phase.key === workflow.currentPhase);
  lines.push(`Current phase: ${workflow.currentPhase ?? '?'}${index >= 0 ? ` (${index + 1} of ${workflow.phases.length})` : ''}`);
  lines.push('Phases:');
  for (const phase of workflow.phases) {
    lines.push(`  ${MARK[phase.status] ?? '?'} ${phase.key.padEnd(20)} ${phase.status.padEnd(12)} ${phase.agent ?? ''}`.trimEnd());
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
  return `${lines.join('\n')}\n`;
}
