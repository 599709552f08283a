// The workflow's operations as the `isdlc` commands and the MCP tools both run them: the state file of
// the located project, one locked transaction (or one read), the result, and the line a person reads.
// The agent reads the same line through `forAgent` (agent-operations.ts), so the two cannot drift.
import { articleId, describeArticle } from '../config/constitution.js';
import { normalizePhaseKey } from '../config/phase-keys.js';
import { knownPhaseKeys } from '../config/phases.js';
import { ProjectConfig } from '../config/project-config.js';
import { buildDelegationPrompt } from '../gates/delegation-prompt.js';
import { phaseAgent } from '../config/agents.js';
import { describeUnmet, evaluateGate, type GateEvaluation } from '../gates/evaluate.js';
import type { GateReader } from '../gates/gate-check.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';
import type { Escalation } from '../state/escalations.js';
import type { StateLocation } from '../state/locate.js';
import type { ActiveWorkflow, IsdlcState } from '../state/schema.js';
import type { StateStore } from '../state/store.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { activatePhase, type ActivateResult } from './activate.js';
import { completePhase, refuseWhilePhaseAgentRuns, type CompleteResult } from './complete.js';
import { recordArticleCheck, type ArticleCheckOutcome, type CheckSource } from './constitution.js';
import { addHistory } from './cursor.js';
import { cancelWorkflow, finalizeWorkflow, type ArchivedWorkflow, type EndingIn } from './finalize.js';
import { decideReview, type ReviewDecision, type ReviewOutcome } from './review.js';
import { startWorkflow, WorkflowError, type StartInput } from './start.js';
import { switchToBranch } from './branch-switch.js';
import { coverageThreshold, effectivePhaseRequirements, mutationThreshold } from '../config/requirements.js';
import { phaseStatusOf } from '../state/phase-records.js';
import { projectSuiteCommands, recordGateRun, reporterFileOf } from '../verify/gate-evidence.js';
import { verifiesAtGate } from '../verify/verify-at-gate.js';
import { runGateTests, type GateProgress, type GateRun, type RunIsolation } from '../verify/gate-run.js';
import { loadTestingConfig } from '../config/testing-config.js';
import { checkDependencies, DEPENDENCIES_REQUIREMENT, recordDependenciesAtStart } from '../verify/dependencies/dependency-gate.js';
import { planMutation, recordMutationRun } from '../verify/mutation-evidence.js';
import { runMutation, type MutationRun } from '../verify/mutation-run.js';

/** What a state-changing operation did: its result, the version it wrote, when, and the line to show. */
export interface Outcome<T> {
  result: T;
  version: number;
  /** The transaction's time: the timestamp of the history line (and record) it wrote. */
  at: string;
  message: string;
}

export const NO_ACTIVE_WORKFLOW = 'no active workflow: start one with `isdlc workflow start <type>`';

export function configFor(location: StateLocation): ProjectConfig {
  return new ProjectConfig(location.root, location.configDirs, location.projectId);
}

const storeOf = (location: StateLocation): StateStore => new JournaledStateStore(location.stateFile);

/** The phase an operation means: the one named, else the current phase of the active workflow (null: none). */
/** A phase name no config of the project knows: a typo must not read as a gate with nothing to meet. */
export class UnknownPhaseError extends Error {}

/** `phase` as its key, when the project's config knows it. */
export function knownPhase(location: StateLocation, phase: string): string {
  const key = normalizePhaseKey(phase);
  const known = knownPhaseKeys(configFor(location));
  if (!known.has(key)) throw new UnknownPhaseError(`unknown phase "${phase}": the phases are ${[...known].join(', ')}`);
  return key;
}

export function phaseFor(location: StateLocation, phase: string | undefined): string | null {
  return phase ? knownPhase(location, phase) : currentPhaseOf(storeOf(location).read().state);
}

function change<T>(location: StateLocation, mutate: (draft: IsdlcState, now: Date) => T, message: (result: T, state: IsdlcState) => string): Outcome<T> {
  const now = new Date();
  const { result, version, state } = storeOf(location).update((draft) => mutate(draft, now));
  return { result, version, at: now.toISOString(), message: message(result, state) };
}

