// Every recorded runner output in test/fixtures/runners is a test case: delivered the way Claude Code
// delivers it (a non-zero exit as PostToolUseFailure with `Exit code N` first), it must be judged as the
// run really went, and the runner's own counts must be read where it prints them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../../src/events/hook-event.js';
import { classifyRun } from '../../src/testwatch/classify.js';
import { parseJestJson, parseJunit } from '../../src/testwatch/reporter-files.js';
import { parseRunnerSummary, runnersIn } from '../../src/testwatch/runners.js';
import { cleanOutput } from '../../src/testwatch/text.js';
import { FIXTURES } from '../helpers/project.js';

interface Meta {
  runner: string;
  scenario: string;
  command: string;
  exit_code: number | null;
  expected: {
    result: 'passed' | 'failed';
    passed?: number | null;
    failed?: number | null;
    skipped?: number | null;
    could_not_run?: boolean;
    counts_in_output?: boolean;
    errors?: number;
  };
  failing_tests?: string[];
}

const root = join(FIXTURES, 'runners');
const cases = readdirSync(root).flatMap((runner) =>
  readdirSync(join(root, runner))
    .filter((name) => name.endsWith('.json') && !name.endsWith('.report.json') && existsSync(join(root, runner, name.replace(/\.json$/, '.txt'))))
    .map((name) => ({
      id: `${runner}/${name.replace(/\.json$/, '')}`,
      meta: JSON.parse(readFileSync(join(root, runner, name), 'utf8')) as Meta,
      text: readFileSync(join(root, runner, name.replace(/\.json$/, '.txt')), 'utf8'),
    })),
);

function outcomeOf(meta: Meta, text: string): ToolOutcome {
  return meta.exit_code === 0 || meta.exit_code === null
    ? { failed: false, text, interrupted: false, backgrounded: false }
    : { failed: true, exitCode: meta.exit_code, text, interrupted: false, backgrounded: false };
}

describe('the runner corpus', () => {
  it('covers every runner counted, each passing, failing and could-not-run', () => {
    const runners = new Set(cases.map((c) => c.meta.runner.replace(/^node-test-(?:tap|spec)$/, 'node-test')));
    const counted = ['jest', 'vitest', 'mocha', 'node-test', 'pytest', 'go', 'cargo', 'rspec', 'phpunit', 'dotnet', 'playwright', 'cypress'];
    const added = ['uvu', 'node-tap', 'tap', 'ava', 'jasmine', 'karma', 'bun', 'deno', 'bats'];
    for (const runner of [...counted, ...added]) expect(runners, runner).toContain(runner);
    const dirs = ['jest', 'vitest', 'mocha', 'node-test-tap', 'pytest', 'go', 'cargo', 'rspec', 'phpunit', 'playwright'];
    for (const runner of [...dirs, 'uvu', 'node-tap', 'tape', 'ava', 'jasmine', 'bun', 'deno', 'bats']) {
      const scenarios = cases.filter((c) => c.id.startsWith(`${runner}/`)).map((c) => c.meta.scenario);
      expect(
        scenarios.some((s) => s.startsWith('passing')),
        `${runner} passing`,
      ).toBe(true);
      expect(
        scenarios.some((s) => s.startsWith('failing')),
        `${runner} failing`,
      ).toBe(true);
      expect(
        scenarios.some((s) => s.startsWith('could-not-run') || s.startsWith('no-tests')),
        `${runner} could not run`,
      ).toBe(true);
    }
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s is judged as it went', (_id, { meta, text }) => {
    const verdict = classifyRun({ outcome: outcomeOf(meta, text), command: meta.command, exitStatus: meta.exit_code === null ? 'unrelated' : 'own' });
    expect(verdict.result, verdict.basis).toBe(meta.expected.result);
    if (meta.expected.could_not_run) expect(verdict.couldNotRun, verdict.basis).toBeTruthy();
    else if (meta.expected.result === 'failed' && verdict.summary) expect(verdict.couldNotRun, verdict.basis).toBeUndefined();
  });

  // Tests that errored (exceptions, setup errors) are counted with the failed ones: neither passed.
  it.each(
    cases
      .filter((c) => !c.meta.expected.could_not_run && c.meta.expected.counts_in_output !== false && typeof c.meta.expected.passed === 'number')
      .map((c) => [c.id, c] as const),
  )('%s: the counts are read from the runner summary', (_id, { meta, text }) => {
    // As the classifier reads it: colour and cursor codes gone (karma, node-tap and bats redraw their lines).
    const summary = parseRunnerSummary(cleanOutput(text), meta.command);
    expect(summary).not.toBeNull();
    expect({ passed: summary!.passed, failed: summary!.failed + summary!.errors, skipped: summary!.skipped }).toEqual({
      passed: meta.expected.passed,
      failed: (meta.expected.failed ?? 0) + (meta.expected.errors ?? 0),
      skipped: meta.expected.skipped ?? 0,
    });
  });

  // Recorded before failing names were read for the refusal; their parsers name the tests otherwise or not at all.
  const NAMES_NOT_READ = new Set([
    'cargo/failing-quiet',
    'cargo/panic-and-should-panic',
    'minitest/failing-with-error',
    'mocha/failing',
    'phpunit/failing-testdox',
    'playwright-found/failed-group-found',
  ]);

  it.each(cases.filter((c) => (c.meta.failing_tests ?? []).length > 0 && !NAMES_NOT_READ.has(c.id)).map((c) => [c.id, c] as const))(
    '%s: the failing tests are named as the runner printed them',
    (_id, { meta, text }) => {
      const summary = parseRunnerSummary(cleanOutput(text), meta.command);
      for (const name of meta.failing_tests!) expect(summary?.failingTests ?? [], name).toContain(name);
    },
  );

  it.each(cases.map((c) => [c.id, c] as const))('%s holds the summary of one runner at most', (_id, { text }) => {
    expect(runnersIn(cleanOutput(text)).length).toBeLessThanOrEqual(1);
  });

  it('reads the JSON and JUnit reports of a failing run', () => {
    for (const runner of ['jest', 'vitest']) {
      const report = parseJestJson(readFileSync(join(root, runner, 'failing.report.json'), 'utf8'));
      expect(report, runner).toMatchObject({ passed: 3, failed: 2 });
      expect(report!.failingTests.length, runner).toBe(2);
      const junit = parseJunit(readFileSync(join(root, runner, 'failing.junit.xml'), 'utf8'));
      expect(junit, runner).toMatchObject({ passed: 3, failed: 2 });
    }
  });
});
