// A `coverage` rule: the share of lines covered, read from a report the project's test run wrote (lcov,
// istanbul json-summary or cobertura, recognised by content), against a minimum.
import { readFileSync } from 'node:fs';
import type { CoverageRule, RuleResult, ValidationContext } from '../types.js';
import { resolveInsideRoot, statIfPresent } from './inside-root.js';
import { resultMaker } from './result.js';

/** Where reports usually are, tried in this order when a rule names none. */
export const USUAL_REPORTS: readonly string[] = [
  'coverage/coverage-summary.json',
  'coverage/lcov.info',
  'coverage/cobertura-coverage.xml',
  'coverage.xml',
  'lcov.info',
];

export type ReportFormat = 'istanbul' | 'lcov' | 'cobertura' | 'go-cover';
export type ParsedReport = { ok: true; format: ReportFormat; percent: number } | { ok: false; reason: string };

/** Rounded away from floating-point noise (0.29 * 100 is 28.999999999999996). */
const clean = (percent: number) => Math.round(percent * 1e6) / 1e6;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function parseIstanbul(text: string): ParsedReport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `a JSON report that does not parse: ${(error as Error).message}` };
  }
  const lines = isRecord(json) && isRecord(json.total) && isRecord(json.total.lines) ? json.total.lines : undefined;
  if (!lines) return { ok: false, reason: 'a JSON report without total.lines (the json-summary reporter writes one)' };
  if (typeof lines.total === 'number' && lines.total === 0) return { ok: false, reason: 'the report counts no lines' };
  if (typeof lines.pct === 'number') return { ok: true, format: 'istanbul', percent: clean(lines.pct) };
  if (typeof lines.covered === 'number' && typeof lines.total === 'number') {
    return { ok: true, format: 'istanbul', percent: clean((lines.covered * 100) / lines.total) };
  }
  return { ok: false, reason: 'total.lines has no percentage' };
}

function parseLcov(text: string): ParsedReport {
  let found = 0;
  let hit = 0;
  let summaries = false;
  let instrumented = 0;
  let executed = 0;
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('LF:')) {
      summaries = true;
      found += Number(line.slice(3)) || 0;
    } else if (line.startsWith('LH:')) {
      hit += Number(line.slice(3)) || 0;
    } else if (line.startsWith('DA:')) {
      instrumented++;
      if ((Number(line.slice(3).split(',')[1]) || 0) > 0) executed++;
    }
  }
  // LF/LH are the per-file summaries; without them, count the DA (line data) records.
  const [covered, total] = summaries ? [hit, found] : [executed, instrumented];
  if (total === 0) return { ok: false, reason: 'the report counts no lines' };
  return { ok: true, format: 'lcov', percent: clean((covered * 100) / total) };
}

function parseCobertura(text: string): ParsedReport {
  const root = /<coverage\b([^>]*)>/.exec(text);
  if (!root) return { ok: false, reason: 'an XML report without a <coverage> element' };
  const attribute = (name: string) => new RegExp(`(?:^|\\s)${name}\\s*=\\s*["']([^"']*)["']`).exec(root[1] ?? '')?.[1];
  const rate = attribute('line-rate');
  if (rate !== undefined && rate.trim() !== '' && Number.isFinite(Number(rate))) {
    const value = Number(rate);
    if (value < 0 || value > 1) return { ok: false, reason: `line-rate ${rate} is not between 0 and 1` };
    return { ok: true, format: 'cobertura', percent: clean(value * 100) };
  }
  const valid = Number(attribute('lines-valid'));
  const covered = Number(attribute('lines-covered'));
  if (valid > 0 && Number.isFinite(covered)) return { ok: true, format: 'cobertura', percent: clean((covered * 100) / valid) };
  return { ok: false, reason: 'the <coverage> element has no line-rate' };
}

/** Go's cover profile (`go test -coverprofile`): statements covered over statements, as `go tool cover` counts. */
function parseGoProfile(text: string): ParsedReport {
  let total = 0;
  let covered = 0;
  for (const line of text.split(/\r?\n/).slice(1)) {
    const match = /^\S+:\d+\.\d+,\d+\.\d+ (\d+) (\d+)$/.exec(line.trim());
    if (!match) continue;
    total += Number(match[1]);
    if (Number(match[2]) > 0) covered += Number(match[1]);
  }
  if (total === 0) return { ok: false, reason: 'the profile counts no statements' };
  return { ok: true, format: 'go-cover', percent: clean((covered * 100) / total) };
}

/** The share of lines covered, from a report's text; the format is recognised by content. */
export function parseCoverageReport(text: string): ParsedReport {
  const start = text.trimStart();
  if (/^mode: (?:set|count|atomic)\s/.test(start)) return parseGoProfile(start);
  if (start.startsWith('{')) return parseIstanbul(start);
  if (start.startsWith('<')) return parseCobertura(start);
  if (/^(?:TN|SF|DA|LF|LH):/m.test(text)) return parseLcov(text);
  return { ok: false, reason: 'not a report format known here (lcov, istanbul json-summary, cobertura XML, Go cover profile)' };
}

/** Down to two decimals, so a display never rounds a failing value up to the minimum. */
const shown = (percent: number) => `${Math.floor(percent * 100) / 100}%`;

export function runCoverageRule(rule: CoverageRule, ctx: ValidationContext): RuleResult {
  const started = Date.now();
  const result = resultMaker(rule, started);
  const errored = (message: string) => result({ passed: false, errored: true }, message);

  let report: string | undefined;
  let path: string | undefined;
  for (const candidate of rule.report !== undefined ? [rule.report] : USUAL_REPORTS) {
    const resolved = resolveInsideRoot(ctx.root, candidate);
    if (!resolved.ok) return errored(`cannot read the coverage report: ${resolved.reason}`);
    if (statIfPresent(resolved.path)?.isFile()) {
      report = candidate;
      path = resolved.path;
      break;
    }
  }
  if (report === undefined || path === undefined) {
    return errored(
      rule.report !== undefined
        ? `no coverage report at ${rule.report}; run the tests with coverage first`
        : `no coverage report found (looked for ${USUAL_REPORTS.join(', ')}); run the tests with coverage first, or name the report`,
    );
  }

  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return errored(`cannot read ${report}: ${(error as Error).message}`);
  }
  const parsed = parseCoverageReport(text);
  if (!parsed.ok) return errored(`cannot use ${report}: ${parsed.reason}`);

  const passed = parsed.percent >= rule.minCoverage;
  return result({ passed, errored: false, coverage: parsed.percent }, `${shown(parsed.percent)} of lines (minimum ${rule.minCoverage}%) from ${report}`);
}