export function startAt(location: StateLocation, input: Omit<StartInput, 'now'>): Outcome<ActiveWorkflow> {
  const config = configFor(location);
  // Refused before anything changes: a workflow that cannot start must not leave the branch switched.
  startWorkflow(structuredClone(storeOf(location).read().state ?? {}), config, { ...input, now: new Date() });
  const branch = input.branch ? switchToBranch(location.root, input.branch) : undefined;
  const onBranch = branch ? ` Working on branch ${input.branch!}${branch.switched === 'created' ? ' (made from where HEAD was)' : ''}.` : '';
  const started = change(
    location,
    (draft, now) => startWorkflow(draft, config, { ...input, now }),
    (workflow) =>
      `Started ${input.type} workflow${workflow.description ? ` "${String(workflow.description)}"` : ''}: ${(workflow.phases ?? []).join(' → ')}.${onBranch}\n` +
      `Current phase: ${String(workflow.current_phase)}; artifact folder ${String(workflow.artifact_folder)}.\n` +
      nextAfterStart(String(workflow.current_phase), phaseAgent(config.manifest, String(workflow.current_phase))),
  );
  // What the tests will run on: the gate compares the installed packages with this record before its run.
  const packages = recordDependenciesAtStart(location.root, { now: new Date(started.at) });
  return packages ? { ...started, message: `${started.message}\n${packages}` } : started;
}

/** After a start: the first phase waits for its activation (its clock, its agent named), then its work. */
function nextAfterStart(phase: string, agent: string | undefined): string {
  return (
    `Next: \`isdlc phase activate\` starts ${phase}'s clock${agent ? ` and names its agent, ${agent}` : ''}; then the phase's work, ` +
    `and \`isdlc phase complete\` once \`isdlc gate check\` says its gate is open. In Claude Code the /isdlc command does these steps.`
  );
}

export function escalationLines(queue: readonly Escalation[]): string[] {
  return queue.map(
    (entry, i) => `  ${i + 1}. [${entry.timestamp}] ${entry.hook} (${entry.type}${entry.phase ? `, phase ${entry.phase}` : ''}): ${entry.detail}`,
  );
}

export const ESCALATION_CHOICES =
  'decide with the user: retry (`isdlc escalations --clear`), skip (a person runs `isdlc phase skip`), or cancel (`isdlc workflow cancel`)';

const queueOf = (state: { pending_escalations?: unknown } | null): Escalation[] =>
  (Array.isArray(state?.pending_escalations) ? state.pending_escalations : []) as Escalation[];

/** The activation; an open escalation is named in the message, since the user has to decide on it first. */
export function activateAt(location: StateLocation, phase: string | undefined): Outcome<ActivateResult> {
  const config = configFor(location);
  return change(
    location,
    (draft, now) => activatePhase(draft, config, { now, ...(phase ? { phase } : {}) }),
    (result, state) => {
      const open = queueOf(state);
      return (
        `${result.retry ? `Re-activated (retry ${result.retries})` : 'Activated'} phase ${result.phase} (${result.index + 1} of ${result.total})` +
        `${result.agent ? `; its agent is ${result.agent}` : ''}. Started ${result.startedAt}.` +
        (open.length > 0 ? `\nOpen escalations (${open.length}); ${ESCALATION_CHOICES}:\n${escalationLines(open).join('\n')}` : '')
      );
    },
  );
}

function afterCompletion(result: CompleteResult): string {
  const lines: string[] = [];
  if (result.reviewRequested) {
    lines.push(
      `This is a supervised workflow: ${result.phase} now waits for a person's review. Show the user what the phase produced; ` +
        'they choose continue (`isdlc phase review continue`, in their own terminal), review, or redo.',
    );
  } else if (result.next) lines.push(`Next: \`isdlc phase activate\` starts ${result.next}.`);
  if (!result.next) lines.push('Every phase is completed: run `isdlc workflow finalize`.');
  return lines.join('\n');
}

/**
 * Completes the current phase. Where its gate runs the tests itself, that run happens first, outside the
 * state lock (a suite can take minutes and the hooks must not wait on it), and is recorded whether or not
 * the gate then opens. A gate already closed for another reason is refused before anything runs.
 */
