// Records and gates that must read as the JavaScript iSDLC framework wrote them, through the
// entry points people and agents use (`isdlc gate check`, `isdlc workflow finalize`, the hook command
// `isdlc init` registered). Artifact paths: the project's artifact-paths.json replaces the requirement's
// paths, and paths in one folder are variants of one artifact. Workflow metrics under the framework's
// keys. Elicitation steps under the framework's names. Skill-usage statuses by enforcement mode.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isdlc, noRequirements, send, stateOf, useNoRequirements, useWorkflows, type State } from '../helpers/handshake.js';
import { agentResult, stop, subagentWrite } from '../helpers/payloads.js';
import { cli, initedProject, writeFile, writeJson } from '../helpers/project.js';
import { workflowState } from '../helpers/states.js';

const FOLDER = 'REQ-0007-csv-export';

function gateCheck(dir: string, phase: string): { open: boolean; checks: { requirement: string; met: boolean; detail: string }[] } {
  const run = cli(['gate', 'check', '--json', '--phase', phase], { cwd: dir });
  return JSON.parse(run.stdout);
}

const artifactCheckOf = (dir: string, phase: string) => gateCheck(dir, phase).checks.find((check) => check.requirement === 'artifact_presence');

/** A project in 04-design where only artifact presence is asked for, the requirement naming `paths`. */
function designProject(paths: string[]): string {
  const dir = initedProject('isdlc-compat-artifacts-');
  const requirements = noRequirements();
  requirements['phase_requirements']['04-design'].artifact_validation = { enabled: true, paths };
  writeJson(join(dir, '.isdlc/config/iteration-requirements.json'), requirements);
  writeJson(join(dir, '.isdlc/state.json'), workflowState('feature', '04-design', { artifactFolder: FOLDER }));
  return dir;
}

describe("artifact paths (the framework's BUG-0020 and its variants)", () => {
  const variants = [`docs/design/{artifact_folder}/interface-spec.yaml`, `docs/design/{artifact_folder}/interface-spec.md`];

  it("the project's artifact-paths.json replaces the requirement's paths; one variant of an artifact suffices", () => {
    const dir = designProject([`docs/old-layout/{artifact_folder}/design-notes.md`]);
    writeJson(join(dir, '.isdlc/config/artifact-paths.json'), { version: '1.0.0', phases: { '04-design': { paths: variants } } });
    writeFile(join(dir, 'docs/design', FOLDER, 'interface-spec.md'), '# Interfaces\n');
    expect(artifactCheckOf(dir, '04-design')).toMatchObject({ met: true, detail: '1 artifact present' });
  });

  it('with no variant written, the gate names every acceptable one, and not the overridden path', () => {
    const dir = designProject([`docs/old-layout/{artifact_folder}/design-notes.md`]);
    writeJson(join(dir, '.isdlc/config/artifact-paths.json'), { version: '1.0.0', phases: { '04-design': { paths: variants } } });
    const check = artifactCheckOf(dir, '04-design')!;
    expect(check.met).toBe(false);
    expect(check.detail).toBe(`missing: docs/design/${FOLDER}/interface-spec.yaml (or interface-spec.md)`);
  });

  it('the same variants listed in iteration-requirements.json are accepted the same way', () => {
    const dir = designProject(variants);
    writeJson(join(dir, '.isdlc/config/artifact-paths.json'), { version: '1.0.0', phases: {} });
    writeFile(join(dir, 'docs/design', FOLDER, 'interface-spec.yaml'), 'openapi: 3.1.0\n');
    expect(artifactCheckOf(dir, '04-design')).toMatchObject({ met: true });
  });

  it("a project's own requirement paths are not replaced by isdlc's bundled artifact-paths", () => {
    const dir = designProject([`docs/design/{artifact_folder}/interface-spec.md`]);
    writeFile(join(dir, 'docs/design', FOLDER, 'interface-spec.md'), '# Interfaces\n');
    // The bundled artifact-paths names docs/requirements/<folder>/module-design.md for 04-design.
    expect(artifactCheckOf(dir, '04-design')).toMatchObject({ met: true });
  });

  it('artifacts in different folders are each required', () => {
    const dir = designProject([]);
    writeJson(join(dir, '.isdlc/config/artifact-paths.json'), {
      version: '1.0.0',
      phases: { '04-design': { paths: [...variants, `docs/requirements/{artifact_folder}/module-design.md`] } },
    });
    writeFile(join(dir, 'docs/design', FOLDER, 'interface-spec.yaml'), 'openapi: 3.1.0\n');
    expect(artifactCheckOf(dir, '04-design')).toMatchObject({ met: false, detail: `missing: docs/requirements/${FOLDER}/module-design.md` });
  });
});

