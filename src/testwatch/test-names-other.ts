// Test names from TAP (node --test without a terminal, tape, `mocha --reporter tap`, node-tap), pytest -v,
// go test -v and cargo test: each prints one line per test with its outcome.
import { readTap } from './runners-tap.js';
import { nameOf, runNames, titlePart, type NamedTest, type NameOutcome, type NamesReader } from './test-name.js';

/** A subtest named by its file (node-tap runs one per test file): where the test is, not part of its name. */
const FILE_NAME = /(?:^|\/)[\w.@-]+\.(?:[cm]?[jt]sx?|bats)$/;

const WORST: Record<NameOutcome, number> = { passed: 0, skipped: 1, todo: 2, failed: 3 };

/**
 * TAP: the leaves of the stream (a point that closes a subtest is not a test of its own), named by the
 * subtests they are inside; `# SKIP` and `# TODO` directives. tape numbers assertions, not tests: where the
 * points follow `# name` headers and no subtest, each header is a test and its assertions say how it ended.
 */
export const tapNames: NamesReader = (text) => {
  const stream = readTap(text);
  if (stream.plan === undefined || stream.points.length === 0) return null;
  const subtests = /^\s*# Subtest: /m.test(text);
  const runner = /^# duration_ms [\d.]+\s*$/m.test(text) ? 'node-test' : /^# \{ total: \d+/m.test(text) ? 'node-tap' : 'tap';
  const outcomeOf = (ok: boolean, directive: 'skip' | 'todo' | undefined): NameOutcome =>
    directive === 'todo' ? 'todo' : directive === 'skip' ? 'skipped' : ok ? 'passed' : 'failed';
  const tests: NamedTest[] = [];
  if (!subtests && stream.points.some((point) => point.group !== undefined)) {
    const byGroup = new Map<string, NameOutcome>();
    for (const point of stream.points) {
      if (point.group === undefined) continue;
      const outcome = outcomeOf(point.ok, point.directive);
      const known = byGroup.get(point.group);
      // A test is todo while any of its assertions is, failed when one fails outright.
      if (known === undefined || WORST[outcome] > WORST[known]) byGroup.set(point.group, outcome);
    }
    for (const [group, outcome] of byGroup) tests.push({ name: nameOf([titlePart(group)]), outcome });
    return runNames(runner, tests);
  }
  for (const point of stream.points) {
    // A point named by a file is the file's own (node --test reports a file whose tests it did not list one
    // by one, under one command and not another): where the tests are, not a test.
    if (point.parent || FILE_NAME.test(point.name.trim())) continue;
    const within = point.path.slice(point.group !== undefined && subtests ? 1 : 0);
    const file = within.find((part) => FILE_NAME.test(part));
    tests.push({
      name: nameOf([...within.filter((part) => !FILE_NAME.test(part)), titlePart(point.name)]),
      outcome: outcomeOf(point.ok, point.directive),
      ...(file ? { file } : {}),
    });
  }
  return runNames(runner, tests);
};

const PYTEST: Record<string, NameOutcome> = { PASSED: 'passed', XPASS: 'passed', FAILED: 'failed', ERROR: 'failed', SKIPPED: 'skipped', XFAIL: 'todo' };

/** pytest -v: `tests/test_x.py::TestY::test_z PASSED [ 50%]` (with xdist: `[gw0] [ 50%] PASSED tests/…`). */
export const pytestNames: NamesReader = (text) => {
  const tests: NamedTest[] = [];
  const add = (id: string, word: string): void => {
    const [file, ...parts] = id.split('::');
    tests.push({ name: nameOf(parts), outcome: PYTEST[word]!, file: file! });
  };
  for (const match of text.matchAll(/^(\S+\.py::\S+(?: \S+\])?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/gm)) add(match[1]!, match[2]!);
  for (const match of text.matchAll(/^\[gw\d+\] \[\s*\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (\S+\.py::\S+)/gm)) add(match[2]!, match[1]!);
  return runNames('pytest', tests);
};

const GO: Record<string, NameOutcome> = { PASS: 'passed', FAIL: 'failed', SKIP: 'skipped' };

/**
 * go test -v: `--- PASS: TestX (0.00s)`, subtests indented as `--- FAIL: TestX/case`. Without -v go names
 * only the failing tests, which is no list of the tests that ran.
 */
export const goNames: NamesReader = (text) => {
  if (!/^=== RUN /m.test(text)) return null;
  const tests: NamedTest[] = [];
  for (const match of text.matchAll(/^\s*--- (PASS|FAIL|SKIP): (\S+)/gm)) tests.push({ name: nameOf(match[2]!.split('/')), outcome: GO[match[1]!]! });
  return runNames('go', tests);
};

const CARGO: Record<string, NameOutcome> = { ok: 'passed', FAILED: 'failed', ignored: 'skipped' };

/** cargo test: `test path::name ... ok | FAILED | ignored`. */
export const cargoNames: NamesReader = (text) => {
  const tests: NamedTest[] = [];
  for (const match of text.matchAll(/^test (\S+) \.\.\. (ok|FAILED|ignored)\b/gm))
    tests.push({ name: nameOf(match[1]!.split('::')), outcome: CARGO[match[2]!]! });
  return runNames('cargo', tests);
};