export async function completeAt(
  location: StateLocation,
  summary: string | undefined,
  isolation: RunIsolation,
  onProgress?: (progress: GateProgress) => void,
): Promise<Outcome<CompleteResult>> {
  const config = configFor(location);
  const gateRun = await gateRunFor(location, config, isolation, onProgress);
  const mutationRun = gateRun ? await mutationRunFor(location, config, gateRun, isolation, onProgress) : null;
  let refusal: WorkflowError | undefined;
  const outcome = change(
    location,
    (draft, now): CompleteResult | null => {
      if (gateRun) recordGateRun(draft, gateRun, now, location.root);
      if (mutationRun) recordMutationRun(draft, mutationRun, now);
      try {
        return completePhase(draft, config, {
          now,
          root: location.root,
          docsBase: location.docsBase,
          ...(summary !== undefined ? { summary } : {}),
          ...(gateRun ? { gateRun } : {}),
          ...(mutationRun ? { mutationRun } : {}),
        });
      } catch (error) {
        // The run stays on record; the refusal is said once the transaction has written it.
        if (!gateRun || !(error instanceof WorkflowError)) throw error;
        refusal = error;
        return null;
      }
    },
    (result) =>
      result
        ? `Completed phase ${result.phase}${result.wallClockMinutes !== undefined ? ` in ${result.wallClockMinutes} min` : ''}: its gate is open.\n${afterCompletion(result)}`
        : '',
  );
  if (refusal || !outcome.result) throw refusal ?? new WorkflowError('the phase was not completed');
  return outcome as Outcome<CompleteResult>;
}

