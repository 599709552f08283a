// What the gate's own test runs mean for a phase's gate: the `verified_test_run` requirement. A run made at
// completion must have passed, counted its tests, run no fewer tests than the best run seen earlier in the
// workflow (unless a person accepted the drop) and, where the phase wants one, measured coverage at or above
// the threshold. Outside a completion (`gate check`, the gate-blocker hook, `status`) nothing is run: the
// requirement says what will be run, or what the last run found while it is still the newest word on the tests.
import type { IsdlcState } from '../state/schema.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import { testIterationOf } from '../state/phase-records.js';
import { asRecord, isRecord, asText } from '../util/json.js';
import type { GateRun } from './gate-run.js';
import { ACCEPT_TESTS_COMMAND } from './test-definition.js';
import { loadTestingConfig, TESTING_PATH, type LoadedTesting } from '../config/testing-config.js';
import { workflowKeyOf } from '../integrity/workflow-key.js';
import { acceptNames, readNamesRecord, recordRunNames, updateNamesRecord } from './test-names-record.js';
import { describeChanged, describeVanished, judgeNames, type NamesVerdict, type VanishedTest } from './test-names-judge.js';

/** State is read on every hook call: older runs keep their numbers, only the newest few their output excerpt. */
const GATE_RUNS_KEPT = 20;
const EXCERPTS_KEPT = 3;

export interface VerifiedCheck {
  met: boolean;
  detail: string;
  action?: string;
  /** Met so far: the gate's own run at completion decides. */
  atCompletion?: boolean;
}

/** The runs the gate made in the active workflow, oldest first. */
export function gateRunsOf(state: IsdlcState | null | undefined): GateRun[] {
  const runs = activeWorkflowOf(state)?.['gate_runs'];
  return Array.isArray(runs) ? (runs.filter(isRecord) as unknown as GateRun[]) : [];
}

/** A short account of a run: "`npm test`: passed, 12 tests (3.2 s)". */
export function describeGateRun(run: GateRun): string {
  const counts = run.counts
    ? `${run.counts.passed} passed, ${run.counts.failed} failed${run.counts.skipped ? `, ${run.counts.skipped} skipped` : ''}`
    : 'no test count';
  const coverage = run.coverage ? `, coverage ${run.coverage.percent}% (${run.coverage.from})` : '';
  return `\`${run.command}\` at ${clock(run.at)}: ${run.result} (${counts}${coverage}; ${(run.duration_ms / 1000).toFixed(1)} s${run.sandboxed ? ', in the OS sandbox' : ''})`;
}

function clock(iso: string): string {
  return iso.slice(11, 16);
}

/**
 * Records a gate run in the workflow and its history line; the tests it named go to the workflow's record
 * of names (a file of its own: state stays small), and the run keeps where they are.
 */
export function recordGateRun(draft: IsdlcState, run: GateRun, now: Date, root?: string): void {
  const workflow = activeWorkflowOf(draft);
  if (!workflow) return;
  const { testNames, ...kept } = run;
  delete run.testNames;
  const key = workflowKeyOf(draft);
  if (testNames && root && key) {
    const about = { at: run.at, by: 'gate' as const, command: run.command, phase: run.phase, ...(run.tree ? { tree: run.tree } : {}) };
    const recorded = recordRunNames(root, key, about, testNames);
    run.names = { run: recorded.id, runner: recorded.runner, named: recorded.named, kept: recorded.kept };
    Object.assign(kept, { names: run.names });
  }
  const runs = [...gateRunsOf(draft), kept].slice(-GATE_RUNS_KEPT);
  workflow['gate_runs'] = runs.map((kept, i) => {
    if (i >= runs.length - EXCERPTS_KEPT || kept.excerpt === undefined) return kept;
    const { excerpt: _excerpt, ...rest } = kept;
    return rest;
  });
  (draft.history ??= []).push({ timestamp: now.toISOString(), agent: 'isdlc', action: `Gate of ${run.phase} ran the tests itself: ${describeGateRun(run)}` });
}

export interface CountMark {
  executed: number;
  at: string;
  what: string;
}

interface FloorAcceptance {
  executed: number;
  at: string;
  by?: string;
}

export function floorAcceptancesOf(state: IsdlcState | null | undefined): FloorAcceptance[] {
  const list = activeWorkflowOf(state)?.['test_count_accepted'];
  return Array.isArray(list) ? (list.filter(isRecord) as unknown as FloorAcceptance[]) : [];
}

