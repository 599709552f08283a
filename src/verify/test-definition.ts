// The test definition of a workflow (`active_workflow.test_definition`): recorded when the workflow
// starts, compared with the project as it is at the gate, and moved on only by a person's acceptance
// (`isdlc tests accept`). An agent that edits `"test": "exit 0"` into package.json changes what every
// later test run means; that is a person's call, not the agent's.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DETECTED_STRYKER } from '../config/detect-mutation.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import type { IsdlcState } from '../state/schema.js';
import { testCommandOf, type TestCommandConfig } from '../testwatch/test-command-config.js';
import { definitionChanges, describeChange, testDefinition, type PartDigest, type TestDefinition } from '../testwatch/test-definition.js';

export const ACCEPT_TESTS_COMMAND = 'isdlc tests accept';

export interface TestDefinitionAcceptance {
  digest: string;
  by: string;
  at: string;
  /** What had changed, as the person was shown it. */
  changed: string[];
}

export interface RecordedTestDefinition {
  digest: string;
  files: Record<string, PartDigest>;
  command: string;
  recorded_at: string;
  /** The last acceptance; its digest is the baseline from then on. */
  accepted?: TestDefinitionAcceptance;
  [key: string]: unknown;
}

/** Where the project's test command comes from; the testing config's loader takes testCommandOf's place. */
export type TestCommandSource = (config: { root: string }) => TestCommandConfig | null;

/** The definition to record at workflow start; null when the project has no test command isdlc knows of. */
export function recordTestDefinition(root: string, now: Date, commandOf: TestCommandSource = testCommandOf): RecordedTestDefinition | null {
  const source = commandOf({ root });
  if (!source) return null;
  const definition = testDefinition(root, source.command, source.definitionFiles, reaching(root, source));
  return { ...definition, command: source.command, recorded_at: now.toISOString() };
}

/**
 * The other commands whose parts define the suite: the coverage command the gate runs where a phase wants a
 * figure, and the mutation command where one wants a score (Stryker in a Node project when none is named:
 * its config file chooses the tests that judge the mutants).
 */
function reaching(root: string, source: TestCommandConfig): string[] {
  const mutation = source.mutationCommand ?? (existsSync(join(root, 'package.json')) ? DETECTED_STRYKER : undefined);
  return [source.coverageCommand, mutation].filter((command): command is string => command !== undefined);
}

export function recordedTestDefinition(state: IsdlcState | null | undefined): RecordedTestDefinition | null {
  const recorded = activeWorkflowOf(state)?.['test_definition'] as RecordedTestDefinition | undefined;
  return recorded && typeof recorded === 'object' && typeof recorded.digest === 'string' && recorded.files && typeof recorded.files === 'object'
    ? recorded
    : null;
}

export interface DefinitionComparison {
  recorded: RecordedTestDefinition;
  command: string;
  current: TestDefinition;
  /** One line per difference; empty when the definition is as recorded. */
  changes: string[];
  /** "the workflow started at 10:42 UTC", or the last acceptance. */
  since: string;
}

/** `2026-11-26T10:42:07.000Z` → `10:42 UTC` (the date too when it is not today's). */
export function clockTime(iso: string, now = new Date()): string {
  const time = `${iso.slice(11, 16)} UTC`;
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? time : `${iso.slice(0, 10)} ${time}`;
}

export function sinceWhen(recorded: RecordedTestDefinition, now = new Date()): string {
  if (recorded.accepted) return `${recorded.accepted.by} accepted it at ${clockTime(recorded.accepted.at, now)}`;
  const from = recorded['carried_from'];
  return typeof from === 'string'
    ? `it was recorded at ${clockTime(recorded.recorded_at, now)}, in ${from}`
    : `the workflow started at ${clockTime(recorded.recorded_at, now)}`;
}

/**
 * As the active workflow ends with its test definition changed and not accepted: the baseline is kept in
 * state for the next workflow to start from, so that cancelling and starting again accepts nothing.
 */
export function carryUnacceptedDefinition(draft: IsdlcState, root: string, ending: string): void {
  const comparison = compareTestDefinition(root, draft);
  if (!comparison || !definitionUnaccepted(comparison)) return;
  const carried = typeof comparison.recorded['carried_from'] === 'string' ? comparison.recorded : { ...comparison.recorded, carried_from: ending };
  draft['test_definition_carried'] = carried;
}

/** The baseline an ended workflow left (carryUnacceptedDefinition), taken out of state for the workflow starting now. */
export function takeCarriedDefinition(draft: IsdlcState): RecordedTestDefinition | null {
  const carried = draft['test_definition_carried'] as RecordedTestDefinition | undefined;
  delete draft['test_definition_carried'];
  return carried && typeof carried === 'object' && typeof carried.digest === 'string' && carried.files && typeof carried.files === 'object' ? carried : null;
}

/**
 * The recorded definition beside the project as it is now; null without a record (a workflow started
 * before isdlc recorded one, or a project without a known test command).
 */
export function compareTestDefinition(
  root: string,
  state: IsdlcState | null | undefined,
  commandOf: TestCommandSource = testCommandOf,
  now = new Date(),
): DefinitionComparison | null {
  const recorded = recordedTestDefinition(state);
  if (!recorded) return null;
  const source = commandOf({ root });
  // Recorded before the coverage command stopped being part of the command's words: compared in that form.
  const legacy = source?.coverageCommand && recorded.command === `${source.command} && ${source.coverageCommand}`;
  const command = legacy ? recorded.command : (source?.command ?? recorded.command);
  const current = testDefinition(root, command, source?.definitionFiles, source ? reaching(root, source) : []);
  const changes: string[] = [];
  if (current.digest !== recorded.digest) {
    if (command !== recorded.command) changes.push(`the test command changed from \`${recorded.command}\` to \`${command}\``);
    changes.push(...definitionChanges(recorded.files, current.files).map(describeChange));
  }
  return { recorded, command, current, changes, since: sinceWhen(recorded, now) };
}

/** Whether the definition now differs from the baseline without a person having accepted exactly it. */
export function definitionUnaccepted(comparison: DefinitionComparison): boolean {
  return comparison.current.digest !== comparison.recorded.digest && comparison.current.digest !== comparison.recorded.accepted?.digest;
}

/** A person's acceptance: the definition as it is now becomes the baseline, and who accepted what is kept. */
export function acceptTestDefinition(draft: IsdlcState, comparison: DefinitionComparison, by: string, now: Date): TestDefinitionAcceptance {
  const workflow = activeWorkflowOf(draft)!;
  const accepted: TestDefinitionAcceptance = { digest: comparison.current.digest, by, at: now.toISOString(), changed: comparison.changes };
  const recorded: RecordedTestDefinition = {
    ...comparison.recorded,
    digest: comparison.current.digest,
    files: comparison.current.files,
    command: comparison.command,
    accepted,
  };
  workflow['test_definition'] = recorded;
  return accepted;
}
