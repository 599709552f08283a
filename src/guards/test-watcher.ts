// Every test run in a phase that requires passing tests is judged and recorded, and the model is told
// where it stands. It listens to PostToolUseFailure too: a failing command never arrives as PostToolUse.
import { isAbsolute, join } from 'node:path';
import type { ProjectConfig } from '../config/project-config.js';
import { coverageThreshold, effectivePhaseRequirements } from '../config/requirements.js';
import { defineGuard } from '../engine/guard.js';
import type { HookEvent } from '../events/hook-event.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';
import { iterationEnforcementOff } from '../state/enforcement.js';
import { phaseDraft, phaseStatusOf, testIterationDraft, testIterationOf } from '../state/phase-records.js';
import type { IsdlcState } from '../state/schema.js';
import { classifyRun, type Classification } from '../testwatch/classify.js';
import { iterationLimits, type IterationLimits } from '../testwatch/limits.js';
import { recordTestRun, type TestRunOutcome } from '../testwatch/record.js';
import { readReporterFile } from '../testwatch/reporter-files.js';
import { findTestCommand } from '../testwatch/test-commands.js';
import { verifiesAtGate } from '../verify/verify-at-gate.js';
import { recordObservedNames } from '../verify/observed-names.js';
import { toolRef } from '../config/agent-operations.js';

function reporterSummary(event: HookEvent, root: string, file: unknown, now: Date) {
  if (typeof file !== 'string' || file === '') return null;
  const since = now.getTime() - (event.outcome?.durationMs ?? 0) - 2000;
  return readReporterFile(isAbsolute(file) ? file : join(root, file), since);
}

function runMessage(
  phase: string,
  command: string,
  run: Classification,
  outcome: TestRunOutcome,
  limits: IterationLimits,
  coverage: { value: number | undefined; threshold: number | undefined; verifiedAtGate: boolean },
): string {
  const at = `iteration ${outcome.iteration} of ${limits.max} in phase ${phase}`;
  if (outcome.kind === 'inconclusive') {
    return (
      `isdlc test-watcher: could not tell whether \`${command}\` passed: ${run.basis}. The run is recorded but not counted. ` +
      'To have a run judged, run the tests in the foreground with their output unpiped, or name a reporter file (test_iteration.reporter_file) in the phase config.'
    );
  }
  if (outcome.kind === 'passed') {
    const cov =
      coverage.value === undefined
        ? coverage.threshold !== undefined
          ? ` Coverage was not reported; this phase expects ${coverage.threshold}%.`
          : ''
        : coverage.threshold !== undefined && coverage.value < coverage.threshold
          ? ` Coverage is ${coverage.value}%, below the ${coverage.threshold}% this phase requires: add tests for the uncovered code.`
          : ` Coverage ${coverage.value}%.`;
    if (outcome.escalationWaits) {
      return (
        `isdlc test-watcher: the tests passed (${run.basis}), ${at}, but the phase's tests were escalated to a person and a passing run does not end that. ` +
        `Stop and tell the user: they review the work and run \`isdlc escalation approve --phase ${phase}\` in their own terminal if it may go on.`
      );
    }
    const verified = coverage.verifiedAtGate ? " When the phase completes, the gate runs the project's test command itself and judges that run too." : '';
    return `isdlc test-watcher: the tests passed (${run.basis}), ${at}. The test requirement of ${phase} is met.${cov}${verified}`;
  }
  const lines = [`isdlc test-watcher: the tests failed (${run.basis}), ${at}.`];
  if (run.couldNotRun)
    lines.push(`They did not run at all: ${run.couldNotRun}. Make the suite start (fix the compile, import or collection error) before anything else.`);
  if (run.excerpt) lines.push(run.excerpt);
  if (outcome.escalated || outcome.alreadyEscalated) {
    const why =
      outcome.escalated === 'max_iterations'
        ? `all ${limits.max} iterations are used`
        : outcome.escalated === 'circuit_breaker'
          ? `the same failure came back ${outcome.identicalFailures} times in a row (circuit breaker)`
          : 'the phase was already escalated';
    lines.push(
      `Escalated to a human: ${why}. Stop retrying. Tell the user what fails and what you tried; a person decides how to go on, ` +
        `and approves with \`isdlc escalation approve --phase ${phase}\` (an agent cannot run it).`,
    );
  } else {
    lines.push(
      `Same failure ${outcome.identicalFailures} time${outcome.identicalFailures > 1 ? 's' : ''} in a row; at ${limits.breaker} the loop stops for a human. ` +
        `Fix the cause, then run \`${command}\` again. The workflow cannot leave ${phase} while the tests fail.`,
    );
  }
  return lines.join('\n');
}