/**
 * The most tests seen running in this workflow, since a person last accepted a lower number: the gate's own
 * runs, and the hook-observed runs of the same command that were judged (a run whose output was filtered was
 * not). An agent that inflates an observed count only raises its own bar.
 */
export function countFloor(state: IsdlcState, commands: readonly string[], before?: string): CountMark | undefined {
  const same = new Set(commands.map((command) => command.trim()));
  const workflow = activeWorkflowOf(state);
  if (!workflow) return undefined;
  const accepted = floorAcceptancesOf(state).at(-1);
  const since = accepted?.at ?? String(workflow.started_at ?? '');
  let best: CountMark | undefined = accepted ? { executed: accepted.executed, at: accepted.at, what: 'accepted by a person' } : undefined;
  const consider = (mark: CountMark): void => {
    if (mark.at < since || (before !== undefined && mark.at >= before)) return;
    if (!best || mark.executed > best.executed) best = mark;
  };
  // What earlier workflows saw, until a person accepts a lower number in this one.
  const carried = carriedFloorOf(state);
  if (carried && !accepted && (!best || carried.executed > best.executed)) best = carried;
  for (const run of gateRunsOf(state)) {
    if (run.counts && run.result !== 'inconclusive') consider({ executed: run.counts.executed, at: run.at, what: `the gate's run of \`${run.command}\`` });
  }
  for (const phase of workflow.phases ?? []) {
    const history = testIterationOf(state, phase)?.history;
    for (const entry of Array.isArray(history) ? history.filter(isRecord) : []) {
      if (asText(entry['result']).toLowerCase() === 'inconclusive' || typeof entry['passed'] !== 'number' || typeof entry['timestamp'] !== 'string') continue;
      if (!same.has(asText(entry['command']).trim())) continue;
      consider({
        executed: Number(entry['passed']) + Number(entry['failures'] ?? 0),
        at: entry['timestamp'],
        what: `\`${String(entry['command'])}\` (observed)`,
      });
    }
  }
  return best;
}

/** The floor the last workflow to end left for the next (carryCountFloor). */
function carriedFloorOf(state: IsdlcState): CountMark | undefined {
  const mark = asRecord(state['test_count_floor']);
  return typeof mark['executed'] === 'number' && typeof mark['at'] === 'string' && typeof mark['what'] === 'string'
    ? { executed: mark['executed'], at: mark['at'], what: `${mark['what']} in ${asText(mark['from'], 'an earlier workflow')}` }
    : undefined;
}

/**
 * As the active workflow ends: its floor (what it saw run, what it carried in, or a person's acceptance) is
 * kept in state for the next workflow, so that cancelling and starting again does not reset the count.
 */
export function carryCountFloor(draft: IsdlcState, suite: readonly string[], ending: string): void {
  const floor = countFloor(draft, suite);
  const carried = carriedFloorOf(draft);
  if (!floor || (carried && floor.at === carried.at && floor.executed === carried.executed)) return; // carried on as it was
  draft['test_count_floor'] = { executed: floor.executed, at: floor.at, what: floor.what, from: ending };
}

export interface VerifiedInput {
  state: IsdlcState;
  phase: string;
  root: string;
  /** The phase's coverage threshold, when it has one. */
  threshold: number | undefined;
  /** The run made for this completion; absent when the gate is only looked at. */
  gateRun?: GateRun;
  testing?: LoadedTesting;
}

const PERSON_FIXES_CONFIG = `a person (not the agent) sets it in ${TESTING_PATH}; tell the user`;

/** The `verified_test_run` requirement, for a phase whose gate runs the tests itself. */
export function verifiedRunCheck(input: VerifiedInput): VerifiedCheck {
  const testing = input.testing ?? loadTestingConfig(input.root);
  if (testing.problem) return { met: false, detail: `the test configuration cannot be used: ${testing.problem}`, action: PERSON_FIXES_CONFIG };
  const command = testing.config.command;
  if (command === null) {
    return {
      met: false,
      detail: `the gate runs the tests itself, but no test command is configured${testing.from === 'detected' ? ' or detected' : ''}`,
      action: `${PERSON_FIXES_CONFIG} ("command": the command that runs the whole suite)`,
    };
  }
  const source =
    testing.from === 'detected' ? ` (detected; ${TESTING_PATH} does not exist)` : testing.guessed ? ` (detected; ${TESTING_PATH} names no command)` : '';
  const willRun = input.threshold !== undefined && testing.config.coverage_command ? testing.config.coverage_command : command;
  // Knowable before any run: the phase wants a figure and nothing here can measure one.
  if (input.threshold !== undefined && testing.coverage.from === 'none' && (!input.gateRun || !input.gateRun.coverage)) {
    return coverageUnmeasurable(input.threshold, testing.coverage.missing, input.gateRun ? `the gate ran ${describeGateRun(input.gateRun)}; ` : '');
  }
  if (!input.gateRun) return preview(input, willRun, source);
  return judge(input, input.gateRun, testing);
}