/** The gate's own test run for completing the current phase, or null where its gate does not run one. */
async function gateRunFor(
  location: StateLocation,
  config: ProjectConfig,
  isolation: RunIsolation,
  onProgress?: (progress: GateProgress) => void,
): Promise<GateRun | null> {
  // Read the way a write reads: a state someone else wrote is put back first, so no forged record gets a run.
  const { state } = storeOf(location).update(() => undefined);
  const phase = currentPhaseOf(state);
  const workflow = activeWorkflowOf(state);
  if (!state || !phase || !workflow || phaseStatusOf(state, phase) !== 'in_progress') return null;
  // Refusals that need no test run come first: a phase agent still at work, then the rest of the gate.
  refuseWhilePhaseAgentRuns(state, phase, new Date());
  const requirements = effectivePhaseRequirements(config.iterationRequirements, phase, workflow.type);
  const preview = evaluateGate({ state, config, phase, root: location.root, docsBase: location.docsBase });
  if (!preview.checks.some((check) => check.requirement === 'verified_test_run') || !verifiesAtGate(requirements)) return null;
  const testing = loadTestingConfig(location.root);
  // Known without a run: no command, a config that cannot be used, or a coverage figure nothing here measures.
  const unmeasurable = testing.coverage.from === 'none' && coverageThreshold(requirements, state) !== undefined;
  // A mutation score that cannot be measured is known now; one whose last run fell short is measured again.
  const blocking = preview.unmet.filter(
    (check) =>
      (check.requirement === 'mutation_score' ? !check.atCompletion : check.requirement !== 'verified_test_run') ||
      testing.problem ||
      testing.config.command === null ||
      unmeasurable,
  );
  if (blocking.length > 0) {
    throw new WorkflowError(
      `the gate of ${phase} is closed, so the phase stays in progress:\n${describeUnmet({ ...preview, unmet: blocking })}\nRun \`isdlc gate check\` to see it again once that is done.`,
    );
  }
  // The tests run on the packages the lockfile names, or not at all.
  const dependencies = checkDependencies(location.root, { now: new Date(), write: true });
  if (!dependencies.met) {
    const unmet = { requirement: DEPENDENCIES_REQUIREMENT, ...dependencies } as const;
    throw new WorkflowError(
      `the gate of ${phase} is closed, so the phase stays in progress:\n${describeUnmet({ ...preview, open: false, unmet: [unmet] })}\nRun \`isdlc gate check\` to see it again once that is done.`,
    );
  }
  const reporterFile = reporterFileOf(requirements);
  return runGateTests({
    root: location.root,
    phase,
    testing: testing.config,
    wantCoverage: coverageThreshold(requirements, state) !== undefined,
    isolation,
    ...(reporterFile ? { reporterFile } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
}

/**
 * The mutation run for completing the phase, after its test run: only where the phase wants a score, the
 * test run met its requirement and nothing else closes the gate (a refusal needs no mutation run).
 */
async function mutationRunFor(
  location: StateLocation,
  config: ProjectConfig,
  gateRun: GateRun,
  isolation: RunIsolation,
  onProgress?: (progress: GateProgress) => void,
): Promise<MutationRun | null> {
  const state = storeOf(location).read().state;
  const workflow = activeWorkflowOf(state);
  if (!state || !workflow) return null;
  const threshold = mutationThreshold(effectivePhaseRequirements(config.iterationRequirements, gateRun.phase, workflow.type), state);
  if (threshold === undefined) return null;
  const judged = evaluateGate({ state, config, phase: gateRun.phase, root: location.root, docsBase: location.docsBase, gateRun });
  if (judged.unmet.some((check) => check.requirement !== 'mutation_score')) return null;
  const plan = planMutation({ state, phase: gateRun.phase, root: location.root, threshold });
  if (!plan.runnable) return null;
  const testing = loadTestingConfig(location.root).config;
  return runMutation({
    root: location.root,
    phase: gateRun.phase,
    threshold,
    tool: plan.tool,
    baseCommit: plan.baseCommit,
    changed: plan.changed,
    timeoutMinutes: plan.timeoutMinutes,
    isolation,
    ...(testing.command && testing.mutation_recheck !== false ? { recheck: { command: testing.command, timeoutMinutes: testing.timeout_minutes } } : {}),
    ...(onProgress ? { onProgress } : {}),
  });
}

/** The line `phase skip` prints: the same next steps as a completion. */
export function skippedMessage(result: CompleteResult): string {
  return `Skipped phase ${result.phase} (gate overridden, recorded with your reason).\n${afterCompletion(result)}`;
}

function archivedMessage(entry: ArchivedWorkflow): string {
  const m = entry.metrics;
  return (
    `${entry.status === 'completed' ? 'Finalized' : 'Cancelled'} the ${entry.type} workflow: ${m.phases_completed} of ${m.phases_total} phases completed` +
    `${m.phases_skipped ? ` (${m.phases_skipped} skipped)` : ''}, ${m.total_retries} retr${m.total_retries === 1 ? 'y' : 'ies'}, ` +
    `${m.test_iterations_total} test run${m.test_iterations_total === 1 ? '' : 's'}` +
    `${m.wall_clock_minutes !== undefined ? `, ${m.wall_clock_minutes} min in all` : ''}.\n` +
    'It is kept in workflow_history; no workflow is active now.'
  );
}

const endingIn = (location: StateLocation): EndingIn => ({ root: location.root, suite: projectSuiteCommands(location.root) });

export function finalizeAt(location: StateLocation): Outcome<ArchivedWorkflow> {
  return change(location, (draft, now) => finalizeWorkflow(draft, { now, project: endingIn(location) }), archivedMessage);
}

/** `byPerson`: the call comes from a person's own terminal, not from the agent (its shell or its MCP tools). */
export function cancelAt(location: StateLocation, reason: string, byPerson: boolean): Outcome<ArchivedWorkflow> {
  return change(location, (draft, now) => cancelWorkflow(draft, { reason, now, byPerson, project: endingIn(location) }), archivedMessage);
}

/** What a closed gate already has: for a person reading who recorded what (the articles' recorders among it). */
function metLines(result: GateEvaluation): string {
  const met = result.checks.filter((check) => check.met);
  return met.length > 0 ? `\nMet:\n${met.map((check) => `- ${check.requirement}: ${check.detail}`).join('\n')}` : '';
}

/** The gate of `phase` as it stands: a read, nothing is written. `reader`: who the message is for. */
export function gateAt(location: StateLocation, phase: string, reader: GateReader = 'agent'): { result: GateEvaluation; message: string } {
  const state = storeOf(location).read().state ?? {};
  const result = evaluateGate({
    state,
    config: configFor(location),
    phase,
    root: location.root,
    docsBase: location.docsBase,
    // A few hundred milliseconds for a few hundred packages: looked at now, and again when the phase completes.
    verifyDependencies: () => {
      const { met, detail, action } = checkDependencies(location.root, { now: new Date(), write: false });
      return { met, detail, ...(action ? { action } : {}) };
    },
  });
  const lines = result.checks.length > 0 ? `:\n${result.checks.map((check) => `- ${check.requirement}: ${check.detail}`).join('\n')}` : '.';
  const count = `${result.checks.length} requirement${result.checks.length === 1 ? '' : 's'} met`;
  // The gate's own test run happens at completion: until then "open" would promise what only that run decides.
  const runPending = result.checks.some((check) => check.atCompletion);
  const message = result.open
    ? runPending
      ? `The gate of ${result.phase} opens if the tests pass when \`isdlc phase complete\` runs them (${count} so far)${lines}`
      : `The gate of ${result.phase} is open (${count})${lines}`
    : `The gate of ${result.phase} is closed:\n${describeUnmet(result, reader)}` + metLines(result);
  return { result, message };
}

export interface ArticleRecord {
  phase: string;
  article: string;
  result: 'compliant' | 'violation';
  note?: string;
  source?: CheckSource;
}

export function recordArticleAt(location: StateLocation, check: ArticleRecord): Outcome<ArticleCheckOutcome> {
  const config = configFor(location);
  return change(
    location,
    (draft, now) => recordArticleCheck(draft, config, { ...check, now: now.toISOString() }),
    (outcome) => {
      const title = describeArticle(config.constitution, articleId(check.article));
      const head = `${title}: ${check.result} (phase ${check.phase}, iteration ${outcome.record.iterations_used}/${outcome.record.max_iterations}).`;
      if (outcome.escalated)
        return `${head}\nConstitutional validation of ${check.phase} is escalated to a human: a person reviews it and runs \`isdlc escalation approve --phase ${check.phase}\`.`;
      if (outcome.completed) {
        const worker = phaseAgent(config.manifest, check.phase);
        return (
          `${head}\nEvery article required in ${check.phase} is compliant.` +
          (outcome.independentReview
            ? ` Its gate counts a check only when ${worker ? `an agent other than ${worker}` : 'a subagent'} recorded it (\`isdlc gate check\` says who did).`
            : '')
        );
      }
      return `${head}\nStill to be compliant: ${outcome.remaining.map((id) => describeArticle(config.constitution, id)).join('; ')}`;
    },
  );
}

/** The prompt to delegate `phase` (default: the current one) of the active workflow with; null without one. */
export function delegationPromptAt(location: StateLocation, phase: string | undefined): { phase: string; prompt: string } | null {
  const state = storeOf(location).read().state;
  if (!activeWorkflowOf(state)) return null;
  const key = phase ? knownPhase(location, phase) : currentPhaseOf(state)!;
  return { phase: key, prompt: buildDelegationPrompt({ state: state!, config: configFor(location), phase: key, now: new Date() }) };
}

export function escalationsAt(location: StateLocation): Escalation[] {
  return queueOf(storeOf(location).read().state);
}

/** Empties the queue (a retry the user chose); the history says how many went. */
export function clearEscalationsAt(location: StateLocation): Outcome<Escalation[]> {
  return change(
    location,
    (draft, now) => {
      const before = queueOf(draft);
      draft.pending_escalations = [];
      if (before.length > 0) addHistory(draft, now, `Cleared ${before.length} escalation${before.length === 1 ? '' : 's'}`);
      return before;
    },
    (cleared) => (cleared.length === 0 ? 'No open escalations.' : `Cleared escalations (${cleared.length}):\n${escalationLines(cleared).join('\n')}`),
  );
}

export function reviewAt(location: StateLocation, input: { decision: ReviewDecision; by: string; note?: string }): Outcome<ReviewOutcome> {
  const config = configFor(location);
  return change(
    location,
    (draft, now) => decideReview(draft, config, { ...input, now }),
    (result) => {
      if (result.decision === 'continue') return `Review of ${result.phase}: continue. \`isdlc phase activate\` starts the next phase.`;
      if (result.decision === 'review') return `Review of ${result.phase}: under review. The workflow waits for continue or redo.`;
      return `Review of ${result.phase}: redo. The phase is in progress again (retry ${result.retries}); delegate its work again.`;
    },
  );
}
