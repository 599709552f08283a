// Reading a mutation-testing report in the format Stryker and other mutation tools share (the
// mutation-testing-report-schema: `files` by path, each with its `source` and `mutants`, and `testFiles`
// naming the tests), narrowed to the lines a workflow changed. What a mutant means follows the schema's own
// metrics (mutation-testing-metrics): Killed and Timeout are caught, Survived and NoCoverage are not,
// CompileError and RuntimeError are not mutants that count. For the gate one thing differs: an Ignored
// mutant on a changed line counts as not caught, since whoever changed the line can also add the comment
// that tells the tool to ignore it. A report that is not this shape is no measurement at all.
import { isAbsolute, relative } from 'node:path';
import { calculateMetrics } from 'mutation-testing-metrics';
import type { FileResultDictionary, MutantResult, MutantStatus } from 'mutation-testing-report-schema';
import { isRecord } from '../util/json.js';
import type { ChangedSource, LineRange } from '../detect/changed-lines.js';

export interface MutantCounts {
  killed: number;
  timeout: number;
  survived: number;
  no_coverage: number;
  /** Ignored by the tool (a disable comment, its config): counted as not caught. */
  ignored: number;
  /** Never run (the tool stopped before them): counted as not caught. */
  pending: number;
  /** CompileError and RuntimeError: not counted either way. */
  invalid: number;
}

/** A changed line the tests did not notice changing. */
export interface Survivor {
  file: string;
  line: number;
  mutator: string;
  status: 'Survived' | 'NoCoverage' | 'Ignored' | 'Pending';
  /** The code as it was and as the mutant had it, each cut short. */
  original?: string;
  replacement?: string;
  /** For a survivor: the tests that ran it and passed anyway, by name. */
  covered_by?: string[];
  /** Why the tool ignored it, where it says. */
  reason?: string;
}

export interface MutationMeasure {
  /** Caught over counted, 0-100 with one decimal; null when no mutant on a changed line counts. */
  score: number | null;
  counts: MutantCounts;
  /** Every mutant on a changed line, counted or not. */
  mutants: number;
  survivors: Survivor[];
}

export type ReadReport = { ok: true; report: MutationReport } | { ok: false; why: string };

/** The parts of a report the gate rests on, checked; everything else the producer wrote is left alone. */
export interface MutationReport {
  schemaVersion: string;
  projectRoot?: string;
  files: FileResultDictionary;
  /** Test id → its name, from `testFiles`. */
  testNames: Map<string, string>;
}

const STATUSES: ReadonlySet<string> = new Set<MutantStatus>([
  'Killed',
  'Survived',
  'NoCoverage',
  'CompileError',
  'RuntimeError',
  'Timeout',
  'Ignored',
  'Pending',
]);

function isPosition(value: unknown): boolean {
  return isRecord(value) && Number.isInteger(value['line']) && Number.isInteger(value['column']) && (value['line'] as number) >= 1;
}

/** Why `mutant` is not a mutant of the schema, or undefined. */
function mutantProblem(mutant: unknown): string | undefined {
  if (!isRecord(mutant)) return 'a mutant is not an object';
  if (typeof mutant['id'] !== 'string' || typeof mutant['mutatorName'] !== 'string') return 'a mutant has no id or mutatorName';
  if (typeof mutant['status'] !== 'string' || !STATUSES.has(mutant['status']))
    return `a mutant's status ${JSON.stringify(mutant['status'])} is not one of the schema's`;
  const location = mutant['location'];
  if (!isRecord(location) || !isPosition(location['start']) || !isPosition(location['end']))
    return `mutant ${mutant['id']} has no location of lines and columns`;
  for (const list of ['coveredBy', 'killedBy'])
    if (mutant[list] !== undefined && (!Array.isArray(mutant[list]) || !mutant[list].every((id) => typeof id === 'string')))
      return `mutant ${mutant['id']}'s ${list} is not a list of test ids`;
  return undefined;
}

/** The report in `text`, checked where the gate rests on it. */
export function readMutationReport(text: string): ReadReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, why: `it is not JSON (${(error as Error).message})` };
  }
  if (!isRecord(parsed)) return { ok: false, why: 'it is not a JSON object' };
  const version = parsed['schemaVersion'];
  if (typeof version !== 'string' || !/^1(?:\.|$)/.test(version))
    return { ok: false, why: `its schemaVersion is ${JSON.stringify(version ?? null)}, not a version 1 mutation-testing report` };
  const files = parsed['files'];
  if (!isRecord(files)) return { ok: false, why: 'it has no "files" object' };
  for (const [path, file] of Object.entries(files)) {
    if (!isRecord(file) || !Array.isArray(file['mutants']) || typeof file['source'] !== 'string' || typeof file['language'] !== 'string')
      return { ok: false, why: `"${path}" has no language, source and list of mutants` };
    for (const mutant of file['mutants']) {
      const problem = mutantProblem(mutant);
      if (problem) return { ok: false, why: `in "${path}": ${problem}` };
    }
  }
  const testNames = new Map<string, string>();
  const testFiles = parsed['testFiles'];
  if (isRecord(testFiles)) {
    for (const file of Object.values(testFiles)) {
      const tests = isRecord(file) ? file['tests'] : undefined;
      for (const test of Array.isArray(tests) ? tests : [])
        if (isRecord(test) && typeof test['id'] === 'string' && typeof test['name'] === 'string') testNames.set(test['id'], test['name']);
    }
  }
  const projectRoot = parsed['projectRoot'];
  return {
    ok: true,
    report: {
      schemaVersion: version,
      ...(typeof projectRoot === 'string' && projectRoot ? { projectRoot } : {}),
      files: files as unknown as FileResultDictionary,
      testNames,
    },
  };
}

