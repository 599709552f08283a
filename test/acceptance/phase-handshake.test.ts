// The phase handshake through the entry points people and agents use (the isdlc commands and the hook
// `isdlc init` registered, answered by the built CLI in this process; racing commands run as processes),
// checking the state checklists at every boundary. Then racing commands on one project.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  activate,
  complete,
  expectCompleted,
  expectTrackersAgree,
  isdlc,
  PHASE_AGENT_MAP,
  refused,
  satisfyGate,
  send,
  stateFile,
  stateOf,
  useNoRequirements,
  useWorkflows,
  type State,
} from '../helpers/handshake.js';
import { agentCall, bashCall, bashFailed, editCall, runnerOutput, writeCall, writeDone } from '../helpers/payloads.js';
import { givePassingSuite } from '../helpers/test-suite.js';
import { BIN, cleanEnv, cli, initedProject, withoutSandbox, writeFile, writeJson, writePlan } from '../helpers/project.js';

const TS001_PHASES = [
  '01-requirements',
  '02-impact-analysis',
  '03-architecture',
  '04-design',
  '05-test-strategy',
  '06-implementation',
  '16-quality-loop',
  '08-code-review',
];
const TS002_PHASES = ['02-tracing', '06-implementation', '16-quality-loop', '08-code-review'];
const HUMAN = { CLAUDECODE: '' };
const AGENT = { CLAUDECODE: '1' };

/** Activate and complete one phase, checking both checklists; `work` runs while the phase is in progress. */
function runPhase(dir: string, phase: string, index: number, work: () => void, project?: string): void {
  expect(activate(dir, project ? { project } : {})).toMatchObject({ phase, index });
  work();
  complete(dir, `${phase} done: the work of this phase, described in more words than the summary may keep `.repeat(3), project ? { project } : {});
}

function freshProject(phases: Record<string, string[]> = {}, options: { noRequirements?: boolean } = {}): string {
  const dir = initedProject('isdlc-handshake-');
  givePassingSuite(dir);
  // The task plan the early phases produce; plan-surfacer wants it before the later phases.
  writePlan(dir);
  if (Object.keys(phases).length > 0) useWorkflows(dir, phases);
  // The project is no git repository: 16-quality-loop could not tell what changed to mutate it (mutation-gate.test.ts).
  const lift = ['config', 'set', 'iteration-requirements', 'phase_requirements.16-quality-loop.test_iteration.success_criteria.min_mutation_score', 'null'];
  expect(cli([...lift, '--dir', dir]).status).toBe(0);
  if (options.noRequirements) useNoRequirements(dir);
  return dir;
}

