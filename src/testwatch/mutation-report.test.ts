// The mutation-testing report reader, on a report Stryker wrote (test/fixtures/mutation/stryker-mocha.json,
// recorded by running Stryker 10 with its mocha runner on slug.js.txt) and on one written by hand to the
// schema as another producer would (absolute paths, Python, every status): both are checked against the
// schema's own JSON Schema first, so the reader is held to the format and not to one tool.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { describeSurvivor } from './mutation-survivor.js';
import { measureChanged, readMutationReport, type MutationReport } from './mutation-report.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/mutation');
const text = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');
const schema = createRequire(import.meta.url)('mutation-testing-report-schema/mutation-testing-report-schema.json') as object;

function report(name: string): MutationReport {
  const read = readMutationReport(text(name));
  if (!read.ok) throw new Error(read.why);
  return read.report;
}

describe('the fixtures are mutation-testing reports by the schema', () => {
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  it.each(['stryker-mocha.json', 'hand-made-python.json'])('%s validates', (name) => {
    expect(validate(JSON.parse(text(name))), JSON.stringify(validate.errors)).toBe(true);
  });
  it('and the schema would refuse a report with a status it does not know (the validator is not a yes-man)', () => {
    const broken = JSON.parse(text('hand-made-python.json')) as { files: Record<string, { mutants: { status: string }[] }> };
    Object.values(broken.files)[0]!.mutants[0]!.status = 'Dead';
    expect(validate(broken)).toBe(false);
  });
});