describe("workflow metrics under the framework's keys (collectPhaseSnapshots)", () => {
  it('`isdlc workflow finalize` writes total_phases, phases_completed, total_duration_minutes, test_iterations_total and the gate counts', () => {
    const dir = initedProject('isdlc-compat-metrics-');
    const phases = ['01-requirements', '06-implementation', '08-code-review'];
    useWorkflows(dir, { feature: phases });
    useNoRequirements(dir);
    const state = workflowState('feature', '01-requirements');
    const started = new Date(Date.now() - 95 * 60_000).toISOString();
    const iterations: Record<string, number | undefined> = { '01-requirements': undefined, '06-implementation': 3, '08-code-review': 1 };
    state['active_workflow'] = { ...state['active_workflow'], phases, current_phase: '08-code-review', current_phase_index: 2, started_at: started };
    state['active_workflow'].phase_status = Object.fromEntries(phases.map((p) => [p, 'completed']));
    state['current_phase'] = '08-code-review';
    state['phases'] = Object.fromEntries(
      phases.map((p) => [
        p,
        {
          status: 'completed',
          started,
          completed: started,
          gate_passed: started,
          ...(iterations[p] !== undefined
            ? { iteration_requirements: { test_iteration: { completed: true, current_iteration: iterations[p], last_test_result: 'passed' } } }
            : {}),
        },
      ]),
    );
    writeJson(join(dir, '.isdlc/state.json'), state);
    const entry = isdlc(dir, ['workflow', 'finalize']);
    const archived = stateOf(dir)['workflow_history'].at(-1);
    expect(archived['phase_snapshots'].map((s: State) => s['duration_minutes'])).toEqual([0, 0, 0]);
    for (const metrics of [entry['metrics'], archived['metrics']]) {
      expect(metrics).toMatchObject({
        total_phases: 3,
        phases_completed: 3,
        test_iterations_total: 4,
        // 06 needed three test runs; 01 (no tests) and 08 (one run) passed at the first try.
        gates_passed_first_try: 2,
        gates_required_iteration: 1,
      });
      expect(metrics['total_duration_minutes']).toBeGreaterThanOrEqual(95);
      expect(metrics['total_duration_minutes']).toBeLessThanOrEqual(96);
      expect(Number.isInteger(metrics['total_duration_minutes'])).toBe(true);
    }
  });
});

describe("elicitation steps as the framework's menu-tracker stored them", () => {
  function requirementsProject(): string {
    const dir = initedProject('isdlc-compat-menu-');
    writeJson(join(dir, '.isdlc/state.json'), workflowState('feature', '01-requirements'));
    return dir;
  }
  const elicitation = (dir: string) => stateOf(dir)['phases']['01-requirements'].iteration_requirements?.interactive_elicitation;

  it('"Step 1 is now complete" records project_discovery', () => {
    const dir = requirementsProject();
    send(dir, stop(dir, 'Step 1 is now complete. Next we look at who uses the product.'));
    expect(elicitation(dir)).toMatchObject({
      steps_completed: ['project_discovery'],
      last_step_completed: { step: 1, name: 'project_discovery' },
      last_step_at: expect.any(String),
    });
  });

  it('a named step ("Persona identification is now complete") records its name', () => {
    const dir = requirementsProject();
    send(dir, stop(dir, 'Step 1 is now complete.'));
    send(dir, stop(dir, 'Persona identification is now complete: three personas.'));
    expect(elicitation(dir)).toMatchObject({
      steps_completed: ['project_discovery', 'user_personas'],
      last_step_completed: { step: 2, name: 'user_personas' },
    });
  });

  it('a step said not to be complete is not recorded', () => {
    const dir = requirementsProject();
    send(dir, stop(dir, 'Step 3 is not complete yet; I need the features from you.'));
    expect(elicitation(dir)?.steps_completed ?? []).toEqual([]);
  });
});

describe("skill_usage_log entries as the framework's log-skill-usage wrote them", () => {
  function implementationProject(mode?: string): string {
    const dir = initedProject('isdlc-compat-skills-');
    const state = workflowState('feature', '06-implementation');
    if (mode) state['skill_enforcement'] = { enabled: true, mode, fail_behavior: 'allow' };
    writeJson(join(dir, '.isdlc/state.json'), state);
    return dir;
  }
  const lastEntry = (dir: string): State => stateOf(dir)['skill_usage_log'].at(-1);

  it('a delegation without a description is logged with "N/A"', () => {
    const dir = implementationProject();
    send(dir, agentResult(dir, { subagent_type: 'software-developer', prompt: 'Implement the export.', description: undefined }, 'Done.'));
    expect(lastEntry(dir)).toMatchObject({ agent: 'software-developer', description: 'N/A', status: 'executed' });
  });

  it.each([
    ['warn', 'warned'],
    ['audit', 'audited'],
    ['observe', 'observed'],
    ['strict', 'observed'],
  ])('cross-phase usage in %s mode is %s', (mode, status) => {
    const dir = implementationProject(mode);
    send(dir, agentResult(dir, { subagent_type: 'requirements-analyst', description: 'Check a requirement' }, 'Checked.'));
    expect(lastEntry(dir)).toMatchObject({ agent: 'requirements-analyst', status, reason: 'cross-phase-usage', enforcement_mode: mode });
  });

  it('the phase agent in its own phase is executed in every mode, and its run still counts for the gate', () => {
    const dir = implementationProject('warn');
    const done = agentResult(dir, { subagent_type: 'software-developer', description: 'Implement the export' }, 'Done.');
    for (const call of subagentWrite(dir, done)) send(dir, call);
    send(dir, done);
    expect(lastEntry(dir)).toMatchObject({ status: 'executed', reason: 'authorized-phase-match', enforcement_mode: 'warn' });
    expect(gateCheck(dir, '06-implementation').checks.find((check) => check.requirement === 'agent_delegation')).toMatchObject({ met: true });
  });
});