describe('a feature workflow of eight phases, start to history', () => {
  const dir = freshProject({ feature: TS001_PHASES });

  it('every boundary leaves the trackers in agreement, through real gates', () => {
    const started = isdlc(dir, ['workflow', 'start', 'feature', '--description', 'CSV export']);
    expect(started['phases']).toEqual(TS001_PHASES);
    const state = stateOf(dir);
    // 1. After init: first phase in progress, the rest pending, index 0.
    expect(state['active_workflow']).toMatchObject({ current_phase: '01-requirements', current_phase_index: 0 });
    expect(state['active_workflow'].phase_status).toEqual(Object.fromEntries(TS001_PHASES.map((p, i) => [p, i === 0 ? 'in_progress' : 'pending'])));
    expect(Object.keys(state['phases'])).toEqual(TS001_PHASES);
    expectTrackersAgree(state);

    TS001_PHASES.forEach((phase, index) => {
      runPhase(dir, phase, index, () => {
        // 3. Before the delegation the phase is in progress; a later phase is still out of order.
        expect(send(dir, agentCall(dir, { subagent_type: 'general-purpose', prompt: 'Phase 08-code-review: review it all now' })).kind).toBe(
          index === 7 ? 'allow' : 'deny',
        );
        satisfyGate(dir, phase, { type: 'feature' });
      });
      // 2. After each phase: completed, index + 1; the next phase's agent waits for its activation.
      const next = TS001_PHASES[index + 1];
      if (next) expect(send(dir, agentCall(dir, { subagent_type: PHASE_AGENT_MAP[next] })).reason).toContain('mcp__isdlc__phase_activate');
    });
    // 5. After the last phase: index = phases.length, and finalize is what comes next.
    const done = stateOf(dir);
    expect(done['active_workflow'].current_phase_index).toBe(8);
    expect(cli(['phase', 'activate'], { cwd: dir }).stderr).toContain('isdlc workflow finalize');
    expect(cli(['status'], { cwd: dir }).stdout).toMatch(/08-code-review\s+completed/);
  });

  it('finalize archives snapshots and metrics for all eight phases, prunes, and the enforcer has nothing to repair', () => {
    const archived = isdlc(dir, ['workflow', 'finalize']);
    const state = stateOf(dir);
    expect(state['active_workflow']).toBeNull();
    expect(state['current_phase']).toBeNull();
    const entry = state['workflow_history'].at(-1);
    const { state_version: _version, ...printed } = archived;
    expect(entry).toEqual(printed);
    expect(entry.phases).toEqual(TS001_PHASES);
    expect(entry.phase_snapshots.map((s: State) => [s['key'], s['status']])).toEqual(TS001_PHASES.map((p) => [p, 'completed']));
    expect(entry.phase_snapshots.find((s: State) => s['key'] === '06-implementation')).toMatchObject({
      test_iterations: 1,
      last_test_result: 'passed',
      constitutional_iterations: 1,
    });
    expect(entry.metrics).toMatchObject({ phases_total: 8, phases_completed: 8, phases_skipped: 0, total_retries: 0, test_iterations_total: 2 });
    expect(typeof entry.started_at).toBe('string');
    expect(typeof entry.completed_at).toBe('string');
    // Pruning ran and kept what the snapshots describe.
    expect(state['phases']['06-implementation'].iteration_requirements).toBeUndefined();
    expect(state['phases']['06-implementation']._pruned_at).toEqual(expect.any(String));
    const version = state['state_version'];
    expect(send(dir, writeDone(dir, '.isdlc/state.json', '{}')).context).toBeUndefined();
    expect(stateOf(dir)['state_version']).toBe(version);
    // Nothing left to finalize; a new workflow may start.
    expect(refused(dir, ['workflow', 'finalize'])).toContain('no active workflow');
    expect(isdlc(dir, ['workflow', 'start', 'fix', '--description', 'export crash'])['current_phase']).toBe('01-requirements');
    expect(stateOf(dir)['workflow_history']).toHaveLength(1);
  });
});