function testConfig(config: ProjectConfig, state: IsdlcState, phase: string) {
  const requirements = effectivePhaseRequirements(config.iterationRequirements, phase, activeWorkflowOf(state)?.type);
  return { requirements, test: requirements?.test_iteration };
}

export const testWatcher = defineGuard({
  id: 'test-watcher',
  description:
    'Judges each test run (passed, failed, inconclusive), records it in the phase, trips the circuit breaker and the iteration limit, and tells the model where it stands.',
  on: { PostToolUse: ['shell'], PostToolUseFailure: ['shell'] },
  check({ event, state, config, location, now, note, tellUser, update, log, dryRun }) {
    const phase = currentPhaseOf(state);
    if (!state || !phase || !activeWorkflowOf(state) || !event.outcome) return;
    // Switched off by the person: no run is judged or recorded (the JavaScript framework's test watcher did the same).
    if (iterationEnforcementOff(state)) return;
    const { requirements, test } = testConfig(config, state, phase);
    if (!test?.enabled) return;
    const line = typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
    const match = findTestCommand(line, test.test_commands ?? []);
    if (!match) return;
    if (phaseStatusOf(state, phase) === 'completed') {
      // The gate has passed on the evidence it saw; a later run must not rewrite that record.
      log({ command: match.segment, outcome: 'phase-completed', phase });
      note(
        `isdlc test-watcher: \`${match.segment}\` was not recorded: ${phase} is completed and its gate has passed. Call ${toolRef('phase_activate')} to start the next phase; runs count there.`,
      );
      return;
    }

    const run = classifyRun({
      outcome: event.outcome,
      command: match.segment,
      exitStatus: match.exitStatus,
      ...(match.distrust ? { distrust: match.distrust } : {}),
      reporter: reporterSummary(event, location.root, test['reporter_file'], now),
    });
    const limits = iterationLimits(state, requirements);
    const timestamp = now.toISOString();
    const input = { classification: run, command: match.segment, now: timestamp, maxIterations: limits.max, circuitBreakerThreshold: limits.breaker };
    // Predict on a copy of what was read, for the message; the same rule runs on the newest state below.
    const predicted = recordTestRun(structuredClone(testIterationOf(state, phase) ?? {}), input);
    const atdd = activeWorkflowOf(state)?.atdd_mode === true && run.result === 'passed' && (run.summary?.skipped ?? 0) > 0;

    update((draft) => {
      recordTestRun(testIterationDraft(draft, phase), input);
      if (activeWorkflowOf(draft)?.atdd_mode === true && run.result === 'passed') {
        phaseDraft(draft, phase)['atdd_validation'] = {
          ...(phaseDraft(draft, phase)['atdd_validation'] ?? {}),
          skipped_tests_detected: (run.summary?.skipped ?? 0) > 0,
          skipped_count: run.summary?.skipped ?? 0,
          skipped_tests: run.summary?.skippedTests ?? [],
          checked_at: timestamp,
        };
      }
    });
    // The tests by name, in a file of their own: what the gate's own run is compared with.
    let named: number | undefined;
    if (!dryRun && run.result !== 'inconclusive') {
      const file = test['reporter_file'];
      named = recordObservedNames({
        root: location.root,
        state,
        phase,
        command: match.segment,
        output: event.outcome.text,
        summary: run.summary,
        at: timestamp,
        ...(typeof file === 'string' && file ? { reporter: { file, since: now.getTime() - (event.outcome.durationMs ?? 0) - 2000 } } : {}),
      })?.named;
    }
    log({
      command: match.segment,
      result: run.result,
      ...(named !== undefined ? { named } : {}),
      basis: run.basis,
      iteration: predicted.iteration,
      ...(run.summary ? { runner: run.summary.runner } : {}),
    });
    note(
      runMessage(phase, match.segment, run, predicted, limits, {
        value: run.coverage,
        threshold: coverageThreshold(requirements, state),
        verifiedAtGate: verifiesAtGate(requirements),
      }),
    );
    if (atdd) {
      const names = run.summary?.skippedTests.length ? `: ${run.summary.skippedTests.slice(0, 10).join('; ')}` : '';
      note(
        `isdlc test-watcher (ATDD mode): ${run.summary?.skipped} test${run.summary?.skipped === 1 ? ' is' : 's are'} skipped${names}. ` +
          'Skipped tests are not allowed at the gate in ATDD mode: implement them and remove the skip.',
      );
    }
    if (predicted.kind === 'failed' && predicted.escalated) {
      tellUser(
        `isdlc: tests in ${phase} escalated (${predicted.escalated}) after ${predicted.iteration} iterations. Review, then run \`isdlc escalation approve --phase ${phase}\` to let the workflow go on.`,
      );
    }
  },
});
