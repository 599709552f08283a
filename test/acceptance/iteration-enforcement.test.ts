// Iteration enforcement, each rule through the hook `isdlc init` registered for the event (answered by
// the built CLI in this process, with the registration's arguments), with payloads shaped like the
// recorded ones; each checks the decision and the state written. Then failing tests holding the gate end to end, and the circuit breaker.
import { spawn } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  agentCall,
  agentResult,
  bashCall,
  bashFailed,
  bashPassed,
  runnerOutput,
  reviewerReads,
  skillCall,
  stop,
  subagentWrite,
  userPrompt,
} from '../helpers/payloads.js';
import { cli, decisionOf, initedProject, lastActivity, readJson, withoutSandbox, writeFile, writeJson, writePlan, type Decision } from '../helpers/project.js';
import { answerAsRegistered } from '../helpers/registered-hook.js';
import { givePassingSuite } from '../helpers/test-suite.js';
import { compliant, delegated, REVIEWER_CALL, testRecord, withConstitution, withTests, workflowState } from '../helpers/states.js';

type State = Record<string, any>;

function projectWith(state: State): string {
  const dir = initedProject('isdlc-ac-');
  writeJson(join(dir, '.isdlc/state.json'), state);
  writePlan(dir);
  givePassingSuite(dir);
  return dir;
}

function send(dir: string, payload: Record<string, unknown>): Decision {
  const run = answerAsRegistered(dir, { ...payload, cwd: dir });
  expect(run.status, run.stderr).toBe(0);
  return decisionOf(run);
}

const stateOf = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));
const IMPL = '06-implementation';
const IMPL_ARTICLES = ['I', 'II', 'III', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];
const advance = (dir: string) => agentCall(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'The phase is done; advance to the next phase.' });
const testsOf = (dir: string, phase = IMPL) => stateOf(dir)['phases'][phase].iteration_requirements?.test_iteration;

