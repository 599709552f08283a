// The gate's own test run, with real child processes in real project folders: what it records for a pass,
// a failure, a run that counts nothing, one that times out (with the processes it started), and where a
// coverage figure may come from.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gateIsolation } from '../../src/hosts/index.js';
import { describe, expect, test } from 'vitest';
import { probeOsSandbox } from '../../src/sandbox/os-sandbox.js';
import { runGateTests } from '../../src/verify/gate-run.js';
import type { TestingConfig } from '../../src/config/testing-config.js';
import { initedProject, tempDir } from '../helpers/project.js';

const ISOLATION = gateIsolation();
const NO_SANDBOX = { ok: false as const, why: 'not used in this test' };

const PASSING = `const test = require('node:test');
test('adds', () => {});
test('subtracts', () => {});
`;
const FAILING = `const test = require('node:test');
const assert = require('node:assert');
test('adds', () => assert.strictEqual(1 + 1, 3));
test('subtracts', () => {});
`;

function project(files: Record<string, string>): string {
  const dir = tempDir('isdlc-gate-run-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const testing = (over: Partial<TestingConfig> = {}): TestingConfig => ({ command: 'node --test', timeout_minutes: 1, require_counts: true, ...over });

describe("the gate's own run", () => {
  test('a passing suite: passed, with its counts, duration and a digest of all it printed', async () => {
    const dir = project({ 'a.test.js': PASSING });
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing(),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.result).toBe('passed');
    expect(run.counts).toMatchObject({ executed: 2, passed: 2, failed: 0 });
    expect(run.output_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(run.output_bytes).toBeGreaterThan(0);
    expect(run.duration_ms).toBeGreaterThan(0);
    expect(run.sandboxed).toBe(false);
    expect(run.unsandboxed_because).toBe('not used in this test');
  });

  test('a failing suite: failed, naming what failed', async () => {
    const dir = project({ 'a.test.js': FAILING });
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing(),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.result).toBe('failed');
    expect(run.exit_code).not.toBe(0);
    expect(run.counts).toMatchObject({ executed: 2, passed: 1, failed: 1 });
    expect(run.excerpt).toContain('adds');
  });

  test('a command that exits 0 and counts nothing is no pass; with require_counts off the exit status is enough', async () => {
    const dir = project({});
    const strict = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ command: 'exit 0' }),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(strict.result).toBe('inconclusive');
    expect(strict.basis).toContain('names no test count');
    const lax = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ command: 'exit 0', require_counts: false }),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(lax.result).toBe('passed');
  });

  test('all tests skipped: no pass', async () => {
    const dir = project({ 'a.test.js': "const test = require('node:test');\ntest.skip('adds', () => {});\n" });
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing(),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.result).not.toBe('passed');
  });

  test('a run past its timeout is stopped with everything it started, and proves nothing', async () => {
    const dir = project({});
    const marker = join(dir, 'still-running');
    // A background child would write the marker after 3 s; the limit of 0.02 min (1.2 s) stops the whole group first.
    const command = `(sleep 3 && touch ${marker}) & sleep 30`;
    const started = Date.now();
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: { ...testing({ command }), timeout_minutes: 0.02 },
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.result).toBe('inconclusive');
    expect(run.timed_out).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(existsSync(marker)).toBe(false);
  });

  test('coverage: from the coverage command when the phase wants it, read from a report written during the run', async () => {
    const dir = project({ 'a.test.js': PASSING });
    const report = join(dir, 'coverage-summary.json');
    const write = `node -e "require('fs').writeFileSync('${report}', JSON.stringify({ total: { lines: { total: 10, covered: 9, pct: 90 } } }))"`;
    const config = testing({ coverage_command: `node --test && ${write}`, coverage_report: 'coverage-summary.json' });
    const run = await runGateTests({ root: dir, phase: '06-implementation', testing: config, wantCoverage: true, isolation: ISOLATION, sandbox: NO_SANDBOX });
    expect(run.for_coverage).toBe(true);
    expect(run.result).toBe('passed');
    expect(run.coverage).toEqual({ percent: 90, from: 'coverage-summary.json' });
    expect(JSON.parse(readFileSync(report, 'utf8')).total.lines.pct).toBe(90);
  });

  test("a coverage report older than the run is an earlier run's, not this one's", async () => {
    const dir = project({ 'a.test.js': PASSING });
    writeFileSync(join(dir, 'coverage.out'), 'mode: set\na.go:1.1,2.2 3 1\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'coverage.out'), old, old);
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing(),
      wantCoverage: true,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.coverage).toBeUndefined();
  });

  test('a report dated after the run was planted, not written by it', async () => {
    const dir = project({ 'a.test.js': PASSING });
    writeFileSync(join(dir, 'coverage.out'), 'mode: set\na.go:1.1,2.2 3 1\n');
    const future = new Date(Date.now() + 86_400_000);
    utimesSync(join(dir, 'coverage.out'), future, future);
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing(),
      wantCoverage: true,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.coverage).toBeUndefined();
  });

  test("the coverage tool's printed figure wins over a report a test wrote in the usual place", async () => {
    const dir = project({
      'a.test.js': `${PASSING}test('plants', () => { require('fs').mkdirSync('coverage', { recursive: true }); require('fs').writeFileSync('coverage/coverage-summary.json', JSON.stringify({ total: { lines: { total: 1, covered: 1, pct: 100 } } })); });\n`,
    });
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ coverage_command: 'node --test && echo "All files |   42.5 |   50 |   50 |   42.5 |"' }),
      wantCoverage: true,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.coverage).toEqual({ percent: 42.5, from: "the run's output" });
  });

  test('a Go cover profile written during the run gives the figure', async () => {
    const dir = project({ 'a.test.js': PASSING });
    const profile = 'mode: set\\nx.go:1.1,2.2 3 1\\nx.go:3.1,4.2 1 0\\n';
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ command: `node --test && printf '${profile}' > coverage.out` }),
      wantCoverage: true,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.coverage).toEqual({ percent: 75, from: 'coverage.out' });
  });

  test("the caller's environment does not reach the run: a PATH through the project and NODE_OPTIONS are left out", async () => {
    const dir = project({
      'a.test.js': FAILING,
      'tools/node': '#!/bin/sh\necho "# tests 2"; echo "# pass 2"; echo "# fail 0"\n',
      'noop.js': "require('node:assert').strictEqual = () => {};\n",
    });
    chmodSync(join(dir, 'tools/node'), 0o755);
    const saved = { PATH: process.env['PATH'], NODE_OPTIONS: process.env['NODE_OPTIONS'] };
    process.env['PATH'] = `${join(dir, 'tools')}:${saved.PATH}`;
    process.env['NODE_OPTIONS'] = `--require ${join(dir, 'noop.js')}`;
    try {
      const run = await runGateTests({
        root: dir,
        phase: '06-implementation',
        testing: testing(),
        wantCoverage: false,
        isolation: ISOLATION,
        sandbox: NO_SANDBOX,
      });
      expect(run.result).toBe('failed');
      expect(run.counts).toMatchObject({ passed: 1, failed: 1 });
    } finally {
      process.env['PATH'] = saved.PATH;
      if (saved.NODE_OPTIONS === undefined) delete process.env['NODE_OPTIONS'];
      else process.env['NODE_OPTIONS'] = saved.NODE_OPTIONS;
    }
  });

  test('a script shell named in an npmrc does not run the suite: the system shell does', async () => {
    const dir = project({
      'a.test.js': FAILING,
      'package.json': '{"name":"shop","version":"1.0.0","scripts":{"test":"node --test"}}\n',
      '.npmrc': 'script-shell=./fake-shell.sh\n',
      'fake-shell.sh': '#!/bin/sh\necho "# tests 2"; echo "# pass 2"; echo "# fail 0"\n',
    });
    chmodSync(join(dir, 'fake-shell.sh'), 0o755);
    // The plant works where nothing overrides it.
    const plain = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8' });
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain('# pass 2');
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ command: 'npm test' }),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.result).toBe('failed');
    expect(run.counts).toMatchObject({ passed: 1, failed: 1 });
  });

  test.each([
    ['node_modules/.bin/node', 'node --test', "would run instead of the system's node"],
    ['pytest.py', 'python3 -m pytest', 'pytest.py in the project would be imported instead of the installed pytest'],
  ])('a program of the project shadowing the real one (%s) stops the run', async (file, command, said) => {
    const dir = project({ 'a.test.js': PASSING });
    mkdirSync(join(dir, dirname(file)), { recursive: true });
    writeFileSync(join(dir, file), '#!/bin/sh\nexit 0\n');
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ command }),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.result).toBe('inconclusive');
    expect(run.basis).toContain(said);
    expect(run.output_bytes).toBe(0);
  });

  test("two runners' summaries in one output prove nothing", async () => {
    const dir = project({ 'a.test.js': PASSING });
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ command: 'node --test && echo "Tests:       7 passed, 7 total"' }),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.result).toBe('inconclusive');
    expect(run.basis).toMatch(/summaries of (?:jest and node-test|node-test and jest)/);
  });

  test('a program that is not there: inconclusive, saying so', async () => {
    const dir = project({});
    const run = await runGateTests({
      root: dir,
      phase: '06-implementation',
      testing: testing({ command: 'no-such-runner-xyz' }),
      wantCoverage: false,
      isolation: ISOLATION,
      sandbox: NO_SANDBOX,
    });
    expect(run.result).not.toBe('passed');
  });
});

describe.skipIf(!probeOsSandbox().ok || process.platform !== 'linux')("the gate's run in the OS sandbox", () => {
  test("runs the suite with isdlc's files read-only: a test that rewrites state fails, and the state is as it was", async () => {
    const dir = initedProject('isdlc-gate-run-sandboxed-');
    const before = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    writeFileSync(
      join(dir, 'a.test.js'),
      `const test = require('node:test');\ntest('passes', () => {});\ntest('forges', () => require('fs').writeFileSync('.isdlc/state.json', '{"forged":true}'));\n`,
    );
    const run = await runGateTests({ root: dir, phase: '06-implementation', testing: testing(), wantCoverage: false, isolation: ISOLATION });
    expect(run.sandboxed).toBe(true);
    expect(run.result).toBe('failed');
    expect(run.counts).toMatchObject({ passed: 1, failed: 1 });
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(before);
  });
});
