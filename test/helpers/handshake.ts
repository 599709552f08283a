// The phase handshake driven the way an orchestrating agent and its user drive it: isdlc commands for
// the transitions, the hook command `isdlc init` registered for everything the agent does, and the
// state checklists asserted at each boundary.
import { join } from 'node:path';
import { expect } from 'vitest';
import bundledRequirements from '../../src/config/defaults/iteration-requirements.json';
import bundledWorkflows from '../../src/config/defaults/workflows.json';
import { effectivePhaseRequirements } from '../../src/config/requirements.js';
import { agentCall, agentResult, bashPassed, runnerOutput, stop, subagentWrite, userPrompt } from './payloads.js';
import { cli, decisionOf, readJson, writeFile, writeJson, type Decision, type Run } from './project.js';
import { answerAsRegistered } from './registered-hook.js';

export type State = Record<string, any>;

/**
 * The phase → agent table of the JavaScript framework (its PHASE_AGENT_MAP), written out here on its
 * own so that `active_agent` is checked against the old contract, not against our own map.
 */
export const PHASE_AGENT_MAP: Record<string, string> = {
  '01-requirements': 'requirements-analyst',
  '02-impact-analysis': 'impact-analysis-orchestrator',
  '02-tracing': 'tracing-orchestrator',
  '03-architecture': 'solution-architect',
  '04-design': 'system-designer',
  '05-test-strategy': 'test-design-engineer',
  '06-implementation': 'software-developer',
  '07-testing': 'integration-tester',
  '08-code-review': 'qa-engineer',
  '09-validation': 'security-compliance-auditor',
  '10-cicd': 'cicd-engineer',
  '11-local-testing': 'environment-builder',
  '12-remote-build': 'environment-builder',
  '12-test-deploy': 'deployment-engineer-staging',
  '13-production': 'release-manager',
  '14-operations': 'site-reliability-engineer',
  '15-upgrade-plan': 'upgrade-engineer',
  '15-upgrade-execute': 'upgrade-engineer',
  '16-quality-loop': 'quality-loop-engineer',
};

export const stateFile = (dir: string, project?: string): string => join(dir, '.isdlc', ...(project ? ['projects', project] : []), 'state.json');
export const stateOf = (dir: string, project?: string): State => readJson(stateFile(dir, project));

