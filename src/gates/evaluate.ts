// A phase's gate: the test iteration, constitutional validation, interactive elicitation and agent
// delegation checks, in that order, then artifact presence. Each unmet check says what it saw and what
// to do. Used by the gate-blocker guard, `isdlc gate check` and `isdlc status`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { artifactVariantGroups, describeVariants, requiredArtifactTemplates, resolveArtifactPath, scopeToProject } from '../config/artifacts.js';
import { describeArticle } from '../config/constitution.js';
import type { ProjectConfig } from '../config/project-config.js';
import { coverageThreshold, effectivePhaseRequirements, mutationThreshold } from '../config/requirements.js';
import type { PhaseRequirements } from '../config/schemas.js';
import { phaseAgent } from '../config/agents.js';
import { delegationCheckOf } from './delegation-check.js';
import type { GateCheck, GateReader, GateRequirement } from './gate-check.js';
import { clockOf, runningPhaseRuns } from '../state/agent-runs.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import { ENFORCEMENT_OFF_DETAIL, iterationEnforcementOff } from '../state/enforcement.js';
import { constitutionalOf, elicitationOf, testIterationOf } from '../state/phase-records.js';
import { constitutionCompliant, testsPassed } from '../state/requirement-records.js';
import type { IsdlcState } from '../state/schema.js';
import { tamperGate } from '../integrity/tamper-gate.js';
import type { GateRun } from '../verify/gate-run.js';
import { verifiedRunCheck } from '../verify/gate-evidence.js';
import { mutationScoreCheck } from '../verify/mutation-evidence.js';
import type { MutationRun } from '../verify/mutation-run.js';
import { verifiesAtGate } from '../verify/verify-at-gate.js';
import { iterationLimits } from '../testwatch/limits.js';
import { ACCEPT_TESTS_COMMAND, compareTestDefinition, definitionUnaccepted } from '../verify/test-definition.js';
import { reviewArticles, reviewerKinds, workerOf } from './article-recorders.js';
import { ACKNOWLEDGE_COMMAND, acknowledgedViolations, describeViolation, openViolations } from '../verify/branch-violations.js';
import { DEPENDENCY_RECORD, hasDependencyRecord } from '../verify/dependencies/record.js';

export type { GateCheck, GateRequirement } from './gate-check.js';

export interface GateEvaluation {
  phase: string;
  open: boolean;
  checks: GateCheck[];
  unmet: GateCheck[];
}

export interface GateInput {
  state: IsdlcState;
  config: ProjectConfig;
  phase: string;
  root: string;
  /** A monorepo project's documents folder (StateLocation.docsBase). */
  docsBase?: string;
  /** The tests the gate ran for this completion (verify/gate-run.ts); absent when the gate is only looked at. */
  gateRun?: GateRun;
  /** The mutation run made for this completion, after the test run passed (verify/mutation-run.ts). */
  mutationRun?: MutationRun;
  /** When the gate is judged (a run's age); now when unset. */
  now?: Date;
  /**
   * Checks the installed packages now (verify/dependencies/), where a person looks at the gate; without it
   * the requirement says the check happens at completion (the hooks do not digest node_modules).
   */
  verifyDependencies?: () => Omit<GateCheck, 'requirement'>;
}

/** The requirements a project's config can switch off; branch integrity and tamper review are not among them (the test definition goes with the tests). */
const RULE_FOR: Record<
  Exclude<
    GateRequirement,
    'branch_integrity' | 'tamper_review' | 'test_definition' | 'dependencies_verified' | 'iteration_enforcement' | 'phase_agent_finished'
  >,
  string
> = {
  test_iteration: 'block_on_incomplete_test_iteration',
  verified_test_run: 'block_on_incomplete_test_iteration',
  mutation_score: 'block_on_incomplete_test_iteration',
  constitutional_validation: 'block_on_incomplete_constitutional',
  interactive_elicitation: 'block_on_incomplete_elicitation',
  agent_delegation: 'block_on_missing_agent_delegation',
  artifact_presence: 'block_on_missing_artifacts',
};

function approveCommand(phase: string): string {
  return `a person (not the agent) runs \`isdlc escalation approve --phase ${phase}\` in their own terminal`;
}

