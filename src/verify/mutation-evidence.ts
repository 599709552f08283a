// What the gate's mutation runs mean for a phase's gate: the `mutation_score` requirement. Passing tests say
// the code does what they check; a mutation score says they would notice if the code the workflow changed
// were wrong. Before a completion nothing runs: the requirement says what completing will mutate, or why it
// cannot (no tool, no base commit, a config that cannot be used) before the test run is spent. At completion
// the mutation run (verify/mutation-run.ts) decides.
import { detectMutation, STRYKER_SOURCES, type MutationTool } from '../config/detect-mutation.js';
import { DEFAULT_MUTATION_TIMEOUT_MINUTES, loadTestingConfig, TESTING_PATH, type LoadedTesting } from '../config/testing-config.js';
import { changedSince, type ChangedSource } from '../detect/changed-lines.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import type { IsdlcState } from '../state/schema.js';
import { describeSurvivor } from '../testwatch/mutation-survivor.js';
import { isRecord } from '../util/json.js';
import type { VerifiedCheck } from './gate-evidence.js';
import type { MutationRun } from './mutation-run.js';

const MUTATION_RUNS_KEPT = 10;
/** Survivors named in a refusal; the rest are counted. */
const SURVIVORS_SAID = 10;

/** What completing the phase will mutate, and with what; or why it cannot measure. */
export type MutationPlan =
  | { runnable: true; tool: MutationTool; baseCommit: string; changed: ChangedSource[]; lines: number; timeoutMinutes: number }
  | { runnable: false; check: VerifiedCheck };

export interface MutationInput {
  state: IsdlcState;
  phase: string;
  root: string;
  threshold: number;
  testing?: LoadedTesting;
}

const PERSON = 'stop and tell the user: a person (not the agent)';

/** The commit `workflow start` recorded (HEAD then); absent without git or without a commit. */
export function baseCommitOf(state: IsdlcState | null | undefined): string | undefined {
  const base = activeWorkflowOf(state)?.['base_commit'];
  return typeof base === 'string' && base ? base : undefined;
}

/** What a completion would mutate, or the refusal that needs no run. */
export function planMutation(input: MutationInput): MutationPlan {
  const testing = input.testing ?? loadTestingConfig(input.root);
  const refuse = (detail: string, action: string): MutationPlan => ({ runnable: false, check: { met: false, detail, action } });
  const wants = `the phase requires a mutation score of ${input.threshold}% on the code this workflow changed`;
  if (testing.problem) return refuse(`${wants}, and the test configuration cannot be used: ${testing.problem}`, `${PERSON} fixes ${TESTING_PATH}`);
  const setup = detectMutation(input.root, testing.config);
  if (!setup.ok) {
    const step = setup.missing.step;
    return refuse(
      `${wants}, and the gate cannot measure one here: ${setup.missing.why}`,
      step.startsWith('isdlc ') ? `${PERSON} runs \`${step}\` in their own terminal` : `${step}; the gate then mutates the changed code itself`,
    );
  }
  const base = baseCommitOf(input.state);
  if (!base) {
    return refuse(
      `${wants}, and the workflow recorded no commit when it started (the project was not a git repository with a commit), so what it changed is unknown`,
      `${PERSON} decides: start the workflow again from a commit, or lift min_mutation_score for this phase (\`isdlc config set iteration-requirements ...\`)`,
    );
  }
  const changed = changedSince(input.root, base);
  if (!changed.ok)
    return refuse(`${wants}, and what it changed cannot be told: ${changed.why}`, `${PERSON} decides how to go on (cancel and start again from HEAD)`);
  const tool = setup.tool;
  // Stryker mutates JavaScript and TypeScript; the other changed files are not its to measure.
  const mutable = tool.stryker && !tool.command.includes('{files}') ? changed.files.filter((source) => STRYKER_SOURCES.test(source.file)) : changed.files;
  if (mutable.length === 0) {
    return {
      runnable: false,
      check: {
        met: true,
        detail: `nothing changed to mutate: no ${tool.stryker ? 'JavaScript or TypeScript ' : ''}source file differs from the commit the workflow started from (${base.slice(0, 12)})`,
      },
    };
  }
  return {
    runnable: true,
    tool,
    baseCommit: base,
    changed: mutable,
    lines: mutable.reduce((sum, source) => sum + source.ranges.reduce((n, [from, to]) => n + to - from + 1, 0), 0),
    timeoutMinutes: testing.config.mutation_timeout_minutes ?? DEFAULT_MUTATION_TIMEOUT_MINUTES,
  };
}

