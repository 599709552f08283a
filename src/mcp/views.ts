// What the MCP tools hand back: compact shapes of the store's records, and the short texts that tell an
// agent where a loop stands and what to do next.
import type { IterationConfig } from '../loop/loop-config.js';
import { loadLoop } from '../loop/load.js';
import type { Checkpoint, IterationRecord, Loop, Task } from '../loop/store.js';
import type { RuleResult, ValidationReport } from '../loop/types.js';

/** A command's output tail is for the agent to read, not to page through. */
const MAX_TAIL = 2_000;

export function loopSummary(loop: Loop): { id: string; status: string; iteration: number; maxIterations: number; endReason: string | null } {
  return { id: loop.id, status: loop.status, iteration: loop.iteration, maxIterations: loop.config.maxIterations, endReason: loop.endReason };
}

export function historyRows(records: readonly IterationRecord[], withValidator = false): Record<string, unknown>[] {
  return records.map((record) => ({
    iteration: record.iteration,
    passed: record.passed,
    score: record.score,
    signal: record.signal,
    ...(withValidator ? { validatedBy: record.validatedBy } : {}),
  }));
}

function compactResult(result: RuleResult): Record<string, unknown> {
  const out: Record<string, unknown> = { name: result.name, type: result.type, passed: result.passed, errored: result.errored, message: result.message };
  if (result.exitCode !== undefined) out['exitCode'] = result.exitCode;
  if (result.timedOut) out['timedOut'] = true;
  if (result.coverage !== undefined) out['coverage'] = result.coverage;
  if (!result.passed && result.outputTail) {
    out['outputTail'] = result.outputTail.length > MAX_TAIL ? `…${result.outputTail.slice(-MAX_TAIL)}` : result.outputTail;
  }
  return out;
}

/** The report as the tools' validationReport, each rule's output cut to its tail (failing rules only). */
export function compactReport(report: ValidationReport): Record<string, unknown> {
  return {
    totalRules: report.totalRules,
    passedRules: report.passedRules,
    failedRules: report.failedRules,
    erroredRules: report.erroredRules,
    overallPassed: report.overallPassed,
    score: report.score,
    results: report.results.map(compactResult),
  };
}

export function failingMessages(report: ValidationReport | null | undefined): string[] {
  return report?.results.filter((result) => !result.passed).map((result) => result.message) ?? [];
}

/** The promise that completes the loop, as the agent writes it (one definition, in the loop bundle). */
export function completeTag(config: IterationConfig): string {
  return loadLoop().completeTag(config);
}

export function configSummary(config: IterationConfig | null): Record<string, unknown> | null {
  if (!config) return null;
  return {
    maxIterations: config.maxIterations,
    circuitBreakerThreshold: config.circuitBreakerThreshold,
    completionPromises: config.completionPromises,
    rules: config.validationRules.map((rule) => rule.name),
    ...(config.prompt ? { prompt: config.prompt } : {}),
  };
}

const quoted = (task: Task): string => `task ${task.id} ("${task.title}")`;

/** Where a task and its loop stand, and the next step, in a few sentences (checkpoint_resume). */
export function resumeInstructions(task: Task, loop: Loop | undefined, history: readonly IterationRecord[], checkpoint: Checkpoint): string {
  const from =
    loop && checkpoint.loopId === loop.id && checkpoint.iterationNumber !== loop.iteration
      ? ` This checkpoint is from iteration ${checkpoint.iterationNumber}.`
      : '';
  if (!loop) {
    return (
      `${quoted(task)} is ${task.status}${task.blockedReason ? ` (${task.blockedReason})` : ''} and no loop has run on it. ` +
      'Continue from agentContext; iteration_start begins a loop whose rules decide when the work is done.'
    );
  }
  const at = `Loop ${loop.id} on ${quoted(task)}`;
  if (loop.status !== 'active') {
    const ended = `${at} ended ${loop.status} at iteration ${loop.iteration} of ${loop.config.maxIterations}: ${loop.endReason ?? 'no reason recorded'}.`;
    if (loop.status === 'completed') return `${ended} Nothing is left to iterate; work_product_store keeps results.${from}`;
    if (loop.status === 'cancelled') return `${ended} iteration_start begins a new loop on a new task.${from}`;
    return `${ended} A person has to decide or provide something first; then iteration_start begins a new loop.${from}`;
  }
  const current = history.find((record) => record.iteration === loop.iteration);
  const position = `${at} is at iteration ${loop.iteration} of ${loop.config.maxIterations}`;
  if (!current || current.validatedAt === null) {
    return `${position}, not validated yet. Continue from agentContext, then call iteration_validate.${from}`;
  }
  if (current.passed) {
    return (
      `${position} and its latest validation passes every rule. Call iteration_complete, or iteration_validate with ` +
      `agentOutput ending in ${completeTag(loop.config)}.${from}`
    );
  }
  const failing = failingMessages(current.report);
  return (
    `${position} and its latest validation failed${failing.length > 0 ? `: ${failing.join('; ')}` : ''}. ` +
    `Fix that, call iteration_next, then iteration_validate. ${loop.config.circuitBreakerThreshold} failed iterations ` +
    `in a row hand the loop to a person.${from}`
  );
}
