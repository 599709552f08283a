// Reporter files written by the runner itself (Jest/Vitest JSON, JUnit XML): exact counts, preferred to
// reading console text when the phase names one and it was written by this run.
import { readFileSync, statSync } from 'node:fs';
import type { RunSummary } from './runners.js';

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) out[match[1]!] = match[2]!;
  return out;
}

function decodeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function parseJunit(xml: string): RunSummary | null {
  const cases = [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)];
  if (cases.length === 0 && !/<testsuites?\b/.test(xml)) return null;
  const result: RunSummary = { runner: 'junit', passed: 0, failed: 0, skipped: 0, errors: 0, failingTests: [], skippedTests: [] };
  for (const testcase of cases) {
    const attrs = attributes(testcase[1] ?? '');
    const name = decodeXml([attrs['classname'], attrs['name']].filter(Boolean).join(' › '));
    const body = testcase[3] ?? '';
    if (/<(?:failure|error)\b/.test(body)) {
      result.failed += 1;
      result.failingTests.push(name);
    } else if (/<skipped\b/.test(body)) {
      result.skipped += 1;
      result.skippedTests.push(name);
    } else result.passed += 1;
  }
  if (cases.length === 0) {
    const suites = attributes(/<testsuites?\b([^>]*)>/.exec(xml)?.[1] ?? '');
    const tests = Number(suites['tests'] ?? 0);
    result.failed = Number(suites['failures'] ?? 0) + Number(suites['errors'] ?? 0);
    result.skipped = Number(suites['skipped'] ?? suites['disabled'] ?? 0);
    result.passed = tests - result.failed - result.skipped;
    if (tests === 0) result.couldNotRun = 'the report lists no tests';
  }
  return result;
}

interface JestJson {
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  numTotalTests?: number;
  numRuntimeErrorTestSuites?: number;
  testResults?: { assertionResults?: { fullName?: string; title?: string; status?: string }[] }[];
}

/** The JSON report of Jest and of Vitest (`--reporter=json`), which share its shape. */
export function parseJestJson(text: string): RunSummary | null {
  let report: JestJson;
  try {
    report = JSON.parse(text) as JestJson;
  } catch {
    return null;
  }
  if (typeof report?.numTotalTests !== 'number') return null;
  const assertions = (report.testResults ?? []).flatMap((file) => file.assertionResults ?? []);
  const named = (status: string): string[] =>
    assertions
      .filter((a) => a.status === status)
      .map((a) => a.fullName ?? a.title ?? '')
      .filter(Boolean);
  const result: RunSummary = {
    runner: 'json-report',
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    errors: report.numRuntimeErrorTestSuites ?? 0,
    failingTests: named('failed'),
    skippedTests: [...named('pending'), ...named('skipped'), ...named('todo')],
  };
  if (report.numTotalTests === 0) result.couldNotRun = result.errors > 0 ? 'a test file failed to load' : 'no tests ran';
  return result;
}

/** The report at `path`, if it exists and was written at or after `since` (ms since the epoch). */
export function readReporterFile(path: string, since: number): RunSummary | null {
  try {
    if (statSync(path).mtimeMs + 1000 < since) return null; // an older run's report
    const text = readFileSync(path, 'utf8');
    return path.endsWith('.xml') ? parseJunit(text) : parseJestJson(text);
  } catch {
    return null;
  }
}