/** The runs the gate made in the active workflow, oldest first. */
export function mutationRunsOf(state: IsdlcState | null | undefined): MutationRun[] {
  const runs = activeWorkflowOf(state)?.['mutation_runs'];
  return Array.isArray(runs) ? (runs.filter(isRecord) as unknown as MutationRun[]) : [];
}

export function recordMutationRun(draft: IsdlcState, run: MutationRun, now: Date): void {
  const workflow = activeWorkflowOf(draft);
  if (!workflow) return;
  workflow['mutation_runs'] = [...mutationRunsOf(draft), run].slice(-MUTATION_RUNS_KEPT);
  (draft.history ??= []).push({
    timestamp: now.toISOString(),
    agent: 'isdlc',
    action: `Gate of ${run.phase} mutated the changed code: ${describeMutationRun(run)}`,
  });
}

/** "score 50% (2 of 4 caught) on 3 changed lines in 1 file, `npx stryker run …` (4.1 s)" */
export function describeMutationRun(run: MutationRun): string {
  const where = `${run.changed.lines} changed line${run.changed.lines === 1 ? '' : 's'} in ${run.changed.files} file${run.changed.files === 1 ? '' : 's'}`;
  const took = `${(run.duration_ms / 1000).toFixed(1)} s${run.sandboxed ? ', in the OS sandbox' : ''}`;
  if (run.result === 'unknown') return `no score for ${where} (${run.why ?? 'unknown'}; ${took})`;
  const counts = run.counts;
  const caught = counts ? counts.killed + counts.timeout : 0;
  const counted = counts ? caught + counts.survived + counts.no_coverage + counts.ignored + counts.pending : 0;
  const score = run.score === null || run.score === undefined ? 'no mutant counted' : `score ${run.score}% (${caught} of ${counted} caught)`;
  return `${score} on ${where}, needs ${run.threshold}% (${took})`;
}

