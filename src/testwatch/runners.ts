// Summary parsers for the test runners agents use, read from the tail of a run's output (each shape
// checked against the recorded outputs in test/fixtures/runners).
// Each returns null when the text is not that runner's. Runners that print one summary per package or
// binary (cargo, go, dotnet) are summed. More JavaScript runners are in runners-js.ts, TAP in runners-tap.ts.

import { ava, bun, deno, jasmine, karma, uvu } from './runners-js.js';
import { counts, lastMatch, names, summary, type Parser, type RunSummary } from './runner-summary.js';
import { batsPretty, nodeTap, tapStream } from './runners-tap.js';

export type { RunSummary } from './runner-summary.js';

const jest: Parser = (text, end) => {
  const tests = lastMatch(end, /^Tests:[ \t]+(.*\btotal)\s*$/m);
  const suites = lastMatch(end, /^Test Suites:[ \t]+(.*\btotal)\s*$/m);
  if (!tests && !suites) {
    return /No tests found, exiting with code/.test(text) ? summary('jest', { couldNotRun: 'no tests found' }) : null;
  }
  const c = counts(tests?.[1] ?? '');
  const s = counts(suites?.[1] ?? '');
  const result = summary('jest', {
    passed: c['passed'] ?? 0,
    failed: c['failed'] ?? 0,
    skipped: (c['skipped'] ?? 0) + (c['todo'] ?? 0),
    // Characters past ASCII are written as \u escapes, so that the hook bundles stay ASCII (scripts/build.mjs):
    // \u25cf ●, \u25cb ○, \u00d7 ×, \u2717 ✗, \u2193 ↓, \u2139 ℹ, \u2716 ✖, \ufe63 ﹣, \u203a ›, \u2500 ─.
    failingTests: names(text, /^[ \t]+\u25cf (.+?)\s*$/gm).filter((name) => name !== 'Test suite failed to run'),
    skippedTests: names(text, /^[ \t]+\u25cb (?:skipped )?(.+?)\s*$/gm),
  });
  if ((s['failed'] ?? 0) > 0 && result.failed === 0 && /Test suite failed to run/.test(text)) {
    result.couldNotRun = 'a test suite failed to run';
    result.errors = s['failed'] ?? 1;
  }
  return result;
};

const vitest: Parser = (text, end) => {
  const tests = lastMatch(end, /^[ \t]*Tests[ \t]+(.+?)\s*$/m);
  const files = lastMatch(end, /^[ \t]*Test Files[ \t]+(.+?)\s*$/m);
  if (!files) return /No test files found, exiting with code/.test(text) ? summary('vitest', { couldNotRun: 'no test files found' }) : null;
  const c = counts(tests?.[1] ?? '');
  const f = counts(files[1] ?? '');
  const errors = lastMatch(end, /^[ \t]*Errors[ \t]+(\d+) errors?\b/m);
  const result = summary('vitest', {
    passed: c['passed'] ?? 0,
    failed: c['failed'] ?? 0,
    skipped: (c['skipped'] ?? 0) + (c['todo'] ?? 0),
    errors: errors ? Number(errors[1]) : 0,
    failingTests: names(text, /^[ \t]*(?:\u00d7|\u2717|FAIL)[ \t]+(.+?)(?:\s+\d+m?s)?\s*$/gm).filter((name) => !/\[.*\]$/.test(name) || name.includes('>')),
    skippedTests: names(text, /^[ \t]*\u2193[ \t]+(.+?)(?:\s+\[skipped\])?\s*$/gm),
  });
  if ((f['failed'] ?? 0) > 0 && result.failed === 0 && result.passed === 0 && /no tests/i.test(tests?.[1] ?? 'no tests')) {
    result.couldNotRun = 'a test file failed to load';
  }
  return result;
};

const mocha: Parser = (text, end) => {
  const passing = lastMatch(end, /^[ \t]*(\d+) passing\b/m);
  const failing = lastMatch(end, /^[ \t]*(\d+) failing\b/m);
  const pending = lastMatch(end, /^[ \t]*(\d+) pending\b/m);
  if (!passing && !failing) {
    if (/Error: No test files found/.test(text)) return summary('mocha', { couldNotRun: 'no test files found' });
    return null;
  }
  return summary('mocha', {
    passed: Number(passing?.[1] ?? 0),
    failed: Number(failing?.[1] ?? 0),
    skipped: Number(pending?.[1] ?? 0),
    failingTests: names(text, /^[ \t]+\d+\) (.+?):?\s*$/gm),
    skippedTests: names(text, /^[ \t]+- (.+?)\s*$/gm),
  });
};