/** `isdlc ARGS` in the project; must succeed. Parses --json output. */
export function isdlc(dir: string, args: string[], env: Record<string, string> = {}): State {
  const run = cli([...args, '--json'], { cwd: dir, env });
  expect(run.status, `isdlc ${args.join(' ')}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as State;
}

/** `isdlc ARGS` that must be refused (exit 1) without touching state; returns what it said. */
export function refused(dir: string, args: string[], options: { env?: Record<string, string>; status?: number; project?: string } = {}): string {
  const before = JSON.stringify(stateOf(dir, options.project));
  const run: Run = cli(args, { cwd: dir, ...(options.env ? { env: options.env } : {}) });
  expect(run.status, `isdlc ${args.join(' ')} should be refused; stdout: ${run.stdout}`).toBe(options.status ?? 1);
  expect(JSON.stringify(stateOf(dir, options.project)), 'a refused command leaves state as it was').toBe(before);
  return run.stderr;
}

export function send(dir: string, payload: Record<string, unknown>, env: Record<string, string> = {}): Decision {
  const run = answerAsRegistered(dir, { ...payload, cwd: payload['cwd'] ?? dir }, env);
  expect(run.status, run.stderr).toBe(0);
  return decisionOf(run);
}

/** Project config: workflows with the given phase lists (the rest as bundled). */
export function useWorkflows(dir: string, phases: Record<string, string[]>): void {
  const workflows = structuredClone(bundledWorkflows) as State;
  for (const [type, list] of Object.entries(phases)) workflows['workflows'][type] = { ...(workflows['workflows'][type] ?? {}), phases: list };
  writeJson(join(dir, '.isdlc/config/workflows.json'), workflows);
}

/** The bundled requirements with every check switched off, to switch single checks back on. */
export function noRequirements(): State {
  const requirements = structuredClone(bundledRequirements) as State;
  for (const phase of Object.values<State>(requirements['phase_requirements'])) {
    for (const value of Object.values(phase)) if (value && typeof value === 'object' && 'enabled' in value) value['enabled'] = false;
  }
  requirements['workflow_overrides'] = {};
  return requirements;
}

/** Project config in which no phase requires anything: for tests about the trackers, not the gates. */
export function useNoRequirements(dir: string): void {
  writeJson(join(dir, '.isdlc/config/iteration-requirements.json'), noRequirements());
}

/** Every tracker agrees. */
export function expectTrackersAgree(state: State): void {
  const workflow = state['active_workflow'];
  if (!workflow) return;
  const phases: string[] = workflow.phases;
  expect(state['current_phase'], 'top-level current_phase = active_workflow.current_phase').toBe(workflow.current_phase);
  expect(workflow.current_phase_index).toBeGreaterThanOrEqual(0);
  expect(workflow.current_phase_index).toBeLessThanOrEqual(phases.length);
  for (const phase of phases)
    expect(state['phases'][phase]?.status ?? 'pending', `phases["${phase}"].status = phase_status`).toBe(workflow.phase_status[phase]);
  phases.forEach((phase, i) => {
    if (i < workflow.current_phase_index) expect(workflow.phase_status[phase], `${phase} is before the index`).toBe('completed');
    if (i > workflow.current_phase_index) expect(workflow.phase_status[phase], `${phase} is after the index`).toBe('pending');
  });
  expect(workflow.phase_status[workflow.current_phase], 'the current phase is never pending').not.toBe('pending');
  expect(state['active_agent']).toBe(PHASE_AGENT_MAP[workflow.current_phase] ?? null);
}

/** The fields to check after an activation (step 3c-prime of the /isdlc phase loop). */
export function expectActivated(before: State, after: State, phase: string, index: number): void {
  const workflow = after['active_workflow'];
  expect(workflow.current_phase).toBe(phase);
  expect(workflow.phase_status[phase]).toBe('in_progress');
  expect(workflow.current_phase_index).toBe(index);
  expect(after['phases'][phase].status).toBe('in_progress');
  expect(Date.parse(after['phases'][phase].started)).not.toBeNaN();
  expect(typeof after['phases'][phase].timing.started_at).toBe('string');
  expect(after['current_phase']).toBe(phase);
  expect(after['active_agent']).toBe(PHASE_AGENT_MAP[phase]);
  expect(after['state_version']).toBe(before['state_version'] + 1);
  expectTrackersAgree(after);
}

/** The fields to check after a completion (step 3e of the /isdlc phase loop), and those it must not change. */
export function expectCompleted(before: State, after: State, phase: string): void {
  const workflow = after['active_workflow'];
  const next: string | undefined = workflow.phases[before['active_workflow'].current_phase_index + 1];
  expect(workflow.phase_status[phase]).toBe('completed');
  expect(workflow.current_phase_index).toBe(before['active_workflow'].current_phase_index + 1);
  expect(after['phases'][phase].status).toBe('completed');
  expect(typeof after['phases'][phase].summary).toBe('string');
  expect(after['phases'][phase].summary.length).toBeGreaterThan(0);
  expect(after['phases'][phase].summary.length).toBeLessThanOrEqual(150);
  expect(typeof after['phases'][phase].timing.completed_at).toBe('string');
  expect(after['phases'][phase].timing.wall_clock_minutes).toBeGreaterThanOrEqual(0);
  expect(after['state_version']).toBe(before['state_version'] + 1);
  // Not the next phase's activation (BUG-0006).
  expect(workflow.current_phase).toBe(phase);
  expect(after['current_phase']).toBe(phase);
  expect(after['active_agent']).toBe(before['active_agent']);
  if (next) {
    expect(workflow.phase_status[next]).toBe('pending');
    expect(after['phases'][next].status).toBe('pending');
  }
}

const MENU = 'Here is the draft.\n[A] Adjust [R] Refine [C] Continue [S] Save';

/** Produces, through the hook and the CLI, whatever evidence the phase's gate still lacks. */
export function satisfyGate(dir: string, phase: string, options: { type: string; project?: string }): void {
  const required = effectivePhaseRequirements(bundledRequirements, phase, options.type);
  const articles = required?.constitutional_validation?.articles ?? [];
  const projectArgs = options.project ? ['--project', options.project] : [];
  for (let round = 0; round < 3; round += 1) {
    const run = cli(['gate', 'check', '--json', ...projectArgs], { cwd: dir });
    const gate = JSON.parse(run.stdout) as { open: boolean; phase: string; unmet: { requirement: string; detail: string }[] };
    expect(gate.phase).toBe(phase);
    if (gate.open) return;
    for (const check of gate.unmet) {
      if (check.requirement === 'agent_delegation') {
        const call = { subagent_type: PHASE_AGENT_MAP[phase], prompt: `Carry out ${phase}.` };
        expect(send(dir, agentCall(dir, call)).kind, `delegation to ${PHASE_AGENT_MAP[phase]}`).toBe('allow');
        const recorded = agentResult(dir, call, `${phase} work is done.`);
        // Each run has an id of its own; the recorded one would name an earlier phase's ended run.
        const result = { ...recorded, tool_response: { ...(recorded['tool_response'] as object), agentId: `a${phase.replace(/\W/g, '')}${round}` } };
        for (const call of subagentWrite(dir, result)) expect(send(dir, call).kind, `${phase}: the subagent's write`).toBe('allow');
        send(dir, result);
      } else if (check.requirement === 'test_iteration') {
        send(dir, bashPassed(dir, 'npm test', runnerOutput('jest', 'passing')));
      } else if (check.requirement === 'constitutional_validation') {
        for (const article of articles)
          isdlc(dir, ['constitution', 'record', '--article', article, '--result', 'compliant', '--note', 'checked', ...projectArgs]);
      } else if (check.requirement === 'interactive_elicitation') {
        for (const answer of ['a: add the CSV format', 'r: tighten the wording', 'c', 'save']) {
          send(dir, stop(dir, MENU));
          send(dir, userPrompt(dir, answer));
        }
      } else if (check.requirement === 'artifact_presence') {
        // A group of variants ("a.yaml (or a.md)") is satisfied by its first.
        for (const path of check.detail.replace(/^missing: /, '').split(', ')) writeFile(join(dir, path.split(' (or ')[0]!), `# ${phase}\n`);
      }
    }
  }
  throw new Error(`the gate of ${phase} stayed closed`);
}

