// `isdlc status`: where the workflow stands, and what the current phase's gate asks for and has seen.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { artifactTemplatesFor, resolveArtifactPath } from '../config/artifacts.js';
import { describeArticle } from '../config/constitution.js';
import type { ProjectConfig } from '../config/project-config.js';
import { effectivePhaseRequirements } from '../config/requirements.js';
import { phaseAgent } from '../detect/agents.js';
import { activeWorkflowOf, currentPhaseOf, workflowPhasesOf } from '../state/current-phase.js';
import type { StateLocation } from '../state/locate.js';
import type { IsdlcState, PhaseState } from '../state/schema.js';
import type { StateSnapshot } from '../state/store.js';

export interface GateCheckStatus {
  requirement: string;
  enabled: boolean;
  /** What the requirement asks for. */
  wants: string;
  /** What has been recorded so far. */
  seen: string;
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
    phases: { key: string; status: string; agent: string | null }[];
  };
  gate: null | { phase: string; checks: GateCheckStatus[] };
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function phaseStatus(state: IsdlcState, phase: string): string {
  const fromPhases = state.phases?.[phase]?.status;
  const fromWorkflow = activeWorkflowOf(state)?.phase_status?.[phase];
  return String(fromPhases ?? fromWorkflow ?? 'pending');
}

function gateChecks(state: IsdlcState, config: ProjectConfig, phase: string, root: string): GateCheckStatus[] {
  const workflow = activeWorkflowOf(state);
  const wants = effectivePhaseRequirements(config.iterationRequirements, phase, workflow?.type) ?? {};
  const record: PhaseState = state.phases?.[phase] ?? {};
  const checks: GateCheckStatus[] = [];

  const test = wants.test_iteration;
  const testSeen = record.iteration_requirements?.test_iteration;
  checks.push({
    requirement: 'test_iteration',
    enabled: test?.enabled === true,
    wants: `tests pass within ${num(test?.max_iterations) ?? 10} iterations (circuit breaker ${num(test?.circuit_breaker_threshold) ?? 3})`,
    seen: testSeen
      ? `iteration ${num(testSeen.current_iteration) ?? 0}/${num(testSeen.max_iterations) ?? num(test?.max_iterations) ?? '?'}, ` +
        `last result ${String(testSeen.last_test_result ?? 'none')}` +
        (testSeen.last_test_command ? ` (${testSeen.last_test_command})` : '') +
        (testSeen.status ? `, ${testSeen.status}` : '')
      : 'no test run recorded',
  });

  const constitutional = wants.constitutional_validation;
  const constitutionalSeen = record.constitutional_validation;
  const articles = constitutional?.articles ?? [];
  checks.push({
    requirement: 'constitutional_validation',
    enabled: constitutional?.enabled === true,
    wants: articles.length > 0 ? articles.map((id) => describeArticle(config.constitution, id)).join('; ') : 'no articles',
    seen: constitutionalSeen
      ? `${String(constitutionalSeen.status ?? 'pending')}, ${num(constitutionalSeen.iterations_used) ?? 0}/` +
        `${num(constitutionalSeen.max_iterations) ?? num(constitutional?.max_iterations) ?? '?'} iterations, ` +
        `${(constitutionalSeen.articles_checked ?? []).length} of ${articles.length} articles checked`
      : 'not started',
  });

  const elicitation = wants.interactive_elicitation;
  const elicitationSeen = record.iteration_requirements?.interactive_elicitation;
  checks.push({
    requirement: 'interactive_elicitation',
    enabled: elicitation?.enabled === true,
    wants: `at least ${num(elicitation?.min_menu_interactions) ?? 1} menu interactions` +
      (elicitation?.required_final_selection ? `, ending with ${elicitation.required_final_selection.join(' or ')}` : ''),
    seen: elicitationSeen
      ? `${num(elicitationSeen['menu_interactions']) ?? 0} interactions` +
        (elicitationSeen['final_selection'] ? `, final selection ${String(elicitationSeen['final_selection'])}` : '') +
        (elicitationSeen['completed'] === true ? ', completed' : '')
      : 'not started',
  });

  const agent = phaseAgent(config.manifest, phase);
  const delegated = (state.skill_usage_log ?? []).some((entry) => entry.agent === agent && entry.agent_phase === phase);
  checks.push({
    requirement: 'agent_delegation_validation',
    enabled: wants.agent_delegation_validation?.enabled === true,
    wants: agent ? `${agent} ran in this phase` : 'no agent owns this phase in the manifest',
    seen: delegated ? `${agent} delegation logged` : 'no delegation logged',
  });

  const templates = artifactTemplatesFor(config.artifactPaths, phase);
  const resolved = templates.map((template) => resolveArtifactPath(template, workflow?.artifact_folder));
  checks.push({
    requirement: 'artifact_validation',
    enabled: wants.artifact_validation?.enabled === true,
    wants: templates.length > 0 ? resolved.map((path, i) => path ?? `${templates[i]} (no artifact folder)`).join(', ') : 'no artifacts listed',
    seen:
      templates.length > 0
        ? resolved.map((path) => (path && existsSync(join(root, path)) ? `${path} present` : `${path ?? '?'} missing`)).join(', ')
        : '-',
  });
  return checks;
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
    if (current) report.gate = { phase: current, checks: gateChecks(state, config, current, location.root) };
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
    lines.push(`Gate checks for ${report.gate.phase}:`);
    for (const check of report.gate.checks) {
      if (!check.enabled) {
        lines.push(`  - ${check.requirement}: not required`);
        continue;
      }
      lines.push(`  - ${check.requirement}: ${check.wants}`);
      lines.push(`      seen: ${check.seen}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