/** node --test: TAP (`# tests 7`) without a terminal, the spec reporter (`ℹ tests 7`) in one. */
const nodeTest: Parser = (text) => {
  // The whole tail, not its end: since Node 23 the spec reporter prints the failing tests again after the summary.
  const field = (name: string): number | undefined => {
    const match = lastMatch(text, new RegExp(`^(?:#|\u2139) ${name} ([\\d.]+)\\s*$`, 'm'));
    return match ? Number(match[1]) : undefined;
  };
  const tests = field('tests');
  const pass = field('pass');
  // duration_ms is node's own: other TAP producers (ava, mocha, tape) print `# tests` and `# pass` too.
  if (tests === undefined || pass === undefined || field('duration_ms') === undefined) return null;
  const tap = /^# tests \d+/m.test(text);
  const result = summary(tap ? 'node-test' : 'node-test-spec', {
    passed: pass,
    failed: (field('fail') ?? 0) + (field('cancelled') ?? 0),
    skipped: (field('skipped') ?? 0) + (field('todo') ?? 0),
    failingTests: tap
      ? names(text, /^\s*not ok \d+ - (.+?)\s*$/gm)
      : names(text, /^\s*\u2716 (.+?)(?:\s+\([\d.]+m?s\))?\s*$/gm).filter((name) => name !== 'failing tests:'),
    skippedTests: tap ? names(text, /^\s*ok \d+ - (.+?) # SKIP\b/gm) : names(text, /^\s*\ufe63 (.+?)(?:\s+\([\d.]+m?s\))?\s*(?:# SKIP)?\s*$/gm),
  });
  if (tests === 0) result.couldNotRun = 'no tests ran';
  // A test file that fails to load is reported as one failing "test" named by its path.
  else if (result.passed === 0 && result.failingTests.length > 0 && result.failingTests.every((name) => /\.(?:m|c)?[jt]sx?$/.test(name))) {
    result.couldNotRun = 'a test file failed to load';
  }
  return result;
};

/** `===== 2 failed, 5 passed, 1 skipped in 0.12s =====`, bare with `-q`; `no tests ran in 0.01s`. */
const PYTEST_SUMMARY =
  /^(?:=+ )?((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)(?:, )?)+|no tests ran) in [\d.]+s(?: \([\d:]+\))?(?: =+)?\s*$/m;

const pytest: Parser = (text, end) => {
  const line = lastMatch(end, PYTEST_SUMMARY);
  if (!line) return null;
  const c = counts(line[1]!);
  const result = summary('pytest', {
    passed: c['passed'] ?? 0,
    failed: c['failed'] ?? 0,
    skipped: c['skipped'] ?? 0,
    errors: (c['error'] ?? 0) + (c['errors'] ?? 0),
    failingTests: names(text, /^(?:FAILED|ERROR) (\S+?)(?: - .*)?\s*$/gm),
    skippedTests: names(text, /^SKIPPED \[\d+\] (.+?)\s*$/gm),
  });
  if (/no tests ran/.test(line[1]!)) result.couldNotRun = 'no tests ran';
  else if (/errors? during collection|ERROR collecting/.test(text) && result.passed + result.failed === 0) result.couldNotRun = 'tests could not be collected';
  return result;
};

const goTest: Parser = (text) => {
  const okLines = [...text.matchAll(/^ok[ \t]+\S+[ \t]+(?:[\d.]+s|\(cached\))(.*)$/gm)];
  const okPackages = okLines.filter((match) => !/\[no tests to run\]/.test(match[1] ?? '')).length;
  const failedPackages = [...text.matchAll(/^FAIL[ \t]+\S+[ \t]+(?:[\d.]+s|\[(?:build|setup) failed\])/gm)];
  // Top-level tests only: subtests are indented, and a failing subtest fails its parent anyway.
  const passes = [...text.matchAll(/^--- PASS: /gm)].length;
  const fails = names(text, /^--- FAIL: (\S+)/gm);
  const skips = names(text, /^--- SKIP: (\S+)/gm);
  if (okPackages === 0 && failedPackages.length === 0 && fails.length === 0) {
    if (okLines.length > 0) return summary('go', { couldNotRun: 'no tests to run' });
    return /^\?[ \t]+\S+[ \t]+\[no test files\]/m.test(text) ? summary('go', { couldNotRun: 'no test files' }) : null;
  }
  const buildFailed = failedPackages.some((match) => /\[(?:build|setup) failed\]/.test(match[0]));
  const result = summary('go', {
    // Without -v go prints no line per passing test: count packages then.
    passed: passes > 0 ? passes : okPackages,
    failed: fails.length > 0 ? fails.length : failedPackages.length,
    skipped: skips.length,
    failingTests: fails,
    skippedTests: skips,
  });
  if (buildFailed && fails.length === 0) result.couldNotRun = 'the package does not build';
  return result;
};