/** The phase wants a coverage figure and the project has nothing that measures one: why, and the step that provides it. */
function coverageUnmeasurable(threshold: number, missing: { why: string; step: string }, ran: string): VerifiedCheck {
  const personOnly = missing.step.startsWith('isdlc ');
  return {
    met: false,
    detail: `${ran}the phase requires ${threshold}% line coverage, and the gate cannot measure coverage here: ${missing.why}`,
    action: personOnly
      ? `stop and tell the user: a person (not the agent) runs \`${missing.step}\` in their own terminal`
      : `${missing.step}; the gate then measures coverage itself (or a person names a "coverage_command" in ${TESTING_PATH}: \`isdlc config set testing coverage_command "..."\`)`,
  };
}

/** Outside a completion: what the last run found while it is the newest word on the tests, else what will run. */
function preview(input: VerifiedInput, command: string, source: string): VerifiedCheck {
  const last = gateRunsOf(input.state)
    .filter((run) => run.phase === input.phase)
    .at(-1);
  const observedAt = asText(testIterationOf(input.state, input.phase)?.['last_run_at']);
  if (last && last.at > observedAt) {
    const verdict = judge(input, last, undefined, last.at);
    if (!verdict.met) return { ...verdict, detail: `${verdict.detail}; completing the phase runs \`${command}\` again` };
  }
  const wants = input.threshold === undefined ? '' : ` and needs ${input.threshold}% line coverage from it`;
  return {
    met: true,
    atCompletion: true,
    detail: `\`isdlc phase complete\` runs \`${command}\`${source} itself${wants} before the gate opens${last ? `; its last run: ${describeGateRun(last)}` : ''}`,
  };
}

