import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXAMPLE_GUARDED } from '../../test/helpers/hosts.js';
import { parseRules } from './rule-schema.js';
import { validateInWorker, type ValidationRequest } from './validate-in-worker.js';

// The worker's program is the loop bundle; these stand-ins for it fail in each way a worker can, and the
// hook must get its answer at once (every rule not evaluated, so the loop does not pass), not at the deadline.
const dir = mkdtempSync(join(tmpdir(), 'loop-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bundle(name: string, source: string): string {
  const file = join(dir, name);
  writeFileSync(file, source);
  return file;
}

const request: ValidationRequest = {
  rules: parseRules([
    { type: 'file_exists', name: 'readme', path: 'README.md' },
    { type: 'command', name: 'tests', command: 'true' },
  ]),
  context: { root: dir, protect: EXAMPLE_GUARDED.protectedPaths(), agentOutput: '', loop: { id: 'L-0123456789', approvedByPerson: true } },
  deadline: Date.now() + 60_000,
};

describe('validateInWorker', () => {
  it.each([
    ['a bundle that throws as it loads', bundle('throws.cjs', "throw new Error('broken bundle');"), /the validation failed: broken bundle/],
    ['a bundle that is not there', join(dir, 'missing.cjs'), /the validation failed: Cannot find module/],
    [
      'a validation that rejects',
      bundle('rejects.cjs', "exports.validate = async () => { throw new Error('no rules today'); };"),
      /the validation failed: no rules today/,
    ],
    [
      'a throw outside the promise',
      bundle('later.cjs', "exports.validate = () => { setTimeout(() => { throw new Error('late'); }, 10); return new Promise(() => {}); };"),
      /the validation failed: late/,
    ],
    [
      'a validation left with nothing to wait for',
      bundle('silent.cjs', 'exports.validate = () => new Promise(() => {});'),
      /the validation failed: it ended without a report/,
    ],
  ])('%s: every rule not evaluated, at once', (_name, file, why) => {
    const started = Date.now();
    const report = validateInWorker(request, file);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(report).toMatchObject({ totalRules: 2, passedRules: 0, erroredRules: 2, overallPassed: false });
    for (const result of report.results) expect(result.message).toMatch(why);
  });

  it('a validation that outlives the deadline and its grace is given up on', () => {
    const report = validateInWorker(
      { ...request, deadline: Date.now() - 60_000 },
      bundle('hangs.cjs', 'exports.validate = () => new Promise(() => setInterval(() => {}, 1000));'),
    );
    for (const result of report.results) expect(result.message).toMatch(/not evaluated \(the validation did not report in time\)/);
  });

  it("passes the bundle's report through", () => {
    const report = validateInWorker(
      request,
      bundle(
        'passes.cjs',
        'exports.validate = async (rules) => ({ results: [], totalRules: rules.length, passedRules: rules.length, failedRules: 0, erroredRules: 0, overallPassed: true, score: 100 });',
      ),
    );
    expect(report).toMatchObject({ totalRules: 2, passedRules: 2, overallPassed: true });
  });
});