describe('iteration enforcement, through the registered hook', () => {
  it('gate advancement through Agent to the orchestrator and through the isdlc skill is detected; other calls pass', () => {
    const dir = projectWith(workflowState('feature', IMPL));
    expect(send(dir, advance(dir)).kind).toBe('deny');
    expect(send(dir, skillCall(dir, 'isdlc', 'gate')).kind).toBe('deny');
    expect(send(dir, agentCall(dir, { subagent_type: 'general-purpose', prompt: 'Proceed to read src/cart.ts' })).kind).toBe('allow');
    expect(send(dir, agentCall(dir, { subagent_type: 'software-developer', prompt: 'Implement the export' })).kind).toBe('allow');
    expect(stateOf(dir)['phases'][IMPL].gate_validation.status).toBe('blocked');
  });

  it('four checks in order, all must pass, the details stored in gate_validation', () => {
    const dir = projectWith(workflowState('feature', IMPL));
    const decision = send(dir, advance(dir));
    expect(decision.reason).toMatch(/1\. test_iteration[\s\S]*2\. constitutional_validation[\s\S]*3\. agent_delegation/);
    expect(stateOf(dir)['phases'][IMPL].gate_validation).toMatchObject({
      status: 'blocked',
      blocking_requirements: ['test_iteration', 'constitutional_validation', 'agent_delegation'],
      details: expect.any(Array),
    });
  });

  it('a test run creates and updates the iteration state', () => {
    const dir = projectWith(workflowState('feature', IMPL));
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    send(dir, bashPassed(dir, 'npm test', runnerOutput('jest', 'passing')));
    expect(testsOf(dir)).toMatchObject({
      current_iteration: 2,
      max_iterations: 10,
      last_test_result: 'passed',
      last_test_command: 'npm test',
      failures_count: 1,
      completed: true,
      status: 'success',
    });
    expect(testsOf(dir).history.map((entry: State) => [entry['iteration'], entry['result'], entry['command']])).toEqual([
      [1, 'FAILED', 'npm test'],
      [2, 'PASSED', 'npm test'],
    ]);
  });

  // A lock file the agent wrote, naming a live process (a `sleep` of the test's), must not stop a failing
  // run from being recorded; the takeover is in the activity log.
  it.each([
    ['dated in the future', (pid: number) => JSON.stringify({ pid, host: hostname(), nonce: 'jam', at: Date.now() + 10 * 365 * 86_400_000 }), 0],
    ['unreadable', (pid: number) => `locked by ${pid}, keep out`, 5_000],
    ['older than the stale bound', (pid: number) => JSON.stringify({ pid, host: hostname(), nonce: 'jam', at: Date.now() }), 60_000],
  ] as const)(
    'a lock file the agent wrote (a live pid, %s) does not stop a failing run from being recorded, and the takeover is logged',
    (why, content, ageMs) => {
      const dir = projectWith(workflowState('feature', IMPL));
      const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        const lockFile = join(dir, '.isdlc/state.json.lock');
        writeFile(lockFile, content(holder.pid!));
        if (ageMs > 0) utimesSync(lockFile, new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
        const started = Date.now();
        send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
        expect(Date.now() - started).toBeLessThan(3000);
        expect(testsOf(dir)).toMatchObject({ current_iteration: 1, last_test_result: 'failed' });
        const takeover = { file: lockFile, why, ...(why === 'unreadable' ? {} : { holder: { pid: holder.pid, host: hostname() } }) };
        expect(lastActivity(dir)).toMatchObject({ event: 'PostToolUseFailure', lock_takeover: takeover });
      } finally {
        holder.kill();
      }
    },
  );

  it.each([
    'npm test',
    'npm run test',
    'yarn test',
    'pnpm test',
    'pytest',
    'python -m pytest',
    'go test ./...',
    'cargo test',
    'mvn test',
    'gradle test',
    'dotnet test',
    'jest',
    'mocha',
    'vitest',
    'phpunit',
    'rspec',
    'npm run test:unit',
    'npm run test:integration',
    'npm run test:e2e',
    'npm run e2e',
    'cypress run',
    'playwright test',
    'npx vitest run',
    'CI=1 npm test',
    'cd packages/api && npm test',
    'npm run test:unit -- --watch=false',
    'python3 -m pytest -q',
    'bundle exec rspec',
  ])('`%s` is recognised as a test run', (command) => {
    const dir = projectWith(workflowState('feature', IMPL));
    send(dir, bashFailed(dir, command, 1, 'Tests:       1 failed, 1 total'));
    expect(testsOf(dir)?.current_iteration, command).toBe(1);
  });

  it('output patterns decide, both kinds present means the failure count decides, the exit code when none match', () => {
    const dir = projectWith(workflowState('feature', IMPL));
    send(dir, bashPassed(dir, 'make test', 'Ran checks\nError: none found\n0 failures\nAll tests passed\n'));
    expect(testsOf(dir).last_test_result).toBe('passed');
    send(dir, bashFailed(dir, 'make test', 2, 'make: *** [test] Error 2'));
    expect(testsOf(dir).last_test_result).toBe('failed');
    send(dir, bashPassed(dir, 'make test | tee out.log', 'TypeError: x is not a function\n1 failed\n'));
    expect(testsOf(dir).last_test_result).toBe('failed');
  });

  it('the same failure three times trips the circuit breaker and asks for a human', () => {
    const dir = projectWith(workflowState('feature', IMPL));
    const failing = bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing'));
    send(dir, failing);
    send(dir, failing);
    const third = send(dir, failing);
    expect(third.context).toContain('the same failure came back 3 times in a row (circuit breaker)');
    expect(third.systemMessage).toContain('escalated (circuit_breaker)');
    expect(testsOf(dir)).toMatchObject({ status: 'escalated', escalation_reason: 'circuit_breaker', completed: true, current_iteration: 3 });
  });

  it('the last allowed iteration failing escalates with max_iterations', () => {
    const dir = projectWith(withTests(workflowState('feature', IMPL), IMPL, testRecord('failed', 9)));
    const decision = send(dir, bashFailed(dir, 'cargo test', 101, runnerOutput('cargo', 'failing')));
    expect(decision.context).toContain('all 10 iterations are used');
    expect(testsOf(dir)).toMatchObject({ status: 'escalated', escalation_reason: 'max_iterations' });
  });

  it('in the TEST_CORRIDOR advancing is denied with count, max, last error and command; other calls pass', () => {
    const dir = projectWith(withTests(workflowState('feature', IMPL), IMPL, testRecord('failed', 2)));
    const denied = send(dir, skillCall(dir, 'isdlc', 'advance'));
    expect(denied.kind).toBe('deny');
    for (const text of ['TEST_CORRIDOR', 'Iteration 2 of 10', '`npm test`', 'expected 3 to be 4']) expect(denied.reason).toContain(text);
    expect(send(dir, bashCall(dir, 'npm test')).kind).toBe('allow');
    expect(send(dir, agentCall(dir, { subagent_type: 'software-developer', prompt: 'Fix the failing cart test' })).kind).toBe('allow');
    // The corridor records nothing: the test record is the watcher's, untouched by denied attempts.
    expect(testsOf(dir)).toMatchObject({ current_iteration: 2, last_test_result: 'failed', status: 'in_progress' });
    expect(stateOf(dir)['phases'][IMPL].gate_validation).toBeUndefined();
  });

  it('in the CONST_CORRIDOR advancing is denied with the articles, status and iteration count', () => {
    const dir = projectWith(
      withConstitution(withTests(workflowState('feature', IMPL), IMPL, testRecord('passed', 2)), IMPL, {
        ...compliant(IMPL_ARTICLES),
        completed: false,
        status: 'iterating',
        iterations_used: 1,
        articles_checked: ['I'],
      }),
    );
    const denied = send(dir, advance(dir));
    for (const text of ['CONST_CORRIDOR', 'iterating', 'iteration 1 of 5', 'Article X: Fail-Safe Defaults']) expect(denied.reason).toContain(text);
    expect(stateOf(dir)['phases'][IMPL].constitutional_validation).toMatchObject({ status: 'iterating', iterations_used: 1, articles_checked: ['I'] });
  });

  it('TEST_CORRIDOR before CONST_CORRIDOR, and CONST only once the tests are satisfied', () => {
    const dir = projectWith(withTests(workflowState('feature', IMPL), IMPL, testRecord('failed', 1)));
    expect(send(dir, advance(dir)).reason).toContain('TEST_CORRIDOR');
    send(dir, bashPassed(dir, 'npm test', runnerOutput('jest', 'passing')));
    expect(testsOf(dir)).toMatchObject({ completed: true, last_test_result: 'passed' });
    expect(send(dir, advance(dir)).reason).toContain('CONST_CORRIDOR');
    expect(stateOf(dir)['phases'][IMPL].constitutional_validation).toMatchObject({ status: 'pending', articles_required: IMPL_ARTICLES });
  });

  it('phase 01 needs elicitation: "not started" until it is, and the final selection must be allowed', () => {
    const state = delegated(
      withConstitution(workflowState('feature', '01-requirements'), '01-requirements', compliant(['I', 'IV', 'VII', 'IX', 'XII'])),
      'requirements-analyst',
      '01-requirements',
    );
    const dir = projectWith(state);
    writeFile(join(dir, 'docs/requirements/REQ-0001-test/requirements-spec.md'), '# Requirements\n');
    expect(send(dir, advance(dir)).reason).toContain('Interactive elicitation not started');
    expect(stateOf(dir)['phases']['01-requirements'].gate_validation).toMatchObject({ status: 'blocked', blocking_requirements: ['interactive_elicitation'] });
    const state2 = stateOf(dir);
    state2['phases']['01-requirements'].iteration_requirements = {
      interactive_elicitation: { started_at: 'x', completed: true, final_selection: 'save', menu_interactions: 3 },
    };
    writeJson(join(dir, '.isdlc/state.json'), state2);
    expect(send(dir, advance(dir)).kind).toBe('allow');
  });

  it('menus in agent output are counted, selections come from what the user types', () => {
    const dir = projectWith(workflowState('feature', '01-requirements'));
    const menu = 'Step 1 complete.\n[A] Adjust [R] Refine [C] Continue [S] Save';
    send(dir, agentResult(dir, { subagent_type: 'requirements-analyst' }, menu));
    send(dir, userPrompt(dir, 'select an option'));
    send(dir, userPrompt(dir, 'A: mention the export format'));
    send(dir, stop(dir, `Adjusted.\n${menu.replace('Step 1', 'Step 2')}`));
    send(dir, userPrompt(dir, 'c'));
    const record = stateOf(dir)['phases']['01-requirements'].iteration_requirements.interactive_elicitation;
    expect(record).toMatchObject({ menu_presentations: 2, menu_interactions: 2, steps_completed: ['project_discovery', 'user_personas'], completed: false });
    expect(record.selections.map((s: State) => s['selection'])).toEqual(['adjust', 'continue']);
  });

  it('Save completes the elicitation with the message', () => {
    const dir = projectWith(workflowState('feature', '01-requirements'));
    send(dir, stop(dir, 'Draft ready.\n[A] Adjust [R] Refine [C] Continue [S] Save'));
    const saved = send(dir, userPrompt(dir, 'save'));
    expect(saved.context).toContain('INTERACTIVE ELICITATION COMPLETED');
    expect(saved.context).toContain('after 1 menu interaction');
    expect(stateOf(dir)['phases']['01-requirements'].iteration_requirements.interactive_elicitation).toMatchObject({
      completed: true,
      final_selection: 'save',
      completed_at: expect.any(String),
    });
  });

  it('agent delegation is checked against the manifest owner, from the delegations the hook logged', () => {
    const state = withConstitution(withTests(workflowState('feature', IMPL), IMPL, testRecord('passed', 1)), IMPL, compliant(IMPL_ARTICLES));
    const dir = projectWith(state);
    expect(send(dir, advance(dir)).reason).toContain('no delegation to software-developer recorded');
    const implemented = agentResult(dir, { subagent_type: 'software-developer' }, 'Implemented.');
    for (const call of subagentWrite(dir, implemented)) send(dir, call);
    send(dir, implemented);
    expect(stateOf(dir)['skill_usage_log']).toEqual([
      expect.objectContaining({ agent: 'software-developer', agent_phase: IMPL, status: 'executed', reason: 'authorized-phase-match' }),
    ]);
    // The review recorded before the change no longer covers it until its reviewer has read what changed.
    expect(send(dir, advance(dir)).reason).toContain('did not read what the phase changed (since the last change): notes/work.md');
    for (const call of reviewerReads(dir, REVIEWER_CALL, ['notes/work.md'])) send(dir, call);
    expect(send(dir, advance(dir)).kind).toBe('allow');
  });

  it('ATDD mode: skipped tests on a passing run are reported and stored', () => {
    const dir = projectWith(workflowState('feature', IMPL, { atdd: true }));
    const decision = send(dir, bashPassed(dir, 'python3 -m pytest', runnerOutput('pytest', 'skipped')));
    expect(decision.context).toContain('ATDD mode');
    expect(stateOf(dir)['phases'][IMPL].atdd_validation).toMatchObject({ skipped_tests_detected: true, skipped_count: 2 });
  });

  it('a gate that opens with the cloud undecided leaves a cloud configuration trigger (phase 07-testing)', () => {
    const state = delegated(
      withConstitution(
        withTests(workflowState('test-run', '07-testing'), '07-testing', testRecord('passed', 1)),
        '07-testing',
        compliant(['II', 'VII', 'IX', 'XI']),
      ),
      'integration-tester',
      '07-testing',
    );
    const dir = projectWith(state);
    const decision = send(dir, advance(dir));
    expect(decision.kind).toBe('allow');
    expect(stateOf(dir)['pending_triggers']).toEqual([expect.objectContaining({ type: 'cloud_configuration', phase: '07-testing' })]);
  });

  it('an escalation blocks the gate until a person approves it', () => {
    const state = delegated(
      withConstitution(
        withTests(
          workflowState('feature', IMPL),
          IMPL,
          testRecord('failed', 3, { status: 'escalated', completed: true, escalation_reason: 'circuit_breaker' }),
        ),
        IMPL,
        compliant(IMPL_ARTICLES),
      ),
      'software-developer',
      IMPL,
    );
    const dir = projectWith(state);
    expect(send(dir, advance(dir)).reason).toContain('isdlc escalation approve --phase 06-implementation');
    // Sandboxed, the command cannot write and the hook says whose decision it is; without the sandbox it is refused.
    expect(send(dir, bashCall(dir, 'node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation')).context).toContain('is a decision for a person');
    expect(send(withoutSandbox(dir), bashCall(dir, 'node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation')).kind).toBe('deny');
    const refused = cli(['escalation', 'approve', '--phase', IMPL, '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(refused.status).toBe(2);
    const approved = cli(['escalation', 'approve', '--phase', IMPL, '--dir', dir, '--note', 'flaky upstream; tracked in #12']);
    expect(approved.status, approved.stderr).toBe(0);
    expect(testsOf(dir)).toMatchObject({ escalation_approved: true, approved_by: expect.any(String), approval_note: 'flaky upstream; tracked in #12' });
    expect(send(dir, advance(dir)).kind).toBe('allow');
  });

  it('only a person ends an escalation: a passing run does not, and the agent cannot cancel the workflow around it', () => {
    const escalated = testRecord('failed', 3, { status: 'escalated', completed: true, escalation_reason: 'circuit_breaker', escalation_approved: false });
    const state = delegated(
      withConstitution(withTests(workflowState('feature', IMPL), IMPL, escalated), IMPL, compliant(IMPL_ARTICLES)),
      'software-developer',
      IMPL,
    );
    const dir = projectWith(state);
    const passed = send(dir, bashPassed(dir, 'npm test', runnerOutput('jest', 'passing')));
    expect(passed.context).toContain('a passing run does not end that');
    expect(testsOf(dir)).toMatchObject({ status: 'escalated', escalation_approved: false, last_test_result: 'passed' });
    expect(send(dir, advance(dir)).reason).toContain('isdlc escalation approve --phase 06-implementation');
    // Cancelling and starting again would leave the escalation behind: not the agent's call, in its shell or by MCP.
    const byAgent = cli(['workflow', 'cancel', '--reason', 'start over', '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(byAgent.status).toBe(1);
    expect(byAgent.stderr).toContain("escalations waiting for a person (06-implementation: test_iteration), so cancelling it is a person's decision");
    expect(stateOf(dir)['active_workflow']).not.toBeNull();
    const byPerson = cli(['workflow', 'cancel', '--reason', 'start over', '--dir', dir]);
    expect(byPerson.status, byPerson.stderr).toBe(0);
    expect(stateOf(dir)['active_workflow']).toBeNull();
  });

  it('a completion attempt starts constitutional tracking and lists the articles; recording them completes it', () => {
    const dir = projectWith(workflowState('feature', '04-design'));
    const denied = send(dir, agentCall(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'Design phase complete; mark as complete.' }));
    expect(denied.reason).toContain('- [ ] Article V: Simplicity First');
    expect(stateOf(dir)['phases']['04-design'].constitutional_validation).toMatchObject({
      required: true,
      completed: false,
      status: 'pending',
      iterations_used: 0,
      max_iterations: 5,
      articles_required: ['I', 'IV', 'V', 'VII', 'IX'],
      articles_checked: [],
      violations_found: [],
    });
    expect(cli(['constitution', 'record', '--article', 'IV', '--result', 'violation', '--note', 'caching left implicit', '--dir', dir]).status).toBe(0);
    for (const id of ['I', 'IV', 'V', 'VII']) expect(cli(['constitution', 'record', '--article', id, '--result', 'compliant', '--dir', dir]).status).toBe(0);
    const last = cli(['constitution', 'record', '--article', 'IX', '--result', 'compliant', '--dir', dir]);
    expect(last.stdout).toContain('Every article required in 04-design is compliant');
    expect(stateOf(dir)['phases']['04-design'].constitutional_validation).toMatchObject({
      completed: true,
      status: 'compliant',
      iterations_used: 2,
      violations_found: [expect.objectContaining({ article: 'IV' })],
    });
    expect(send(dir, agentCall(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'Design phase complete.' })).kind).toBe('allow');
  });
});

describe('failing tests hold the gate until they pass', () => {
  it('runs end to end through the registered hook and the CLI', () => {
    const dir = initedProject('isdlc-ts004-');
    givePassingSuite(dir);
    expect(cli(['workflow', 'start', 'feature', '--description', 'Cart totals', '--dir', dir]).status).toBe(0);
    const state = stateOf(dir);
    state['active_workflow'].current_phase = IMPL;
    state['current_phase'] = IMPL;
    writeJson(join(dir, '.isdlc/state.json'), state);

    // A failing npm test arrives as PostToolUseFailure: the model is told iteration 1 of 10.
    const failed = send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    expect(failed.context).toContain('iteration 1 of 10');
    expect(cli(['gate', 'check', '--dir', dir]).status).toBe(1);

    // An advance through Agent is denied with the reason; fixing stays possible.
    const denied = send(dir, advance(dir));
    expect(denied.kind).toBe('deny');
    expect(denied.reason).toContain('Fix the failing tests of phase 06-implementation');
    expect(send(dir, bashCall(dir, 'npm test')).kind).toBe('allow');
    const fixed = agentResult(dir, { subagent_type: 'software-developer', prompt: 'Fix the rounding bug' }, 'Fixed rounding.');
    for (const call of subagentWrite(dir, fixed)) send(dir, call);
    expect(send(dir, fixed).kind).toBe('allow');

    // A passing run through PostToolUse completes the requirement.
    const passed = send(dir, bashPassed(dir, 'npm test', runnerOutput('jest', 'passing')));
    expect(passed.context).toContain('requirement of 06-implementation is met');
    expect(testsOf(dir)).toMatchObject({ completed: true, status: 'success', current_iteration: 2 });

    // The gate opens once the other checks hold.
    expect(send(dir, advance(dir)).reason).toContain('CONST_CORRIDOR');
    for (const id of IMPL_ARTICLES) expect(cli(['constitution', 'record', '--article', id, '--result', 'compliant', '--dir', dir]).status).toBe(0);
    const gate = cli(['gate', 'check', '--dir', dir]);
    expect(gate.status, gate.stdout).toBe(0);
    expect(send(dir, advance(dir)).kind).toBe('allow');
    expect(stateOf(dir)['phases'][IMPL].gate_validation.status).toBe('passed');
  });
});

describe('the circuit breaker', () => {
  const start = () => projectWith(workflowState('feature', IMPL));

  it('three identical failures escalate, whatever the timings and paths in them', () => {
    const dir = start();
    const base = runnerOutput('jest', 'failing');
    for (const [i, time] of ['0.512 s', '0.733 s', '1.02 s'].entries()) {
      send(dir, bashFailed(dir, 'npm test', 1, base.replace(/Time:\s+[\d.]+ s/, `Time:        ${time}`).replace(/\/home\/dev\/project/g, `/tmp/run-${i}`)));
    }
    expect(testsOf(dir)).toMatchObject({ status: 'escalated', escalation_reason: 'circuit_breaker' });
  });

  it('three different failures do not', () => {
    const dir = start();
    send(dir, bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')));
    send(dir, bashFailed(dir, 'npx vitest run', 1, runnerOutput('vitest', 'failing')));
    send(dir, bashFailed(dir, 'python3 -m pytest', 1, runnerOutput('pytest', 'failing')));
    expect(testsOf(dir)).toMatchObject({ status: 'in_progress', current_iteration: 3, identical_failure_count: 1 });
  });

  it('inconclusive runs never trip it, nor count as iterations', () => {
    const dir = start();
    const failing = bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing'));
    const unjudgeable = bashPassed(dir, 'npm test | tail -2', 'finished\n');
    send(dir, failing);
    send(dir, unjudgeable);
    send(dir, unjudgeable);
    send(dir, failing);
    send(dir, unjudgeable);
    expect(testsOf(dir)).toMatchObject({ status: 'in_progress', current_iteration: 2, identical_failure_count: 2 });
    expect(testsOf(dir).history.filter((entry: State) => entry['result'] === 'INCONCLUSIVE')).toHaveLength(3);
  });
});