function testCheck(input: GateInput, requirements: PhaseRequirements): GateCheck {
  const { phase } = input;
  const record = testIterationOf(input.state, phase);
  const max = record?.max_iterations ?? iterationLimits(input.state, requirements).max;
  // A passed or escalated record without an iteration count is the JavaScript framework's; it is judged as in its gate.
  if (!record || ((record.current_iteration ?? 0) === 0 && !testsPassed(record) && record.status !== 'escalated')) {
    return {
      requirement: 'test_iteration',
      met: false,
      detail:
        record?.last_test_result === 'inconclusive' ? 'no conclusive test run yet (the last one could not be judged)' : 'no test run recorded in this phase',
      action: 'run the test suite in the foreground (for example `npm test`); isdlc records the result',
      personAction: "the agent runs the test suite (isdlc records the runs it observes in the agent's session; a run in your own terminal is not recorded)",
    };
  }
  const where =
    record.current_iteration !== undefined
      ? `iteration ${record.current_iteration}/${max}, \`${record.last_test_command ?? '?'}\``
      : 'recorded without an iteration count';
  if (record.status === 'escalated') {
    return record.escalation_approved === true
      ? { requirement: 'test_iteration', met: true, detail: `escalated (${record.escalation_reason ?? '?'}) and approved by a person` }
      : {
          requirement: 'test_iteration',
          met: false,
          detail: `escalated to a human (${record.escalation_reason ?? '?'}, ${where})`,
          action: `stop retrying; explain the failure to the user; ${approveCommand(phase)} to go on`,
        };
  }
  if (testsPassed(record)) {
    const threshold = coverageThreshold(requirements, input.state);
    const coverage = typeof record['coverage_percent'] === 'number' ? record['coverage_percent'] : undefined;
    if (threshold !== undefined && coverage !== undefined && coverage < threshold) {
      return {
        requirement: 'test_iteration',
        met: false,
        detail: `tests pass but coverage is ${coverage}%, below ${threshold}%`,
        action: 'add tests for the uncovered code and run the suite again',
      };
    }
    // Unknown coverage is not met; where the gate runs the tests itself, its own run measures it instead.
    if (threshold !== undefined && coverage === undefined && !verifiesAtGate(requirements)) {
      return {
        requirement: 'test_iteration',
        met: false,
        detail: `tests pass, but the phase requires ${threshold}% coverage and no run reported a coverage figure`,
        action: 'run the suite with coverage (for example `npx vitest run --coverage`)',
      };
    }
    return { requirement: 'test_iteration', met: true, detail: `tests passed (${where})${coverage !== undefined ? `, coverage ${coverage}%` : ''}` };
  }
  return {
    requirement: 'test_iteration',
    met: false,
    detail: `tests ${record.last_test_result === 'failed' ? 'failing' : 'not passing yet'} (${where})`,
    action: 'fix the failing tests and run the suite again',
  };
}

