// What about the tests waits for a person's acceptance before the gate counts them again (`isdlc tests`,
// `isdlc tests accept`). Each kind is one provider: it looks at the state and the project, and when it
// has something pending it says what (for the person) and how accepting it is recorded: the test
// definition, fewer tests running than before, tests seen earlier that the gate's run does not pass
// (missing, skipped or todo there; verify/gate-evidence.ts), and installed packages that are not what the
// lockfile installs (verify/dependencies/).
import type { IsdlcState } from '../state/schema.js';
import { addHistory } from './cursor.js';
import { WorkflowError } from './start.js';
import { acceptCountDrop, acceptVanishedTests, describeCountDrop, pendingCountDrop, pendingVanishedTests } from '../verify/gate-evidence.js';
import { acceptTestDefinition, compareTestDefinition, definitionUnaccepted, type TestCommandSource } from '../verify/test-definition.js';
import { acceptInstalledDependencies, pendingDependencyChanges } from '../verify/dependencies/dependency-gate.js';

export interface AcceptanceContext {
  root: string;
  /** Stand-in for the testing config (tests inject their own). */
  testCommandOf?: TestCommandSource;
}

export interface PendingTestAcceptance {
  kind: string;
  /** What changed, one line each, as the person reads it. */
  describe(): string[];
  /** Records the person's acceptance in `draft` (the state of the same transaction it was found in). */
  accept(draft: IsdlcState, by: string, now: Date): unknown;
}

type Provider = (state: IsdlcState, context: AcceptanceContext) => PendingTestAcceptance | null;

const definitionChange: Provider = (state, context) => {
  const comparison = compareTestDefinition(context.root, state, context.testCommandOf);
  if (!comparison || !definitionUnaccepted(comparison)) return null;
  return {
    kind: 'test_definition',
    describe: () => [`What defines \`${comparison.command}\` changed since ${comparison.since}:`, ...comparison.changes.map((change) => `  ${change}`)],
    accept: (draft, by, now) => acceptTestDefinition(draft, comparison, by, now),
  };
};

const countDrop: Provider = (state, context) => {
  const drop = pendingCountDrop(state, context.root);
  if (!drop) return null;
  return {
    kind: 'test_count',
    describe: () => [`Fewer tests ran: ${describeCountDrop(drop)}.`, `  Accepting makes ${drop.run.counts!.executed} the number the gate expects from now on.`],
    accept: (draft, by, now) => acceptCountDrop(draft, drop, by, now),
  };
};

const installedPackages: Provider = (_state, context) => {
  const pending = pendingDependencyChanges(context.root, new Date());
  if (!pending) return null;
  return {
    kind: 'dependencies',
    describe: () =>
      pending.problems.length === 0
        ? [`${pending.detail}.`]
        : [pending.detail.slice(0, pending.detail.indexOf(': ') + 1), ...pending.problems.map((problem) => `  ${problem.path}: ${problem.what}`)],
    accept: (_draft, by, now) => acceptInstalledDependencies(context.root, by, now, pending.problems),
  };
};

const SHOWN = 50;
const NOW = { missing: 'missing', skipped: 'skipped', todo: 'todo' } as const;

const vanishedTests: Provider = (state, context) => {
  const pending = pendingVanishedTests(state, context.root);
  if (!pending) return null;
  const { vanished } = pending;
  return {
    kind: 'test_names',
    describe: () => [
      `Tests seen earlier do not pass in the gate's run at ${pending.run.at.slice(11, 16)} (\`${pending.run.command}\`):`,
      ...vanished.slice(0, SHOWN).map((test) => `  \`${test.name}\`: ${test.was} at ${test.seen.at.slice(11, 16)}, ${NOW[test.now]} now`),
      ...(vanished.length > SHOWN ? [`  and ${vanished.length - SHOWN} more`] : []),
      `  Accepting stops counting ${vanished.length === 1 ? 'it' : 'them'} until a run names ${vanished.length === 1 ? 'it' : 'them'} again.`,
    ],
    accept: (draft, by, now) => acceptVanishedTests(draft, context.root, pending, by, now),
  };
};

const PROVIDERS: readonly Provider[] = [definitionChange, countDrop, vanishedTests, installedPackages];

export function pendingTestAcceptances(state: IsdlcState | null | undefined, context: AcceptanceContext): PendingTestAcceptance[] {
  if (!state) return [];
  return PROVIDERS.map((provider) => provider(state, context)).filter((pending): pending is PendingTestAcceptance => pending !== null);
}

export interface AcceptedTests {
  kind: string;
  lines: string[];
}

/** Accepts every pending one in `draft`; throws WorkflowError when nothing waits. */
export function acceptPendingTests(draft: IsdlcState, context: AcceptanceContext, by: string, now: Date): AcceptedTests[] {
  const pending = pendingTestAcceptances(draft, context);
  if (pending.length === 0) throw new WorkflowError('nothing about the tests is waiting for acceptance (`isdlc tests` shows what isdlc watches)');
  return pending.map((item) => {
    const lines = item.describe();
    item.accept(draft, by, now);
    addHistory(draft, now, `${by} accepted a change to the tests (${item.kind}): ${lines.map((line) => line.trim()).join(' ')}`);
    return { kind: item.kind, lines };
  });
}
