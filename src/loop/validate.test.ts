import { EXAMPLE_GUARDED } from '../../test/helpers/hosts.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRules } from './rule-schema.js';
import type { Rule, ValidationContext } from './types.js';
import { validate } from './validate.js';

const PROTECT = EXAMPLE_GUARDED.protectedPaths();

describe('validate', () => {
  let ctx: ValidationContext;
  beforeAll(() => {
    const root = mkdtempSync(join(tmpdir(), 'loop-validate-'));
    writeFileSync(join(root, 'README.md'), 'hello\n');
    // A loop's project has .isdlc/; a person's approval lets the commands run where no sandbox can.
    mkdirSync(join(root, '.isdlc'));
    ctx = { root, protect: PROTECT, agentOutput: 'All done. <promise>COMPLETE</promise>', loop: { id: 'L-0123456789', approvedByPerson: true } };
  });
  afterAll(() => rmSync(ctx.root, { recursive: true, force: true }));

  const pass = { type: 'file_exists', name: 'readme', path: 'README.md' };
  const fail = { type: 'file_exists', name: 'changelog', path: 'CHANGELOG.md' };
  const error = { type: 'content_pattern', name: 'notes', pattern: 'x', target: 'NOTES.md' };
  const off = { type: 'file_exists', name: 'off', path: 'CHANGELOG.md', enabled: false };

  const rows: { name: string; rules: unknown[]; counts: [number, number, number, number]; overallPassed: boolean; score: number }[] = [
    { name: 'no rules: passed, 100', rules: [], counts: [0, 0, 0, 0], overallPassed: true, score: 100 },
    { name: 'only disabled rules: nothing counted', rules: [off], counts: [0, 0, 0, 0], overallPassed: true, score: 100 },
    {
      name: 'all pass',
      rules: [pass, { type: 'content_pattern', name: 'promise', pattern: '<promise>COMPLETE</promise>' }],
      counts: [2, 2, 0, 0],
      overallPassed: true,
      score: 100,
    },
    { name: 'one fails', rules: [pass, fail], counts: [2, 1, 1, 0], overallPassed: false, score: 50 },
    { name: 'one errors', rules: [pass, error], counts: [2, 1, 0, 1], overallPassed: false, score: 0 },
    { name: 'a disabled rule is skipped, not counted', rules: [pass, off, fail, error], counts: [3, 1, 1, 1], overallPassed: false, score: 0 },
    {
      name: 'a command rule among them',
      rules: [pass, { type: 'command', name: 'sh', command: 'exit 0' }],
      counts: [2, 2, 0, 0],
      overallPassed: true,
      score: 100,
    },
  ];
  it.each(rows)('$name', async ({ rules, counts, overallPassed, score }) => {
    const report = await validate(parseRules(rules), ctx);
    const [totalRules, passedRules, failedRules, erroredRules] = counts;
    expect(report).toMatchObject({ totalRules, passedRules, failedRules, erroredRules, overallPassed, score });
    expect(report.results).toHaveLength(totalRules);
    expect(report.results.map((result) => result.name)).toEqual(
      parseRules(rules)
        .filter((rule) => rule.enabled)
        .map((rule) => rule.name),
    );
    for (const result of report.results) expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("one rule's crash is an errored result for that rule; the others still run", async () => {
    const broken = { type: 'nonsense', name: 'broken', enabled: true } as unknown as Rule;
    const report = await validate([broken, ...parseRules([pass])], ctx);
    expect(report.results[0]).toMatchObject({ name: 'broken', passed: false, errored: true });
    expect(report.results[0]?.message).toMatch(/^broken: the rule could not be evaluated: unknown rule type "nonsense"$/);
    expect(report.results[1]).toMatchObject({ name: 'readme', passed: true });
    expect(report).toMatchObject({ totalRules: 2, passedRules: 1, erroredRules: 1, overallPassed: false });
  });

  it('rules run one after another, in order', async () => {
    const rules = parseRules([
      { type: 'command', name: 'first', command: 'sleep 0.3; echo 1 > order.txt' },
      { type: 'command', name: 'second', command: 'echo 2 >> order.txt' },
      { type: 'content_pattern', name: 'order', pattern: '^1\\n2\\n$', target: 'order.txt' },
    ]);
    const report = await validate(rules, ctx);
    expect(report.results.map((result) => result.passed)).toEqual([true, true, true]);
  });

  it('after the deadline, the remaining rules are errored without running', async () => {
    const report = await validate(parseRules([pass, fail]), ctx, { deadline: Date.now() - 1 });
    expect(report.results.map((result) => result.message)).toEqual([
      'readme: not run: the validation deadline had passed',
      'changelog: not run: the validation deadline had passed',
    ]);
    expect(report).toMatchObject({ totalRules: 2, erroredRules: 2, overallPassed: false, score: 0 });
  });
});