function constitutionalCheck(input: GateInput, requirements: PhaseRequirements): GateCheck {
  const { phase, config } = input;
  const wanted = requirements.constitutional_validation?.articles ?? [];
  const record = constitutionalOf(input.state, phase);
  const recordCommand = '`isdlc constitution record --article ID --result compliant|violation --note "why"`';
  // A completed record without `started_at` is the JavaScript framework's; it is judged like isdlc's.
  if (!record || (!record.started_at && record.completed !== true)) {
    return {
      requirement: 'constitutional_validation',
      met: false,
      detail: `not started; required: ${wanted.map((id) => describeArticle(config.constitution, id)).join('; ')}`,
      action: `check the phase's work against each article and record each with ${recordCommand}`,
    };
  }
  if (record.status === 'escalated') {
    return record.escalation_approved === true
      ? { requirement: 'constitutional_validation', met: true, detail: 'escalated and approved by a person' }
      : {
          requirement: 'constitutional_validation',
          met: false,
          detail: `escalated after ${record.iterations_used ?? '?'} iterations with violations`,
          action: approveCommand(phase),
        };
  }
  // Who recorded each article's latest check; with independent_review, which of them the gate cannot count.
  const workerAgent = phaseAgent(config.manifest, phase);
  const independent = requirements.constitutional_validation?.independent_review === true;
  const reviewers = independent ? reviewerKinds(workerAgent, requirements.constitutional_validation?.reviewers) : undefined;
  const worker = workerOf(input.state, phase, workerAgent, reviewers);
  const review = reviewArticles(
    record['article_results'],
    record.articles_required ?? wanted,
    worker,
    requirements.constitutional_validation?.independent_review === true,
  );
  const recorded = review.recorders.length > 0 ? `; recorded by ${review.recorders.join('; ')}` : '';
  if (constitutionCompliant(record)) {
    if (review.notIndependent.length === 0)
      return { requirement: 'constitutional_validation', met: true, detail: `all ${wanted.length} articles compliant${recorded}` };
    return {
      requirement: 'constitutional_validation',
      met: false,
      detail: `this phase needs an independent review of its articles: ${review.notIndependent.join('; ')}${recorded}`,
      action:
        `delegate the check of the phase's work against ${review.notIndependent.length === 1 ? 'that article' : 'those articles'} to ${reviewerWords(worker.agent, reviewers)} ` +
        `(a reviewer), which reads what the phase changed and records each with the isdlc MCP tool constitution_record${toRead(worker.review?.changed ?? {})}`,
    };
  }
  const checked = new Set(record.articles_checked ?? []);
  const remaining = (record.articles_required ?? wanted).filter((id) => !checked.has(id));
  return {
    requirement: 'constitutional_validation',
    met: false,
    detail: `${record.status ?? 'pending'} (iteration ${record.iterations_used ?? 0}/${record.max_iterations ?? '?'}); not yet compliant: ${remaining.length > 0 ? remaining.map((id) => describeArticle(config.constitution, id)).join('; ') : 'articles with recorded violations'}${recorded}`,
    action: `resolve violations and record each article with ${recordCommand}`,
  };
}

/** Who may review, for the refusal: the reviewer agents, or any agent but the worker. */
function reviewerWords(worker: string | undefined, reviewers: ReadonlySet<string> | undefined): string {
  const named = [...(reviewers ?? [])];
  if (named.length === 0) return worker ? `an agent other than ${worker}` : 'a subagent';
  return named.join(' or ');
}

/** The files a reviewer has to read, for the refusal. */
function toRead(changed: Record<string, string>): string {
  const files = Object.keys(changed);
  if (files.length === 0) return '';
  return `; the phase changed ${files.slice(0, 8).join(', ')}${files.length > 8 ? ` and ${files.length - 8} more` : ''}`;
}

function elicitationCheck(input: GateInput, requirements: PhaseRequirements): GateCheck {
  const config = requirements.interactive_elicitation ?? {};
  const record = elicitationOf(input.state, input.phase);
  const minimum = config.min_menu_interactions ?? 1;
  if (!record || !record.started_at) {
    return {
      requirement: 'interactive_elicitation',
      met: false,
      detail: 'Interactive elicitation not started',
      action: 'present the A/R/C menu to the user and work through their choices',
    };
  }
  const interactions = record.menu_interactions ?? 0;
  const finals = config.required_final_selection;
  if (record.completed !== true) {
    return {
      requirement: 'interactive_elicitation',
      met: false,
      detail: `not completed (${interactions} of at least ${minimum} menu interactions)`,
      action: 'continue the elicitation until the user saves or continues',
    };
  }
  if (finals && finals.length > 0 && !finals.includes(String(record.final_selection))) {
    return {
      requirement: 'interactive_elicitation',
      met: false,
      detail: `ended with "${String(record.final_selection)}", not ${finals.join(' or ')}`,
      action: `finish with ${finals.join(' or ')}`,
    };
  }
  if (interactions < minimum) {
    return {
      requirement: 'interactive_elicitation',
      met: false,
      detail: `${interactions} menu interactions, at least ${minimum} required`,
      action: 'work through more of the menu with the user',
    };
  }
  return { requirement: 'interactive_elicitation', met: true, detail: `completed with "${String(record.final_selection)}" after ${interactions} interactions` };
}

function delegationCheck(input: GateInput): GateCheck {
  const agent = phaseAgent(input.config.manifest, input.phase);
  if (!agent) return { requirement: 'agent_delegation', met: true, detail: 'no agent owns this phase in the skills manifest; not checked' };
  return delegationCheckOf(input.state.skill_usage_log, agent, input.phase, input.now ?? new Date());
}