/** `isdlc phase activate`, with the checklist after step 3c-prime; a retry keeps the first start and counts. */
export function activate(dir: string, options: { project?: string; phase?: string } = {}): State {
  const scope = options.project ? ['--project', options.project] : [];
  const before = stateOf(dir, options.project);
  const result = isdlc(dir, ['phase', 'activate', ...(options.phase ? [options.phase] : []), ...scope]);
  const after = stateOf(dir, options.project);
  expectActivated(before, after, result['phase'], result['index']);
  const timing = after['phases'][result['phase']].timing;
  if (result['retry']) {
    expect(after['phases'][result['phase']].started, 'a retry keeps the first start').toBe(before['phases'][result['phase']].started);
    expect(timing.started_at).toBe(before['phases'][result['phase']].timing.started_at);
    expect(timing.retries, 'a retry is counted').toBe((before['phases'][result['phase']].timing?.retries ?? 0) + 1);
  } else {
    expect(timing.retries).toBe(0);
  }
  return result;
}

/** `isdlc phase complete`, with the checklists after step 3e and of what step 3e must not change. */
export function complete(dir: string, summary: string, options: { project?: string } = {}): State {
  const scope = options.project ? ['--project', options.project] : [];
  const before = stateOf(dir, options.project);
  const phase = before['active_workflow'].current_phase;
  const result = isdlc(dir, ['phase', 'complete', '--summary', summary, ...scope]);
  expect(result['phase']).toBe(phase);
  expectCompleted(before, stateOf(dir, options.project), phase);
  return result;
}
