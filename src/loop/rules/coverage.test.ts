import { EXAMPLE_GUARDED } from '../../../test/helpers/hosts.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoverageRule } from '../types.js';
import { parseCoverageReport, runCoverageRule } from './coverage.js';

const PROTECT = EXAMPLE_GUARDED.protectedPaths();

const LCOV = [
  'TN:',
  'SF:src/a.ts',
  'DA:1,1',
  'DA:2,0',
  'LF:40',
  'LH:29',
  'end_of_record',
  'SF:src/b.ts',
  'LF:0',
  'LH:0',
  'end_of_record',
  'SF:src/c.ts',
  'LF:0',
  'LH:0',
  'end_of_record',
].join('\n');
const SUMMARY = JSON.stringify({ total: { lines: { total: 200, covered: 145, skipped: 0, pct: 72.5 }, statements: { pct: 10 } } });
const COBERTURA =
  '<?xml version="1.0" ?>\n<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">\n<coverage line-rate="0.8342" branch-rate="0.5" version="7.4">\n<packages><package name="x" line-rate="0.1"/></packages>\n</coverage>\n';

describe('parseCoverageReport', () => {
  const rows: { name: string; text: string; expected: ReturnType<typeof parseCoverageReport> }[] = [
    { name: 'lcov: LF/LH summed over files', text: LCOV, expected: { ok: true, format: 'lcov', percent: 72.5 } },
    { name: 'lcov with CRLF line ends', text: LCOV.replace(/\n/g, '\r\n'), expected: { ok: true, format: 'lcov', percent: 72.5 } },
    {
      name: 'lcov without LF/LH: DA records counted',
      text: 'SF:a.js\nDA:1,3\nDA:2,0\nDA:3,1\nDA:4,0\nend_of_record\n',
      expected: { ok: true, format: 'lcov', percent: 50 },
    },
    { name: 'lcov with no lines', text: 'SF:a.js\nLF:0\nLH:0\nend_of_record\n', expected: { ok: false, reason: 'the report counts no lines' } },
    { name: 'istanbul json-summary: total.lines.pct', text: SUMMARY, expected: { ok: true, format: 'istanbul', percent: 72.5 } },
    {
      name: 'istanbul: pct "Unknown" with covered/total',
      text: JSON.stringify({ total: { lines: { total: 8, covered: 6, pct: 'Unknown' } } }),
      expected: { ok: true, format: 'istanbul', percent: 75 },
    },
    {
      name: 'istanbul with no lines',
      text: JSON.stringify({ total: { lines: { total: 0, covered: 0, pct: 100 } } }),
      expected: { ok: false, reason: 'the report counts no lines' },
    },
    {
      name: 'JSON that is not a summary (coverage-final.json)',
      text: JSON.stringify({ '/src/a.ts': { s: {} } }),
      expected: { ok: false, reason: 'a JSON report without total.lines (the json-summary reporter writes one)' },
    },
    { name: 'cobertura: line-rate of the root element, not of a package', text: COBERTURA, expected: { ok: true, format: 'cobertura', percent: 83.42 } },
    {
      name: 'cobertura: 0.29 is 29, not 28.999999999999996',
      text: '<coverage line-rate="0.29"></coverage>',
      expected: { ok: true, format: 'cobertura', percent: 29 },
    },
    {
      name: 'cobertura: lines-covered/lines-valid when line-rate is missing',
      text: "<coverage lines-valid='10' lines-covered='9'>",
      expected: { ok: true, format: 'cobertura', percent: 90 },
    },
    { name: 'cobertura: a line-rate out of range', text: '<coverage line-rate="83">', expected: { ok: false, reason: 'line-rate 83 is not between 0 and 1' } },
    {
      name: 'something else',
      text: 'Statements: 80%',
      expected: { ok: false, reason: 'not a report format known here (lcov, istanbul json-summary, cobertura XML, Go cover profile)' },
    },
  ];
  it.each(rows)('$name', ({ text, expected }) => {
    expect(parseCoverageReport(text)).toEqual(expected);
  });
});