describe('measureChanged: the score of the changed lines', () => {
  it('Stryker, every line changed: killed over killed, survived, no coverage and ignored', () => {
    const measured = measureChanged(report('stryker-mocha.json'), [{ file: 'slug.js', ranges: [[1, 13]] }], '/tmp/strykerlab');
    expect(measured.counts).toEqual({ killed: 8, timeout: 0, survived: 9, no_coverage: 3, ignored: 1, pending: 0, invalid: 0 });
    expect(measured.mutants).toBe(21);
    // 8 of 21: the Ignored one counts as not caught (the library alone would say 8 of 20).
    expect(measured.score).toBe(38);
    expect(measured.survivors).toHaveLength(13);
    const ignored = measured.survivors.find((survivor) => survivor.status === 'Ignored')!;
    expect(describeSurvivor(ignored)).toMatch(/^slug\.js:12 \w+: .* \(ignored by the tool: the agent's own exemption; counts as not caught\)$/);
  });

  it('Stryker, only `same` changed: its four mutants survive, each naming the test that ran it', () => {
    const measured = measureChanged(report('stryker-mocha.json'), [{ file: 'slug.js', ranges: [[6, 6]] }], '/tmp/strykerlab');
    expect(measured.score).toBe(0);
    expect(measured.counts).toMatchObject({ killed: 0, survived: 4 });
    const lines = measured.survivors.map(describeSurvivor);
    expect(lines).toContain('slug.js:6 EqualityOperator: slug(a) === slug(b) → slug(a) !== slug(b) (covered by "slug compares", not caught)');
    expect(lines).toContain('slug.js:5 BlockStatement: { return slug(a) === slug(b); } → {} (covered by "slug compares", not caught)');
  });

  it.each([
    ['lines nobody changed', [{ file: 'slug.js', ranges: [[200, 300]] as [number, number][] }], null, 0],
    ['another file', [{ file: 'other.js', ranges: [[1, 13]] as [number, number][] }], null, 0],
    ['the body of slug: 7 of 12 caught', [{ file: 'slug.js', ranges: [[2, 3]] as [number, number][] }], 58.3, 5],
    ['the export line: caught', [{ file: 'slug.js', ranges: [[13, 13]] as [number, number][] }], 100, 0],
    [
      'a mutant whose location spans the changed line counts (the block of `shout`, lines 8-10)',
      [{ file: 'slug.js', ranges: [[10, 10]] as [number, number][] }],
      0,
      1,
    ],
  ])('%s', (_what, changed, score, survivors) => {
    const measured = measureChanged(report('stryker-mocha.json'), changed, '/tmp/strykerlab');
    expect(measured.score).toBe(score);
    expect(measured.survivors).toHaveLength(survivors);
  });

  it('a second producer: absolute paths, Timeout caught, CompileError and RuntimeError not counted, Pending and Ignored not caught', () => {
    const measured = measureChanged(report('hand-made-python.json'), [{ file: 'shop/prices.py', ranges: [[1, 9]] }], '/project');
    expect(measured.counts).toEqual({ killed: 1, timeout: 1, survived: 1, no_coverage: 1, ignored: 1, pending: 1, invalid: 2 });
    expect(measured.score).toBe(33.3);
    expect(measured.survivors.map(describeSurvivor)).toEqual([
      'shop/prices.py:2 MethodCall: sum(prices) → max(prices) (never tested: the run stopped first)',
      'shop/prices.py:3 EqualityOperator: discount > 0 → discount >= 0 (covered by "test_total_with_discount", "test_total_without_discount", not caught)',
      'shop/prices.py:5 BlockStatement: return subtotal → pass (no test runs this code)',
      'shop/prices.py:9 StringLiteral: f"{amount:.2f} EUR" → "" (ignored by the tool: pragma: no mutate; counts as not caught)',
    ]);
  });

  it('only the changed line 3: the Timeout caught, the survivor not', () => {
    const measured = measureChanged(report('hand-made-python.json'), [{ file: 'shop/prices.py', ranges: [[3, 3]] }], '/project');
    expect(measured.score).toBe(50);
    expect(measured.survivors.map((survivor) => survivor.line)).toEqual([3]);
  });

  it('a mutant that did not compile counts neither way', () => {
    const measured = measureChanged(report('hand-made-python.json'), [{ file: 'shop/prices.py', ranges: [[4, 4]] }], '/project');
    expect(measured).toMatchObject({ score: 100, mutants: 2 });
    expect(measured.counts).toMatchObject({ killed: 1, invalid: 1 });
  });

  it('only mutants that do not count: no score', () => {
    const json = JSON.parse(text('hand-made-python.json')) as { files: Record<string, { mutants: { id: string; status: string }[] }> };
    for (const mutant of Object.values(json.files)[0]!.mutants) if (mutant.id === 'm8') mutant.status = 'CompileError';
    const read = readMutationReport(JSON.stringify(json));
    const measured = measureChanged(read.ok ? read.report : report('none'), [{ file: 'shop/prices.py', ranges: [[2, 2]] }], '/project');
    expect(measured).toMatchObject({ score: null, mutants: 2, survivors: [] });
    expect(measured.counts.invalid).toBe(2);
  });
});

describe('readMutationReport refuses what is not the shape', () => {
  const good = (): Record<string, any> => JSON.parse(text('hand-made-python.json')) as Record<string, any>;
  const mutant = (report: Record<string, any>): Record<string, any> => Object.values<any>(report['files'])[0].mutants[0];
  it.each<[string, (r: Record<string, any>) => unknown, RegExp]>([
    ['not JSON', () => '{"files":', /not JSON/],
    ['a list', () => [], /not a JSON object/],
    ['no schemaVersion', (r) => ({ ...r, schemaVersion: undefined }), /schemaVersion is null/],
    ['schema version 2', (r) => ({ ...r, schemaVersion: '2.0' }), /schemaVersion is "2.0"/],
    ['no files', (r) => ({ ...r, files: undefined }), /no "files" object/],
    ['a file without its source', (r) => ((Object.values<any>(r['files'])[0].source = undefined), r), /no language, source and list of mutants/],
    ['a status the schema does not have', (r) => ((mutant(r)['status'] = 'Dead'), r), /status "Dead" is not one of the schema's/],
    ['a mutant without a location', (r) => ((mutant(r)['location'] = { start: { line: 3 } }), r), /no location/],
    ['coveredBy not a list', (r) => ((mutant(r)['coveredBy'] = 't1'), r), /coveredBy is not a list of test ids/],
  ])('%s', (_what, make, why) => {
    const value = make(good());
    const read = readMutationReport(typeof value === 'string' ? value : JSON.stringify(value));
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.why).toMatch(why);
  });

  it('and takes fields it does not know', () => {
    expect(readMutationReport(text('hand-made-python.json')).ok).toBe(true);
  });
});