describe('shorter workflows, sub-agents, gates, stale reads', () => {
  it('a four-phase fix workflow stays inside its array and finalizes at index 4', () => {
    const dir = freshProject({ fix: TS002_PHASES }, { noRequirements: true });
    isdlc(dir, ['workflow', 'start', 'fix', '--description', 'crash on empty cart']);
    TS002_PHASES.forEach((phase, index) => runPhase(dir, phase, index, () => undefined));
    expect(stateOf(dir)['active_workflow'].current_phase_index).toBe(4);
    expect(refused(dir, ['phase', 'complete'])).toContain('every phase of the fix workflow is completed');
    expect(isdlc(dir, ['workflow', 'finalize'])['metrics']).toMatchObject({ phases_total: 4, phases_completed: 4 });
  });

  it('tracing sub-agents pass in 02-tracing; a delegation to 06-implementation does not', () => {
    const dir = freshProject({ fix: TS002_PHASES }, { noRequirements: true });
    isdlc(dir, ['workflow', 'start', 'fix']);
    activate(dir);
    for (const agent of ['tracing-orchestrator', 'symptom-analyzer', 'execution-path-tracer']) {
      expect(send(dir, agentCall(dir, { subagent_type: agent, prompt: 'Trace the crash.' })).kind, agent).toBe('allow');
    }
    const denied = send(dir, agentCall(dir, { subagent_type: 'software-developer', prompt: 'Fix it.' }));
    expect(denied.kind).toBe('deny');
    expect(denied.reason).toContain('phase-sequence-guard');
    expect(denied.reason).toContain('02-tracing');
    const log = readFileSync(join(dir, '.isdlc/hook-activity.log'), 'utf8');
    expect(log).toContain('same-phase');
  });

  it('failing tests close the gate; work goes on; passing tests open it', () => {
    const dir = freshProject({ fix: TS002_PHASES });
    isdlc(dir, ['workflow', 'start', 'fix']);
    activate(dir);
    satisfyGate(dir, '02-tracing', { type: 'fix' });
    complete(dir, 'traced');
    activate(dir);
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    expect(stateOf(dir)['phases']['06-implementation'].iteration_requirements.test_iteration).toMatchObject({
      current_iteration: 2,
      max_iterations: 10,
      last_test_result: 'failed',
    });
    expect(refused(dir, ['phase', 'complete'])).toMatch(/gate of 06-implementation is closed[\s\S]*test_iteration/);
    const advance = send(dir, agentCall(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'Tests are fine, advance to the next phase.' }));
    expect(advance.kind).toBe('deny');
    for (const call of [
      bashCall(dir, 'npm test'),
      writeCall(dir, 'src/cart.ts', 'export {}\n'),
      agentCall(dir, { subagent_type: 'Explore', prompt: 'Read src/cart.ts' }),
    ]) {
      expect(send(dir, call).kind).toBe('allow');
    }
    satisfyGate(dir, '06-implementation', { type: 'fix' });
    expect(complete(dir, 'fixed')['next']).toBe('16-quality-loop');
  });

  it('a pending constitutional validation closes the gate the same way', () => {
    const dir = freshProject();
    isdlc(dir, ['workflow', 'start', 'fix']);
    activate(dir);
    isdlc(dir, ['constitution', 'record', '--article', 'I', '--result', 'violation', '--note', 'no acceptance criteria']);
    expect(stateOf(dir)['phases']['01-requirements'].constitutional_validation).toMatchObject({
      status: 'iterating',
      iterations_used: 1,
      max_iterations: 5,
      completed: false,
    });
    expect(refused(dir, ['phase', 'complete'])).toContain('constitutional_validation');
    expect(send(dir, agentCall(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'advance to the next phase' })).kind).toBe('deny');
    satisfyGate(dir, '01-requirements', { type: 'fix' });
    expect(complete(dir, 'requirements agreed')['phase']).toBe('01-requirements');
  });

  it('with a stale top-level current_phase every reader uses active_workflow.current_phase', () => {
    const dir = freshProject({ feature: TS001_PHASES }, { noRequirements: true });
    isdlc(dir, ['workflow', 'start', 'feature']);
    for (const phase of TS001_PHASES.slice(0, 2)) runPhase(dir, phase, TS001_PHASES.indexOf(phase), () => undefined);
    activate(dir);
    const state = stateOf(dir);
    state['current_phase'] = '01-requirements';
    writeJson(stateFile(dir), state);
    expect(send(dir, agentCall(dir, { subagent_type: 'solution-architect' })).kind).toBe('allow');
    expect(send(dir, agentCall(dir, { subagent_type: 'requirements-analyst' })).reason).toContain('in phase 03-architecture');
    expect(isdlc(dir, ['status'])['workflow']['currentPhase']).toBe('03-architecture');
    expect(cli(['gate', 'check', '--json'], { cwd: dir }).stdout).toContain('"phase": "03-architecture"');
  });

  it('when the activation cannot be written, the delegation stays blocked, the file is intact, and a retry works', () => {
    const dir = freshProject({ fix: TS002_PHASES }, { noRequirements: true });
    isdlc(dir, ['workflow', 'start', 'fix']);
    runPhase(dir, '02-tracing', 0, () => undefined);
    const before = readFileSync(stateFile(dir), 'utf8');
    expect(before.length, 'larger than the 1 KiB the write is limited to').toBeGreaterThan(1024);
    // A real write failure: the file-size limit stops the new state file part-way (EFBIG / SIGXFSZ).
    const failed = spawnSync('bash', ['-c', `ulimit -f 1; exec "${process.execPath}" "${BIN}" phase activate`], {
      cwd: dir,
      env: cleanEnv(),
      encoding: 'utf8',
    });
    expect(failed.status).not.toBe(0);
    expect(readFileSync(stateFile(dir), 'utf8')).toBe(before);
    const blocked = send(dir, agentCall(dir, { subagent_type: 'software-developer' }));
    expect(blocked.kind).toBe('deny');
    expect(blocked.reason).toContain('has not been activated');
    const retried = activate(dir);
    expect(retried).toMatchObject({ phase: '06-implementation', retry: false });
    expect(send(dir, agentCall(dir, { subagent_type: 'software-developer' })).kind).toBe('allow');
    expectTrackersAgree(stateOf(dir));
  });

  it('a legacy key (13-test-deploy) reads as 12-test-deploy everywhere', () => {
    const dir = freshProject({ 'test-run': ['11-local-testing', '13-test-deploy'] });
    isdlc(dir, ['workflow', 'start', 'test-run']);
    expect(stateOf(dir)['active_workflow'].phases).toEqual(['11-local-testing', '12-test-deploy']);
    // As an older tool would have left it in the second phase: the legacy key in every tracker.
    const state = stateOf(dir);
    const workflow = state['active_workflow'];
    Object.assign(workflow, {
      phases: ['11-local-testing', '13-test-deploy'],
      current_phase: '13-test-deploy',
      current_phase_index: 1,
      phase_status: { '11-local-testing': 'completed', '13-test-deploy': 'in_progress' },
    });
    state['phases'] = { '11-local-testing': { status: 'completed' }, '13-test-deploy': { status: 'in_progress' } };
    state['current_phase'] = '13-test-deploy';
    writeJson(stateFile(dir), state);
    const gate = JSON.parse(cli(['gate', 'check', '--json'], { cwd: dir }).stdout) as State;
    expect(gate['phase']).toBe('12-test-deploy');
    expect(gate['checks'].map((c: State) => c['requirement'])).toEqual(['constitutional_validation', 'agent_delegation']);
    const delegation = send(dir, agentCall(dir, { subagent_type: 'deployment-engineer-staging' }));
    expect(delegation.kind, delegation.reason).toBe('allow');
    expect(readFileSync(join(dir, '.isdlc/hook-activity.log'), 'utf8')).not.toMatch(/missing requirements|13-test-deploy.*unknown/);
  });

  it('a write made from a stale read is refused before it happens; version 5 stays', () => {
    const dir = freshProject({ fix: TS002_PHASES }, { noRequirements: true });
    isdlc(dir, ['workflow', 'start', 'fix']);
    while (stateOf(dir)['state_version'] < 5) activate(dir);
    const before = readFileSync(stateFile(dir), 'utf8');
    const disk = JSON.parse(before) as State;
    expect(disk['state_version']).toBe(5);
    const stale = send(dir, writeCall(dir, '.isdlc/state.json', JSON.stringify({ ...disk, state_version: 3, project: { description: 'mine' } }, null, 2)));
    expect(stale.kind).toBe('deny');
    expect(stale.reason).toContain('V7');
    expect(stale.reason).toContain('re-read');
    expect(readFileSync(stateFile(dir), 'utf8')).toBe(before);
  });

  it('a phase status regression is refused and names the regression; so is marking tests passed', () => {
    const dir = freshProject({ fix: TS002_PHASES });
    isdlc(dir, ['workflow', 'start', 'fix']);
    runPhase(dir, '02-tracing', 0, () => satisfyGate(dir, '02-tracing', { type: 'fix' }));
    activate(dir);
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    const before = readFileSync(stateFile(dir), 'utf8');
    const regression = send(dir, editCall(dir, join(dir, '.isdlc/state.json'), '"02-tracing": "completed"', '"02-tracing": "pending"'));
    expect(regression.kind).toBe('deny');
    expect(regression.reason).toContain('V8: active_workflow.phase_status["02-tracing"] goes back from "completed" to "pending"');
    const faked = send(dir, editCall(dir, join(dir, '.isdlc/state.json'), '"last_test_result": "failed"', '"last_test_result": "passed"'));
    expect(faked.kind).toBe('deny');
    expect(faked.reason).toContain('test_iteration is evidence isdlc records itself');
    // In the sandbox init set up the file system refuses the shell's write; the hook only says so.
    const forge = bashCall(dir, `sed -i 's/"failed"/"passed"/' .isdlc/state.json`);
    const sandboxed = send(dir, forge);
    expect(sandboxed.kind).toBe('allow');
    expect(sandboxed.context).toContain("isdlc's files are read-only in the sandbox");
    expect(send(withoutSandbox(dir), forge).kind).toBe('deny');
    expect(readFileSync(stateFile(dir), 'utf8')).toBe(before);
  });

  it('two monorepo projects keep separate state, enforcement and artifact paths', () => {
    const dir = freshProject();
    writeJson(join(dir, '.isdlc/monorepo.json'), {
      version: '1.0.0',
      default_project: 'api-service',
      docs_location: 'root',
      projects: { 'api-service': { name: 'api-service', path: 'services/api' }, 'web-frontend': { name: 'web-frontend', path: 'apps/web' } },
    });
    useWorkflows(dir, { feature: TS001_PHASES });
    writeFile(join(dir, 'apps/web/package.json'), '{}');
    writeFile(join(dir, 'services/api/package.json'), '{}');
    isdlc(dir, ['workflow', 'start', 'feature', '--description', 'rate limits', '--project', 'api-service']);
    for (const phase of TS001_PHASES.slice(0, 2)) {
      activate(dir, { project: 'api-service' });
      satisfyGate(dir, phase, { type: 'feature', project: 'api-service' });
      complete(dir, `${phase} done`, { project: 'api-service' });
    }
    activate(dir, { project: 'api-service' });
    expect(stateOf(dir, 'api-service')['active_workflow'].current_phase).toBe('03-architecture');
    expect(isdlc(dir, ['status', '--project', 'web-frontend'])['workflow']).toBeNull();
    expect(isdlc(dir, ['status', '--project', 'api-service'])['stateFile']).toBe(stateFile(dir, 'api-service'));
    // The requirements document went to the project's own docs folder.
    const folder = stateOf(dir, 'api-service')['active_workflow'].artifact_folder;
    expect(readFileSync(join(dir, 'docs/api-service/requirements', folder, 'requirements-spec.md'), 'utf8')).toContain('01-requirements');
    // Hooks follow the project the agent works in.
    const inWeb = { ...agentCall(join(dir, 'apps/web'), { subagent_type: 'software-developer' }) };
    const inApi = { ...agentCall(join(dir, 'services/api'), { subagent_type: 'software-developer' }) };
    expect(send(dir, inWeb, { CLAUDE_PROJECT_DIR: dir }).kind).toBe('allow');
    expect(send(dir, inApi).reason).toContain('03-architecture');
    expect(send(dir, inWeb, { ISDLC_PROJECT: 'api-service' }).kind).toBe('deny');
    expect(cli(['status'], { cwd: join(dir, 'apps/web') }).stdout).toContain('No active workflow');
  });

  it('the artifact folder links the phases; a missing predecessor artifact does not block the next phase', () => {
    const dir = freshProject({ feature: TS001_PHASES });
    isdlc(dir, ['workflow', 'start', 'feature', '--description', 'CSV export']);
    const folder: string = stateOf(dir)['active_workflow'].artifact_folder;
    expect(folder).toBe('REQ-0001-csv-export');
    activate(dir);
    satisfyGate(dir, '01-requirements', { type: 'feature' });
    expect(readFileSync(join(dir, 'docs/requirements', folder, 'requirements-spec.md'), 'utf8')).toContain('01-requirements');
    complete(dir, 'requirements written');
    rmSync(join(dir, 'docs/requirements', folder, 'requirements-spec.md'));
    activate(dir);
    expect(isdlc(dir, ['status'])['workflow']['artifactFolder']).toBe(folder);
    expect(
      send(
        dir,
        agentCall(dir, {
          subagent_type: 'impact-analysis-orchestrator',
          prompt: `Artifact folder: ${folder}. Read docs/requirements/${folder}/requirements-spec.md if it exists.`,
        }),
      ).kind,
    ).toBe('allow');
  });
});