function survivorLines(run: MutationRun): string {
  const survivors = run.survivors ?? [];
  const said = survivors.slice(0, SURVIVORS_SAID).map(describeSurvivor);
  const more = (run.survivors_total ?? survivors.length) - said.length;
  return `${said.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** The verdict on a run the gate made. */
export function judgeMutationRun(run: MutationRun): VerifiedCheck {
  const said = `the gate mutated ${run.changed.lines} changed line${run.changed.lines === 1 ? '' : 's'} in ${run.changed.files} file${run.changed.files === 1 ? '' : 's'} with \`${run.command}\``;
  if (run.result === 'unknown') {
    return {
      met: false,
      detail: `${said}; it measured nothing: ${run.why ?? 'unknown'}${run.excerpt && !run.behaves_differently ? `; it said: ${run.excerpt.split('\n').slice(0, 3).join(' | ')}` : ''}`,
      action: run.behaves_differently
        ? "make those tests assert the same wherever they run (a test that checks where it runs, or whether it can write isdlc's files, proves nothing), then complete the phase again"
        : run.timed_out
          ? `${PERSON} raises mutation_timeout_minutes in ${TESTING_PATH} (\`isdlc config set testing mutation_timeout_minutes 60\`), or the change is made smaller`
          : 'make the mutation run work (its tests must pass under it), then complete the phase again; if its configuration is at fault, stop and tell the user',
    };
  }
  const counts = run.counts!;
  if (run.score === null || run.score === undefined) {
    if ((run.mutants ?? 0) === 0) return { met: true, detail: `${said}; no mutant falls on the changed lines (nothing there to mutate)` };
    return {
      met: false,
      detail: `${said}; none of its ${run.mutants ?? 0} mutants on the changed lines could be tested (${counts.invalid} did not compile or run), so the score is unknown`,
      action: 'make the changed code compile and run under the mutation tool, then complete the phase again',
    };
  }
  const ignored =
    counts.ignored > 0
      ? `; ${counts.ignored} mutant${counts.ignored === 1 ? '' : 's'} the tool was told to ignore count${counts.ignored === 1 ? 's' : ''} as not caught (a disable comment in changed code does not lower the bar)`
      : '';
  const faked = run.rechecked?.find((check) => check.result === 'not caught');
  if (faked) {
    const change = `${faked.file}:${faked.line} ${faked.mutator}${faked.original !== undefined ? `: ${faked.original} → ${faked.replacement}` : ` → ${faked.replacement}`}`;
    const by = faked.killed_by.length > 0 ? ` by ${faked.killed_by.map((name) => `"${name}"`).join(', ')}` : '';
    return {
      met: false,
      detail: `${said}; the tool said ${change} was caught${by}, but with that change made to the file by isdlc the tests pass: they notice the mutation tool, not the change (score as the tool counted it: ${run.score}%)`,
      action:
        'make the tests check what the code does; a test that looks at the mutation tool (which mutant is active) proves nothing. Then complete the phase again',
    };
  }
  const unchecked = run.rechecked?.filter((check) => check.result === 'unknown') ?? [];
  const caught = run.rechecked?.filter((check) => check.result === 'caught').length ?? 0;
  // Not one kill confirmed: a suite that cannot run from the copy would otherwise switch the check off.
  if (run.rechecked && run.rechecked.length > 0 && caught === 0) {
    return {
      met: false,
      detail: `${said}; isdlc could not confirm the tool's word on any caught mutant by making it by hand: ${unchecked[0]?.why ?? 'unknown'}`,
      action: `make the test command run from a copy of the project's files (the files git lists, in a folder inside the project); if it cannot, ${PERSON} sets mutation_recheck to false in ${TESTING_PATH} (\`isdlc config set testing mutation_recheck false\`)`,
    };
  }
  const rechecks =
    run.rechecked && run.rechecked.length > 0
      ? `; ${caught} of the caught mutants made by hand failed the tests too${unchecked.length > 0 ? `, ${unchecked.length} could not be checked (${unchecked[0]!.why ?? 'unknown'})` : ''}`
      : '';
  if (run.score < run.threshold) {
    return {
      met: false,
      detail: `${said}; its score ${run.score}% is below the ${run.threshold}% this phase requires${ignored}. Not caught: ${survivorLines(run)}`,
      action: 'write or strengthen tests that fail on these changes (each names a change to the code that no test noticed), then complete the phase again',
    };
  }
  return { met: true, detail: `${said}: ${describeMutationRun(run)}${ignored}${rechecks}` };
}

export interface MutationCheckInput extends MutationInput {
  /** The run made for this completion. */
  mutationRun?: MutationRun;
  /** The gate is judged for a completion (its test run was made): a score is needed now, not promised. */
  completing: boolean;
}

/** The `mutation_score` requirement. */
export function mutationScoreCheck(input: MutationCheckInput): VerifiedCheck {
  if (input.mutationRun) return judgeMutationRun(input.mutationRun);
  const plan = planMutation(input);
  if (!plan.runnable) return plan.check;
  if (input.completing) {
    return {
      met: false,
      detail: `the phase requires a mutation score of ${input.threshold}%, and no mutation run was made: it runs only once the gate's test run has met its requirement`,
      action: 'meet the requirement of the test run first (above), then complete the phase again',
    };
  }
  const files = `${plan.changed.length} file${plan.changed.length === 1 ? '' : 's'}`;
  const will = `\`isdlc phase complete\` mutates the ${plan.lines} changed line${plan.lines === 1 ? '' : 's'} in ${files} with \`${plan.tool.command}\` and needs ${input.threshold}%`;
  const last = mutationRunsOf(input.state)
    .filter((run) => run.phase === input.phase)
    .at(-1);
  if (last) {
    const verdict = judgeMutationRun(last);
    if (!verdict.met) return { ...verdict, atCompletion: true, detail: `${verdict.detail}; completing the phase mutates the changed code again` };
  }
  return { met: true, atCompletion: true, detail: `${will}${last ? `; its last run: ${describeMutationRun(last)}` : ''}` };
}
