// Test names from the reporter files a phase names (`test_iteration.reporter_file`): Jest's and Vitest's
// JSON report (`testResults[].assertionResults[]`) and Mocha's (`--reporter json`). JUnit XML is read by
// reporter-names-junit.ts, which the hooks do not load.
import { readFileSync, statSync } from 'node:fs';
import { nameOf, runNames, titlePart, type NamedTest, type NameOutcome, type RunNames } from './test-name.js';

const JEST_STATUS: Record<string, NameOutcome> = {
  passed: 'passed',
  failed: 'failed',
  pending: 'skipped',
  skipped: 'skipped',
  disabled: 'skipped',
  todo: 'todo',
};

interface JestReport {
  testResults?: { name?: string; assertionResults?: { ancestorTitles?: string[]; title?: string; fullName?: string; status?: string }[] }[];
}

interface MochaTest {
  title?: string;
  fullTitle?: string;
  file?: string;
}

interface MochaReport {
  stats?: { tests?: number };
  tests?: MochaTest[];
  passes?: MochaTest[];
  failures?: MochaTest[];
  pending?: MochaTest[];
}

/** Jest's and Vitest's JSON report. */
export function jestJsonNames(report: JestReport): RunNames | null {
  const tests: NamedTest[] = [];
  for (const file of report.testResults ?? []) {
    for (const result of file.assertionResults ?? []) {
      const outcome = JEST_STATUS[result.status ?? ''];
      const title = result.title ?? result.fullName;
      if (!outcome || !title) continue;
      tests.push({ name: nameOf([...(result.ancestorTitles ?? []), titlePart(title)]), outcome, ...(file.name ? { file: file.name } : {}) });
    }
  }
  return runNames('json-report', tests);
}

/** Mocha's JSON report: `passes`, `failures`, `pending`, each test with its full title (suites joined by spaces). */
export function mochaJsonNames(report: MochaReport): RunNames | null {
  const tests: NamedTest[] = [];
  const add = (list: MochaTest[] | undefined, outcome: NameOutcome): void => {
    for (const test of list ?? []) {
      const title = test.fullTitle ?? test.title;
      if (title) tests.push({ name: nameOf([titlePart(title)]), outcome, ...(test.file ? { file: test.file } : {}) });
    }
  };
  add(report.passes, 'passed');
  add(report.pending, 'skipped');
  add(report.failures, 'failed');
  return runNames('mocha-json', tests);
}

/** The names in a JSON report's text, whichever of the two shapes it has. */
export function jsonReportNames(text: string): RunNames | null {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof report !== 'object' || report === null) return null;
  if (Array.isArray((report as JestReport).testResults)) return jestJsonNames(report);
  if (typeof (report as MochaReport).stats === 'object' && Array.isArray((report as MochaReport).passes)) return mochaJsonNames(report);
  return null;
}

/** The text of the report at `path` when this run wrote it (at or after `since`, ms since the epoch). */
export function reportWrittenSince(path: string, since: number): string | null {
  try {
    if (statSync(path).mtimeMs + 1000 < since) return null; // an older run's report
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