describe('people decide at phase boundaries', () => {
  function supervisedAfterFirstPhase(): string {
    const dir = freshProject({ fix: TS002_PHASES }, { noRequirements: true });
    isdlc(dir, ['workflow', 'start', 'fix', '--supervised']);
    activate(dir);
    const done = complete(dir, 'traced to the cart reducer');
    expect(done['reviewRequested']).toBe(true);
    return dir;
  }

  it('a supervised phase waits for review; redo re-runs it with a retry counted; continue lets the next start', () => {
    const dir = supervisedAfterFirstPhase();
    expect(stateOf(dir)['active_workflow'].supervised_review).toMatchObject({ phase: '02-tracing', status: 'awaiting' });
    expect(refused(dir, ['phase', 'activate'])).toContain("waiting for a person's review");
    expect(send(dir, agentCall(dir, { subagent_type: 'software-developer' })).reason).toContain('isdlc phase review continue');
    expect(send(dir, bashCall(dir, 'isdlc phase review continue')).context).toContain('is a decision for a person');
    expect(send(withoutSandbox(dir), bashCall(dir, 'isdlc phase review continue')).kind).toBe('deny');
    expect(refused(dir, ['phase', 'review', 'continue'], { env: AGENT, status: 2 })).toContain('decision for a person');

    isdlc(dir, ['phase', 'review', 'review']);
    const redo = isdlc(dir, ['phase', 'review', 'redo', '--note', 'trace the empty-cart path too']);
    expect(redo).toMatchObject({ phase: '02-tracing', decision: 'redo', retries: 1 });
    const again = stateOf(dir);
    expect(again['active_workflow']).toMatchObject({ current_phase: '02-tracing', current_phase_index: 0 });
    expect(again['phases']['02-tracing']).toMatchObject({ status: 'in_progress', completed: null, timing: { retries: 1 } });
    expect(again['phases']['02-tracing'].timing.completed_at).toBeUndefined();
    expectTrackersAgree(again);
    expect(send(dir, agentCall(dir, { subagent_type: 'tracing-orchestrator' })).kind).toBe('allow');

    complete(dir, 'traced both paths');
    isdlc(dir, ['phase', 'review', 'continue'], HUMAN);
    const next = activate(dir);
    expect(next).toMatchObject({ phase: '06-implementation', retry: false });
    expectTrackersAgree(stateOf(dir));
  });

  function blockedAtFirstPhase(): string {
    const dir = freshProject({ fix: TS002_PHASES });
    isdlc(dir, ['workflow', 'start', 'fix']);
    activate(dir);
    // The constitution is checked, the delegation to the phase agent is not done: the gate-blocker blocks.
    for (const article of ['IV', 'VII', 'IX']) isdlc(dir, ['constitution', 'record', '--article', article, '--result', 'compliant']);
    expect(send(dir, agentCall(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'advance to the next phase' })).kind).toBe('deny');
    expect(stateOf(dir)['pending_escalations']).toEqual([
      expect.objectContaining({ type: 'gate_blocked', hook: 'gate-blocker', phase: '02-tracing', detail: 'agent_delegation' }),
    ]);
    return dir;
  }

  it('retry: the escalations are shown, cleared, and the phase re-runs with a retry counted', () => {
    const dir = blockedAtFirstPhase();
    const banner = cli(['phase', 'activate'], { cwd: dir });
    expect(banner.stdout).toMatch(/Open escalations \(1\)[\s\S]*gate-blocker \(gate_blocked, phase 02-tracing\)/);
    expect(isdlc(dir, ['escalations'])['escalations']).toHaveLength(1);
    expect(isdlc(dir, ['escalations', '--clear'])).toMatchObject({ cleared: true });
    expect(stateOf(dir)['pending_escalations']).toEqual([]);
    expect(activate(dir)).toMatchObject({ phase: '02-tracing', retry: true, retries: 2 });
  });

  it('skip: a person overrides the gate; escalations cleared, phase completed, the next one starts', () => {
    const dir = blockedAtFirstPhase();
    expect(refused(dir, ['phase', 'skip', '--reason', 'trivial'], { env: AGENT, status: 2 })).toContain('decision for a person');
    expect(send(dir, bashCall(dir, 'node .isdlc/bin/isdlc.cjs phase skip --reason "trivial"')).context).toContain('is a decision for a person');
    expect(send(withoutSandbox(dir), bashCall(dir, 'node .isdlc/bin/isdlc.cjs phase skip --reason "trivial"')).kind).toBe('deny');
    const beforeSkip = stateOf(dir);
    const skipped = isdlc(dir, ['phase', 'skip', '--reason', 'tracing is obvious here'], HUMAN);
    expectCompleted(beforeSkip, stateOf(dir), '02-tracing');
    expect(skipped).toMatchObject({ phase: '02-tracing', next: '06-implementation' });
    const state = stateOf(dir);
    expect(state['pending_escalations']).toEqual([]);
    expect(state['phases']['02-tracing']).toMatchObject({ status: 'completed', skipped: { reason: 'tracing is obvious here' } });
    expect(activate(dir)['phase']).toBe('06-implementation');
    expectTrackersAgree(stateOf(dir));
  });

  it('cancel: the workflow is archived as cancelled, with its reason and what it reached', () => {
    const dir = blockedAtFirstPhase();
    expect(refused(dir, ['workflow', 'cancel'], { status: 2 })).toContain('--reason');
    const entry = isdlc(dir, ['workflow', 'cancel', '--reason', 'customer withdrew the request']);
    expect(entry).toMatchObject({
      status: 'cancelled',
      cancellation_reason: 'customer withdrew the request',
      metrics: { phases_total: 4, phases_completed: 0 },
    });
    const state = stateOf(dir);
    expect(state['active_workflow']).toBeNull();
    expect(state['pending_escalations']).toEqual([]);
    expect(state['workflow_history'].at(-1).phase_snapshots[0]).toMatchObject({ key: '02-tracing', status: 'in_progress', retries: 0 });
  });
});