/**
 * A report's path relative to the project's root. Producers write paths relative to where they ran (the
 * root: the gate runs them there) or absolute ones.
 */
function projectRelative(path: string, root: string): string {
  const unified = path.replace(/\\/g, '/');
  if (isAbsolute(unified)) return relative(root, unified).replace(/\\/g, '/');
  return unified.replace(/^\.\//, '');
}

function overlaps(mutant: MutantResult, ranges: readonly LineRange[]): boolean {
  const { start, end } = mutant.location;
  return ranges.some(([from, to]) => start.line <= to && end.line >= from);
}

const SHORT = 60;
function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > SHORT ? `${line.slice(0, SHORT - 1)}…` : line;
}

/** The code a mutant replaced, from the file's source. */
function originalOf(source: string, mutant: MutantResult): string | undefined {
  const lines = source.split('\n');
  const { start, end } = mutant.location;
  if (start.line > lines.length || end.line > lines.length) return undefined;
  const picked = lines.slice(start.line - 1, end.line);
  picked[picked.length - 1] = picked.at(-1)!.slice(0, end.column - 1);
  picked[0] = picked[0]!.slice(start.column - 1);
  return short(picked.join('\n'));
}

const NOT_CAUGHT: ReadonlySet<string> = new Set(['Survived', 'NoCoverage', 'Ignored', 'Pending']);

/**
 * The mutants of `report` on the `changed` lines, measured. Only files and lines named in `changed` count; a
 * mutant counts where its location overlaps a changed line.
 */
export function measureChanged(report: MutationReport, changed: readonly ChangedSource[], root: string): MutationMeasure {
  const wanted = new Map(changed.map((file) => [file.file, file.ranges]));
  const narrowed: FileResultDictionary = {};
  const survivors: Survivor[] = [];
  const counts: MutantCounts = { killed: 0, timeout: 0, survived: 0, no_coverage: 0, ignored: 0, pending: 0, invalid: 0 };
  let mutants = 0;
  for (const [path, file] of Object.entries(report.files)) {
    const name = projectRelative(path, root);
    const ranges = wanted.get(name);
    if (!ranges) continue;
    const kept = file.mutants.filter((mutant) => overlaps(mutant, ranges));
    if (kept.length === 0) continue;
    mutants += kept.length;
    // Ignored and Pending count as not caught: as Survived for the score.
    narrowed[name] = {
      ...file,
      mutants: kept.map((mutant) => (mutant.status === 'Ignored' || mutant.status === 'Pending' ? { ...mutant, status: 'Survived' as const } : mutant)),
    };
    for (const mutant of kept) {
      if (mutant.status === 'Ignored') counts.ignored += 1;
      if (mutant.status === 'Pending') counts.pending += 1;
      if (!NOT_CAUGHT.has(mutant.status)) continue;
      const original = originalOf(file.source, mutant);
      const covered = (mutant.coveredBy ?? []).map((id) => report.testNames.get(id) ?? id);
      survivors.push({
        file: name,
        line: mutant.location.start.line,
        mutator: mutant.mutatorName,
        status: mutant.status as Survivor['status'],
        ...(original !== undefined ? { original } : {}),
        ...(typeof mutant.replacement === 'string' ? { replacement: short(mutant.replacement) } : {}),
        ...(mutant.status === 'Survived' && covered.length > 0 ? { covered_by: covered.slice(0, 5) } : {}),
        ...(mutant.status === 'Ignored' && typeof mutant.statusReason === 'string' ? { reason: short(mutant.statusReason) } : {}),
      });
    }
  }
  const metrics = calculateMetrics(narrowed).metrics;
  counts.killed = metrics.killed;
  counts.timeout = metrics.timeout;
  counts.survived = metrics.survived - counts.ignored - counts.pending;
  counts.no_coverage = metrics.noCoverage;
  counts.invalid = metrics.totalInvalid;
  survivors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { score: metrics.totalValid > 0 ? Math.floor(metrics.mutationScore * 10) / 10 : null, counts, mutants, survivors };
}

/** A mutant the tool says a test caught, with what it takes to make the same change to the file by hand. */
export interface KilledMutant {
  file: string;
  line: number;
  mutator: string;
  location: MutantResult['location'];
  replacement: string;
  /** The file's content the tool mutated. */
  source: string;
  original?: string;
  /** The tests the tool says caught it, by name. */
  killed_by: string[];
}

/** The Killed mutants on the `changed` lines that name their replacement (a Timeout is no change to run by hand). */
export function killedOnChanged(report: MutationReport, changed: readonly ChangedSource[], root: string): KilledMutant[] {
  const wanted = new Map(changed.map((file) => [file.file, file.ranges]));
  const out: KilledMutant[] = [];
  for (const [path, file] of Object.entries(report.files)) {
    const name = projectRelative(path, root);
    const ranges = wanted.get(name);
    if (!ranges) continue;
    for (const mutant of file.mutants) {
      if (mutant.status !== 'Killed' || typeof mutant.replacement !== 'string' || !overlaps(mutant, ranges)) continue;
      const original = originalOf(file.source, mutant);
      out.push({
        file: name,
        line: mutant.location.start.line,
        mutator: mutant.mutatorName,
        location: mutant.location,
        replacement: mutant.replacement,
        source: file.source,
        ...(original !== undefined ? { original } : {}),
        killed_by: (mutant.killedBy ?? []).map((id) => report.testNames.get(id) ?? id),
      });
    }
  }
  return out;
}