/** The phase's agent has not finished: `phase complete` refuses until it has, so the gate says so first. */
function runningAgentCheck(input: GateInput): GateCheck | null {
  const running = runningPhaseRuns(input.state.skill_usage_log, input.phase, input.now ?? new Date());
  if (running.length === 0) return null;
  return {
    requirement: 'phase_agent_finished',
    met: false,
    detail: `still running: ${running.map((run) => `${run.agent} (since ${clockOf(run.since)}, ${run.minutes} min)`).join(', ')}`,
    action: 'wait for it to finish (its end arrives as a task notification), then complete the phase',
  };
}

function artifactCheck(input: GateInput, requirements: PhaseRequirements): GateCheck {
  const folder = activeWorkflowOf(input.state)?.artifact_folder;
  const missing: string[] = [];
  const paths: string[] = [];
  for (const template of new Set(requiredArtifactTemplates(input.config, input.phase, requirements))) {
    const resolved = resolveArtifactPath(template, folder);
    if (resolved === null) missing.push(`${template} (the artifact folder ${JSON.stringify(folder ?? null)} cannot be used)`);
    else paths.push(scopeToProject(resolved, input.docsBase));
  }
  const groups = artifactVariantGroups(paths);
  for (const group of groups) if (!group.some((path) => existsSync(join(input.root, path)))) missing.push(describeVariants(group));
  return missing.length === 0
    ? { requirement: 'artifact_presence', met: true, detail: `${groups.length} artifact${groups.length === 1 ? '' : 's'} present` }
    : { requirement: 'artifact_presence', met: false, detail: `missing: ${missing.join(', ')}`, action: 'write the missing artifacts' };
}

/**
 * Commits that reached a closed branch during the workflow (branch-evidence saw them in git's refs). Present
 * only once there has been one; it holds every phase's gate until a person acknowledges each.
 */
function branchCheck(input: GateInput): GateCheck | null {
  const open = openViolations(input.state);
  if (open.length > 0) {
    return {
      requirement: 'branch_integrity',
      met: false,
      detail: `commits reached a closed branch during this workflow: ${open.map(describeViolation).join('; ')}`,
      action: `stop and tell the user; a person (not the agent) reviews the commits, undoes them if they want, and runs \`${ACKNOWLEDGE_COMMAND}\` in their own terminal`,
    };
  }
  const seen = acknowledgedViolations(input.state);
  if (seen.length === 0) return null;
  return {
    requirement: 'branch_integrity',
    met: true,
    detail: `${seen.length} commit${seen.length === 1 ? '' : 's'} to a closed branch, acknowledged by ${[...new Set(seen.map((v) => v.acknowledged?.by ?? '?'))].join(', ')}`,
  };
}

/**
 * What defines the test command, against what it was when the workflow started (or a person last
 * accepted): a passing run means nothing once `"test": "exit 0"` is what runs. Absent when no definition
 * was recorded.
 */
function testDefinitionCheck(input: GateInput): GateCheck | null {
  let comparison;
  try {
    comparison = compareTestDefinition(input.root, input.state);
  } catch (error) {
    return {
      requirement: 'test_definition',
      met: false,
      detail: `the files that define the test command could not be read (${(error as Error).message})`,
      action: 'make them readable again, then check the gate again',
    };
  }
  if (!comparison) return null;
  if (!definitionUnaccepted(comparison)) {
    const accepted = comparison.recorded.accepted;
    return {
      requirement: 'test_definition',
      met: true,
      detail: `\`${comparison.command}\` is defined as ${accepted ? `${accepted.by} accepted it` : 'when the workflow started'}`,
    };
  }
  return {
    requirement: 'test_definition',
    met: false,
    detail: `what defines the test command changed since ${comparison.since}: ${comparison.changes.join('; ')}`,
    action: `stop and tell the user what changed and why; a person (not the agent) reviews it and runs \`${ACCEPT_TESTS_COMMAND}\` in their own terminal, or undoes the change`,
  };
}