describe('racing commands on one project', () => {
  /** Resolves with the exit code; what the process said on stderr is kept for the failure message. */
  const said: string[] = [];
  function runAsync(dir: string, args: string[]): Promise<number> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        said.push(`${args.join(' ')} → ${code}: ${stderr.trim()}`);
        resolve(code ?? -1);
      });
    });
  }

  it('activate and complete racing never lose a write or leave the trackers disagreeing', async () => {
    const phases = ['02-tracing', '06-implementation', '16-quality-loop', '08-code-review', '09-validation', '10-cicd'];
    const dir = freshProject({ fix: phases }, { noRequirements: true });
    isdlc(dir, ['workflow', 'start', 'fix']);
    let succeeded = 0;
    for (let round = 0; round < 12 && stateOf(dir)['active_workflow'].current_phase_index < phases.length; round += 1) {
      const before = stateOf(dir);
      const codes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => runAsync(dir, i % 2 === 0 ? ['phase', 'activate'] : ['phase', 'complete', '--summary', `round ${round}`])),
      );
      expect(
        codes.every((code) => code === 0 || code === 1),
        said.join('\n'),
      ).toBe(true);
      const wins = codes.filter((code) => code === 0).length;
      succeeded += wins;
      const after = stateOf(dir);
      // Every command that reported success wrote exactly once, on top of every other one.
      expect(after['state_version'] - before['state_version'], said.join('\n')).toBe(wins);
      expect(after['history'].length - before['history'].length).toBe(wins);
      expectTrackersAgree(after);
    }
    const final = stateOf(dir);
    expect(final['active_workflow'].current_phase_index).toBe(phases.length);
    expect(phases.every((phase) => final['phases'][phase].status === 'completed')).toBe(true);
    // Every phase completed once and activated at least once, bar the first (in progress from the start).
    expect(succeeded).toBeGreaterThanOrEqual(phases.length * 2 - 1);
    // Every activation past the first of a phase was counted as a retry, none lost.
    const activations = final['history'].filter((h: State) => /ctivated phase/.test(h['action'])).length;
    // (The first phase is in progress from the start, so a complete may beat every activate to it.)
    const activated = phases.filter((phase) => typeof final['phases'][phase].timing.started_at === 'string').length;
    const retries = phases.reduce((sum, phase) => sum + ((final['phases'][phase].timing.retries as number | undefined) ?? 0), 0);
    expect(activated).toBeGreaterThanOrEqual(phases.length - 1);
    expect(activations).toBe(activated + retries);
  }, 60_000);
});

it('writes of ordinary files and state reads pass every guard of this issue', () => {
  const dir = freshProject({ fix: TS002_PHASES }, { noRequirements: true });
  isdlc(dir, ['workflow', 'start', 'fix']);
  activate(dir);
  writeFile(join(dir, 'src/app.ts'), 'export const a = 1;\n');
  for (const payload of [
    writeCall(dir, join(dir, 'src/app.ts'), 'export const a = 2;\n'),
    editCall(dir, join(dir, 'src/app.ts'), 'a = 1', 'a = 3'),
    bashCall(dir, 'cat .isdlc/state.json && node .isdlc/bin/isdlc.cjs status'),
    bashCall(dir, 'git status && git diff'),
  ]) {
    expect(send(dir, payload).kind).toBe('allow');
  }
});