describe('runCoverageRule', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-coverage-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  };
  const rule = (minCoverage: number, report?: string): CoverageRule => ({
    type: 'coverage',
    name: 'coverage',
    enabled: true,
    minCoverage,
    ...(report ? { report } : {}),
  });

  const rows: { name: string; files: Record<string, string>; rule: CoverageRule; passed: boolean; errored: boolean; coverage?: number; message: RegExp }[] = [
    {
      name: 'below the minimum fails and says so',
      files: { 'coverage/lcov.info': LCOV },
      rule: rule(80),
      passed: false,
      errored: false,
      coverage: 72.5,
      message: /^coverage: 72\.5% of lines \(minimum 80%\) from coverage\/lcov\.info$/,
    },
    {
      name: 'at the minimum passes',
      files: { 'coverage/lcov.info': LCOV },
      rule: rule(72.5),
      passed: true,
      errored: false,
      coverage: 72.5,
      message: /72\.5% of lines \(minimum 72\.5%\)/,
    },
    {
      name: 'the summary is preferred to lcov',
      files: { 'coverage/coverage-summary.json': SUMMARY.replace('72.5', '90'), 'coverage/lcov.info': LCOV },
      rule: rule(80),
      passed: true,
      errored: false,
      coverage: 90,
      message: /from coverage\/coverage-summary\.json/,
    },
    {
      name: 'cobertura at coverage.xml',
      files: { 'coverage.xml': COBERTURA },
      rule: rule(80),
      passed: true,
      errored: false,
      coverage: 83.42,
      message: /83\.42% of lines \(minimum 80%\) from coverage\.xml/,
    },
    { name: 'lcov.info at the root', files: { 'lcov.info': LCOV }, rule: rule(50), passed: true, errored: false, coverage: 72.5, message: /from lcov\.info/ },
    {
      name: 'a named report',
      files: { 'out/cov.json': SUMMARY, 'coverage/lcov.info': 'LF:1\nLH:1\n' },
      rule: rule(70, 'out/cov.json'),
      passed: true,
      errored: false,
      coverage: 72.5,
      message: /from out\/cov\.json/,
    },
    {
      name: 'no report anywhere: errored, listing where it looked',
      files: {},
      rule: rule(80),
      passed: false,
      errored: true,
      message:
        /no coverage report found \(looked for coverage\/coverage-summary\.json, coverage\/lcov\.info, coverage\/cobertura-coverage\.xml, coverage\.xml, lcov\.info\)/,
    },
    {
      name: 'a named report that is missing',
      files: { 'coverage/lcov.info': LCOV },
      rule: rule(80, 'cov/lcov.info'),
      passed: false,
      errored: true,
      message: /no coverage report at cov\/lcov\.info/,
    },
    {
      name: 'an unreadable report is errored',
      files: { 'coverage/lcov.info': 'garbage' },
      rule: rule(80),
      passed: false,
      errored: true,
      message: /cannot use coverage\/lcov\.info: not a report format/,
    },
    {
      name: 'a report outside the root is errored',
      files: {},
      rule: rule(80, '../lcov.info'),
      passed: false,
      errored: true,
      message: /outside the project root/,
    },
    {
      name: 'a value just under the minimum is not shown rounded up',
      files: { 'lcov.info': 'LF:100000\nLH:79996\n' },
      rule: rule(80),
      passed: false,
      errored: false,
      coverage: 79.996,
      message: /79\.99% of lines \(minimum 80%\)/,
    },
  ];
  it.each(rows)('$name', ({ files, rule, passed, errored, coverage, message }) => {
    write(files);
    const result = runCoverageRule(rule, { root, protect: PROTECT, agentOutput: '' });
    expect(result).toMatchObject({ name: 'coverage', type: 'coverage', passed, errored });
    expect(result.coverage).toBe(coverage);
    expect(result.message).toMatch(message);
  });
});