/** The installed packages, where the gate runs the tests itself: absent without a record of them. */
function dependenciesCheck(input: GateInput): GateCheck | null {
  if (input.verifyDependencies) return { requirement: 'dependencies_verified', ...input.verifyDependencies() };
  if (!hasDependencyRecord(input.root)) return null;
  return {
    requirement: 'dependencies_verified',
    met: true,
    atCompletion: true,
    detail: `\`isdlc phase complete\` compares the installed packages with ${DEPENDENCY_RECORD} and the lockfile before it runs the tests`,
  };
}

export function evaluateGate(input: GateInput): GateEvaluation {
  const workflowType = activeWorkflowOf(input.state)?.type;
  const requirements = effectivePhaseRequirements(input.config.iterationRequirements, input.phase, workflowType) ?? {};
  const rules = (input.config.iterationRequirements['gate_blocking_rules'] ?? {}) as Record<string, unknown>;

  const checks: GateCheck[] = [];
  // Switched off by the person: the requirements the project configures stand down (the gate does not run
  // the tests either); branch integrity and tamper review below are isdlc's own and stay.
  const off = iterationEnforcementOff(input.state);
  if (off) checks.push({ requirement: 'iteration_enforcement', met: true, detail: ENFORCEMENT_OFF_DETAIL });
  const enforced = (requirement: keyof typeof RULE_FOR, enabled: boolean | undefined): boolean =>
    !off && enabled === true && rules[RULE_FOR[requirement]] !== false;
  if (enforced('test_iteration', requirements.test_iteration?.enabled)) {
    checks.push(testCheck(input, requirements));
    const definition = testDefinitionCheck(input);
    if (definition) checks.push(definition);
  }
  if (enforced('verified_test_run', requirements.test_iteration?.enabled)) {
    const verified = verifiesAtGate(requirements)
      ? verifiedRunCheck({
          state: input.state,
          phase: input.phase,
          root: input.root,
          threshold: coverageThreshold(requirements, input.state),
          ...(input.gateRun ? { gateRun: input.gateRun } : {}),
        })
      : { met: true, detail: 'off for this phase (verify_at_gate: false): the gate does not run the tests itself and trusts the runs the hooks observed' };
    checks.push({ requirement: 'verified_test_run', ...verified });
    const dependencies = verifiesAtGate(requirements) ? dependenciesCheck(input) : null;
    if (dependencies) checks.push(dependencies);
    // The score of the changed code comes from a run the gate makes too: not where the gate runs nothing itself.
    const threshold = mutationThreshold(requirements, input.state);
    if (threshold !== undefined && verifiesAtGate(requirements)) {
      const mutation = mutationScoreCheck({
        state: input.state,
        phase: input.phase,
        root: input.root,
        threshold,
        completing: input.gateRun !== undefined,
        ...(input.mutationRun ? { mutationRun: input.mutationRun } : {}),
      });
      checks.push({ requirement: 'mutation_score', ...mutation });
    }
  }
  if (enforced('constitutional_validation', requirements.constitutional_validation?.enabled)) checks.push(constitutionalCheck(input, requirements));
  if (enforced('interactive_elicitation', requirements.interactive_elicitation?.enabled)) checks.push(elicitationCheck(input, requirements));
  if (enforced('agent_delegation', requirements.agent_delegation_validation?.enabled)) checks.push(delegationCheck(input));
  if (enforced('artifact_presence', requirements.artifact_validation?.enabled)) checks.push(artifactCheck(input, requirements));
  // Said once: an unmet delegation already names a run still going.
  const running = checks.some((check) => check.requirement === 'agent_delegation' && !check.met) ? null : runningAgentCheck(input);
  if (running) checks.push(running);
  const branch = branchCheck(input);
  if (branch) checks.push(branch);
  // Not a configurable rule: the configuration is among the files it is about.
  const tamper = tamperGate(input.root, input.state);
  if (tamper?.closed) checks.push({ requirement: 'tamper_review', met: false, detail: tamper.detail, action: tamper.action });
  const unmet = checks.filter((check) => !check.met);
  return { phase: input.phase, open: unmet.length === 0, checks, unmet };
}

export function describeUnmet(evaluation: GateEvaluation, reader: GateReader = 'agent'): string {
  return evaluation.unmet
    .map((check, i) => {
      const action = reader === 'person' ? (check.personAction ?? check.action) : check.action;
      return `${i + 1}. ${check.requirement}: ${check.detail}.${action ? ` Next: ${action}.` : ''}`;
    })
    .join('\n');
}