function judge(input: VerifiedInput, run: GateRun, testing: LoadedTesting | undefined, before: string = run.at): VerifiedCheck {
  const said = `the gate ran ${describeGateRun(run)}`;
  if (run.result === 'failed') {
    // The runner's own names for what failed, where its summary gave them.
    const failing = run.excerpt?.startsWith('failing: ') ? `; ${run.excerpt.split('\n')[0]!}` : '';
    return { met: false, detail: `${said}; ${run.basis}${failing}`, action: 'fix the failing tests, run them, and complete the phase again' };
  }
  if (run.result === 'inconclusive')
    return {
      met: false,
      detail: `${said}; it proves nothing: ${run.basis}`,
      action: 'make the test command run and report its tests, then complete the phase again',
    };
  const config = (testing ?? loadTestingConfig(input.root)).config;
  const names = namesVerdictOf(input, run);
  if (names && names.vanished.length > 0) {
    return {
      met: false,
      detail: `${said}; ${describeVanished(names.vanished)}`,
      action: `put the tests back or make them pass; if they were removed on purpose, stop and tell the user: a person (not the agent) runs \`${ACCEPT_TESTS_COMMAND}\` in their own terminal`,
    };
  }
  if (names && names.changed.length > 0) {
    return {
      met: false,
      detail: `${said}; ${describeChanged(names.changed)}`,
      action: 'make the test assert the same wherever it runs, then complete the phase again',
    };
  }
  const floor = countFloor(input.state, suiteCommands(run, config), before);
  if (run.counts && floor && run.counts.executed < floor.executed) {
    return {
      met: false,
      detail: `${run.counts.executed} test${run.counts.executed === 1 ? '' : 's'} ran; ${floor.executed} ran at ${clock(floor.at)} (${floor.what})`,
      action: `put back the tests that no longer run; if they were removed on purpose, stop and tell the user: a person (not the agent) runs \`${ACCEPT_TESTS_COMMAND}\` in their own terminal`,
    };
  }
  if (input.threshold !== undefined) {
    if (!run.coverage) {
      return {
        met: false,
        detail: `${said}; the phase requires ${input.threshold}% coverage, and coverage is unknown: ${config.coverage_command ? `\`${config.coverage_command}\` printed no figure and wrote no report isdlc reads` : 'no coverage command'}`,
        action: `stop and tell the user: ${PERSON_FIXES_CONFIG} ("coverage_command", and "coverage_report" if it writes one)`,
      };
    }
    if (run.coverage.percent < input.threshold) {
      return {
        met: false,
        detail: `${said}; coverage ${run.coverage.percent}% is below the ${input.threshold}% this phase requires`,
        action: 'add tests for the uncovered code, then complete the phase again',
      };
    }
  }
  // Said once, briefly: where the run names no test, the count is all that holds the tests.
  const unnamed = run.counts && !run.names ? '; its output names no test isdlc reads, so the count floor alone holds the tests' : '';
  return { met: true, detail: `${said}${unnamed}` };
}

/** The gate's run judged by name against the tests seen earlier in the workflow; undefined where it named none. */
function namesVerdictOf(input: Pick<VerifiedInput, 'state' | 'root'>, run: GateRun): NamesVerdict | undefined {
  const key = workflowKeyOf(input.state);
  if (!run.names || !key) return undefined;
  const record = readNamesRecord(input.root, key);
  const recorded = record.runs.find((kept) => kept.id === run.names!.run && kept.at === run.at);
  return recorded ? judgeNames(record, recorded) : undefined;
}

/** The floor a run is judged against: the commands that run this project's suite. */
function suiteCommands(run: GateRun | undefined, config: LoadedTesting['config']): string[] {
  return [run?.command, config.command, config.coverage_command].filter((command): command is string => typeof command === 'string');
}

/** The commands that run the project's suite, as its testing config names them. */
export function projectSuiteCommands(root: string): string[] {
  return suiteCommands(undefined, loadTestingConfig(root).config);
}

export interface CountDrop {
  run: GateRun;
  floor: CountMark;
}

/** The gate's last run in this workflow, when it ran fewer tests than the floor (a drop a person may accept). */
export function pendingCountDrop(state: IsdlcState, root: string): CountDrop | undefined {
  const run = gateRunsOf(state).at(-1);
  if (!run?.counts || run.result === 'inconclusive') return undefined;
  const floor = countFloor(state, suiteCommands(run, loadTestingConfig(root).config), run.at);
  return floor && run.counts.executed < floor.executed ? { run, floor } : undefined;
}

/** The person's acceptance of a drop: the run's count becomes the floor from now on. */
export function acceptCountDrop(draft: IsdlcState, drop: CountDrop, by: string, now: Date): void {
  const workflow = activeWorkflowOf(draft);
  if (!workflow) return;
  workflow['test_count_accepted'] = [
    ...floorAcceptancesOf(draft),
    { executed: drop.run.counts!.executed, at: now.toISOString(), by, instead_of: drop.floor.executed },
  ];
}

export function describeCountDrop(drop: CountDrop): string {
  return `${drop.run.counts!.executed} test${drop.run.counts!.executed === 1 ? '' : 's'} ran at ${clock(drop.run.at)} (the gate's run of \`${drop.run.command}\`); ${drop.floor.executed} ran at ${clock(drop.floor.at)} (${drop.floor.what})`;
}

export interface VanishedNames {
  run: GateRun;
  runner: string;
  vanished: VanishedTest[];
}

/** The tests seen earlier that the gate's last run in this workflow does not pass: missing, skipped or todo there. */
export function pendingVanishedTests(state: IsdlcState, root: string): VanishedNames | undefined {
  const run = gateRunsOf(state).at(-1);
  if (!run?.names || run.result === 'inconclusive') return undefined;
  const verdict = namesVerdictOf({ state, root }, run);
  return verdict && verdict.vanished.length > 0 ? { run, runner: run.names.runner, vanished: verdict.vanished } : undefined;
}

/** A person's acceptance: those tests stop counting until a run names them again (who, when and which, in the record). */
export function acceptVanishedTests(draft: IsdlcState, root: string, pending: VanishedNames, by: string, now: Date): void {
  const key = workflowKeyOf(draft);
  if (!key) return;
  const names = pending.vanished.map((test) => test.name);
  updateNamesRecord(root, key, (record) => acceptNames(record, pending.runner, names, by, now.toISOString()));
}

/** What a phase's test_iteration config says, typed loosely (the gate reads only two keys). */
export function reporterFileOf(requirements: unknown): string | undefined {
  const file = asRecord(asRecord(requirements)['test_iteration'])['reporter_file'];
  return typeof file === 'string' && file ? file : undefined;
}