const cargo: Parser = (text) => {
  const results = [...text.matchAll(/^test result: (?:ok|FAILED)\. (.*)$/gm)];
  if (results.length === 0) {
    if (/^error: could not compile `[^`]+`/m.test(text)) return summary('cargo', { couldNotRun: 'the crate does not compile' });
    return null;
  }
  const total = { passed: 0, failed: 0, ignored: 0 };
  for (const match of results) {
    const c = counts(match[1]!);
    total.passed += c['passed'] ?? 0;
    total.failed += c['failed'] ?? 0;
    total.ignored += c['ignored'] ?? 0;
  }
  return summary('cargo', {
    passed: total.passed,
    failed: total.failed,
    skipped: total.ignored,
    failingTests: names(text, /^test (\S+) \.\.\. FAILED\s*$/gm),
    skippedTests: names(text, /^test (\S+) \.\.\. ignored/gm),
  });
};

const rspec: Parser = (text, end) => {
  const line = lastMatch(end, /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?/m);
  if (!line) return null;
  const examples = Number(line[1]);
  const failures = Number(line[2]);
  const pending = Number(line[3] ?? 0);
  const outside = Number(line[4] ?? 0);
  const result = summary('rspec', {
    passed: examples - failures - pending,
    failed: failures,
    skipped: pending,
    errors: outside,
    failingTests: names(text, /^rspec \S+ # (.+?)\s*$/gm),
  });
  if (outside > 0 && examples === 0) result.couldNotRun = 'the specs could not be loaded';
  return result;
};

const minitest: Parser = (text, end) => {
  const line = lastMatch(end, /^(\d+) (?:runs|tests), (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) skips/m);
  if (!line) return null;
  const [runs, failures, errors, skips] = [Number(line[1]), Number(line[3]), Number(line[4]), Number(line[5])];
  return summary('minitest', {
    passed: runs - failures - errors - skips,
    failed: failures + errors,
    skipped: skips,
    failingTests: names(text, /^\s*\d+\) (?:Failure|Error):\s*\n?\s*(\S+)/gm),
  });
};

const phpunit: Parser = (text, end) => {
  const ok = lastMatch(end, /^OK \((\d+) tests?, (\d+) assertions?\)/m);
  if (ok) return summary('phpunit', { passed: Number(ok[1]) });
  const line = lastMatch(end, /^Tests: (\d+), Assertions: \d+(.*)$/m);
  if (!line) return /No tests executed!/.test(text) ? summary('phpunit', { couldNotRun: 'no tests executed' }) : null;
  const c: Record<string, number> = {};
  for (const match of line[2]!.matchAll(/([A-Za-z]+): (\d+)/g)) c[match[1]!.toLowerCase()] = Number(match[2]);
  const total = Number(line[1]);
  const failed = (c['failures'] ?? 0) + (c['errors'] ?? 0);
  const skipped = (c['skipped'] ?? 0) + (c['incomplete'] ?? 0);
  return summary('phpunit', {
    passed: total - failed - skipped,
    failed,
    skipped,
    failingTests: names(text, /^\d+\) (\S+::\S+)/gm),
  });
};

const dotnet: Parser = (text) => {
  const total = { failed: 0, passed: 0, skipped: 0 };
  // dotnet 5 and later: one line per test project.
  const lines = [...text.matchAll(/^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+), Passed:\s+(\d+), Skipped:\s+(\d+), Total:\s+(\d+)/gm)];
  for (const match of lines) {
    total.failed += Number(match[1]);
    total.passed += Number(match[2]);
    total.skipped += Number(match[3]);
  }
  // Older SDKs: "Test Run Failed." then "Total tests: 6", "Passed: 4", "Failed: 2" on their own lines.
  const blocks =
    lines.length > 0
      ? []
      : [
          ...text.matchAll(
            /^Test Run (?:Successful|Failed|Aborted)\.[ \t]*\r?\nTotal tests: \d+[ \t]*\r?\n((?:[ \t]+(?:Passed|Failed|Skipped): \d+[ \t]*(?:\r?\n|$))+)/gm,
          ),
        ];
  for (const block of blocks) {
    for (const match of block[1]!.matchAll(/(Passed|Failed|Skipped): (\d+)/g)) {
      total[match[1]!.toLowerCase() as keyof typeof total] += Number(match[2]);
    }
  }
  if (lines.length === 0 && blocks.length === 0) {
    if (/^Build FAILED\./m.test(text) || /error [A-Z]+\d{4}:/.test(text)) return summary('dotnet', { couldNotRun: 'the project does not build' });
    return null;
  }
  return summary('dotnet', { ...total, failingTests: names(text, /^\s*Failed (\S+) \[/gm) });
};

const playwright: Parser = (text, end) => {
  const passed = lastMatch(end, /^[ \t]+(\d+) passed\b(?: \([\d.]+m?s\))?/m);
  const failed = lastMatch(end, /^[ \t]+(\d+) failed\s*$/m);
  const flaky = lastMatch(end, /^[ \t]+(\d+) flaky\s*$/m);
  const skipped = lastMatch(end, /^[ \t]+(\d+) skipped\s*$/m);
  if (!passed && !failed) return null;
  return summary('playwright', {
    passed: Number(passed?.[1] ?? 0) + Number(flaky?.[1] ?? 0),
    failed: Number(failed?.[1] ?? 0),
    skipped: Number(skipped?.[1] ?? 0),
    failingTests: names(text, /^[ \t]+\d+\) (\[[^\]]+\] \u203a .+?)\s*(?:\u2500+)?\s*$/gm),
  });
};

const cypress: Parser = (text, end) => {
  if (/All specs passed!/.test(text)) {
    const row = lastMatch(end, /All specs passed!\s+[\d:]+\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)/);
    return summary('cypress', { passed: Number(row?.[2] ?? 0), skipped: toNumber(row?.[4]) + toNumber(row?.[5]) });
  }
  const row = lastMatch(end, /\u2716\s+(\d+) of (\d+) failed \(\d+%\)\s+[\d:]+\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)/);
  if (!row) return null;
  return summary('cypress', { passed: toNumber(row[4]), failed: Math.max(toNumber(row[5]), 1), skipped: toNumber(row[6]) + toNumber(row[7]) });
};

function toNumber(value: string | undefined): number {
  return value && /^\d+$/.test(value) ? Number(value) : 0;
}

/** Which parser a command names, so it is tried first. */
const BY_COMMAND: readonly [RegExp, Parser][] = [
  [/\bjest\b/, jest],
  [/\bvitest\b/, vitest],
  [/\bmocha\b/, mocha],
  [/\bnode\b.*--test\b/, nodeTest],
  [/\bpytest\b|\bpy\.test\b/, pytest],
  [/\bgo\s+test\b/, goTest],
  [/\bcargo\b/, cargo],
  [/\brspec\b/, rspec],
  [/\brails\s+test\b|\brake\s+test\b|\bruby\b/, minitest],
  [/\bphpunit\b/, phpunit],
  [/\bdotnet\s+test\b/, dotnet],
  [/\bplaywright\b/, playwright],
  [/\bcypress\b/, cypress],
  [/\buvu\b/, uvu],
  [/\bava\b/, ava],
  [/\bjasmine\b/, jasmine],
  [/\bkarma\b/, karma],
  [/\bbun\s+test\b/, bun],
  [/\bdeno\s+test\b/, deno],
  [/\btap\b/, nodeTap],
  [/\bbats\b/, batsPretty],
];

/** Most specific first: a looser shape must not claim another runner's output. */
const ALL: readonly Parser[] = [
  jest,
  vitest,
  cargo,
  pytest,
  rspec,
  minitest,
  phpunit,
  dotnet,
  cypress,
  goTest,
  nodeTest,
  nodeTap,
  uvu,
  deno,
  bun,
  karma,
  jasmine,
  batsPretty,
  ava,
  mocha,
  playwright,
  // Last: a TAP stream is what several runners above also print.
  tapStream,
];

/**
 * Every runner whose summary shape the text holds. One run prints one runner's summary; a second means
 * something else wrote into the output (the gate's own run refuses to choose between them).
 */
export function runnersIn(text: string): string[] {
  const end = text.length > 8192 ? text.slice(-8192) : text;
  const found = new Set(
    ALL.map((parser) => parser(text, end))
      .filter((result): result is RunSummary => result !== null && !result.couldNotRun)
      .map((result) => result.runner.replace(/-spec$/, '')),
  );
  // Cypress prints mocha's reporter for each spec before its own table: one runner, two shapes.
  if (found.has('cypress')) found.delete('mocha');
  // node --test and node-tap print a TAP stream with their own summary: that is theirs, not a second runner.
  if (found.size > 1) found.delete('tap');
  return [...found];
}

export function parseRunnerSummary(text: string, command = ''): RunSummary | null {
  const first = BY_COMMAND.find(([pattern]) => pattern.test(command))?.[1];
  const end = text.length > 8192 ? text.slice(-8192) : text;
  for (const parser of first ? [first, ...ALL.filter((p) => p !== first)] : ALL) {
    const result = parser(text, end);
    if (result) return result;
  }
  return null;
}
