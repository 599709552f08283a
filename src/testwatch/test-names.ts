// Which tests a run ran, by name, and how each ended: the gate compares them with the tests seen earlier in
// the workflow, so a test that was seen and then disappears, is skipped or becomes todo is noticed even
// when a trivial new test keeps the count. Read from the output each runner prints without a terminal
// (each shape checked against outputs recorded by running the runner, test/fixtures/runners); null where
// the output names no test.
import { jestVerbose, mochaSpec, nodeTestSpec, vitestVerbose } from './test-names-js.js';
import { cargoNames, goNames, pytestNames, tapNames } from './test-names-other.js';
import { cleanOutput, tailOf } from './text.js';
import type { NamesReader, RunNames } from './test-name.js';
import type { RunSummary } from './runner-summary.js';

export type { NamedTest, NameOutcome, RunNames } from './test-name.js';

/** Which reader a command names, so it is tried first. */
const BY_COMMAND: readonly [RegExp, NamesReader][] = [
  [/\bjest\b/, jestVerbose],
  [/\bvitest\b/, vitestVerbose],
  [/\bmocha\b.*--reporter[ =]tap\b/, tapNames],
  [/\bmocha\b/, mochaSpec],
  [/\bnode\b.*--test\b/, nodeTestSpec],
  [/\bpytest\b|\bpy\.test\b/, pytestNames],
  [/\bgo\s+test\b/, goNames],
  [/\bcargo\b/, cargoNames],
];

/** Most specific first: TAP last, since several runners above also print it. */
const ALL: readonly NamesReader[] = [cargoNames, goNames, pytestNames, jestVerbose, vitestVerbose, nodeTestSpec, mochaSpec, tapNames];

/** How much of a run's output is read for names: a list longer than this is cut short, and wholeList says so. */
const NAMES_TAIL = 128 * 1024;

/** The tests a run's output names, with their outcomes; null when it names none in a shape isdlc reads. */
export function readTestNames(output: string, command: string): RunNames | null {
  const text = cleanOutput(tailOf(output, NAMES_TAIL));
  const first = BY_COMMAND.find(([pattern]) => pattern.test(command))?.[1];
  for (const reader of first ? [first, ...ALL.filter((r) => r !== first)] : ALL) {
    const names = reader(text);
    if (names) return names;
  }
  return null;
}

/** Runners whose summary counts assertions, not tests: their count says nothing of how many tests were named. */
const COUNTS_ASSERTIONS = new Set(['tap', 'node-tap']);

/**
 * The names, when they are the whole list: a run whose summary counts more tests than its output names was
 * cut short (only the tail of a long output is kept) or names only some (the failing ones).
 */
export function wholeList(names: RunNames | null, summary: RunSummary | undefined): RunNames | null {
  if (!names || !summary || COUNTS_ASSERTIONS.has(names.runner)) return names;
  return names.tests.length < summary.passed + summary.failed + summary.skipped ? null : names;
}
