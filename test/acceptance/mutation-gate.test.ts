// The mutation score of the workflow's changed code as gate evidence, on a real git project with Stryker and
// mocha installed from the npm registry: `isdlc phase complete` through the built CLI runs the tests, then
// mutates the lines the workflow changed and reads Stryker's report. A hollow test (it calls the new code and
// asserts nothing) passes the test run and is refused with the survivors named; honest tests complete the
// phase. Without Stryker the gate says the one install step before anything runs.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activate, complete, isdlc, noRequirements, refused, send } from '../helpers/handshake.js';
import { bashPassed } from '../helpers/payloads.js';
import { cleanEnv, cli, readJson, tempDir, writeFile, writeJson, writePlan } from '../helpers/project.js';

type State = Record<string, any>;
const IMPL = '06-implementation';
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
const STRYKER = ['@stryker-mutator/core@10.0.0', '@stryker-mutator/mocha-runner@10.0.0'];

function sh(dir: string, line: string): void {
  const run = spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: cleanEnv(), timeout: 240_000 });
  expect(run.status, `${line}\n${run.stdout}${run.stderr}`).toBe(0);
}

function git(dir: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=dev', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
}

const SLUG = [
  'function slug(text) {',
  '  const words = text.trim().toLowerCase().split(/[^a-z0-9]+/);',
  "  return words.filter((word) => word.length > 0).join('-');",
  '}',
  'module.exports = { slug };',
  '',
].join('\n');

/** What the workflow adds: `same`, on lines 5-7. */
const WITH_SAME = [
  'function slug(text) {',
  '  const words = text.trim().toLowerCase().split(/[^a-z0-9]+/);',
  "  return words.filter((word) => word.length > 0).join('-');",
  '}',
  'function same(a, b) {',
  '  return slug(a) === slug(b);',
  '}',
  'module.exports = { slug, same };',
  '',
].join('\n');

const testFile = (sameTest: string): string =>
  [
    "const assert = require('node:assert');",
    "const { slug, same } = require('../slug');",
    "describe('slug', () => {",
    "  it('joins words', () => assert.strictEqual(slug(' Hello World '), 'hello-world'));",
    `  it('compares', () => { ${sameTest} });`,
    '});',
    '',
  ].join('\n');

const HOLLOW = "same('a b', 'A-B'); assert.ok(true);";
const HONEST = "assert.strictEqual(same('a b', 'A-B'), true); assert.strictEqual(same('a', 'b'), false);";

/** A small library with its tests, committed; `packages` installed from the registry as a user installs them. */
function userProject(packages: readonly string[]): string {
  const dir = tempDir('isdlc-mutation-gate-');
  writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'slug', version: '1.0.0', private: true, scripts: { test: 'mocha' } }, null, 2)}\n`);
  writeFile(join(dir, 'slug.js'), SLUG);
  writeFile(join(dir, 'test/slug.test.js'), testFile("assert.strictEqual(slug('a'), 'a');"));
  writeFile(join(dir, '.gitignore'), 'node_modules/\nreports/\n.stryker-tmp/\n');
  sh(dir, `npm install --save-dev mocha@10.8.2 ${packages.join(' ')} ${NPM_QUIET.join(' ')}`);
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'the library');
  return dir;
}

/** init, then the project's requirements: only 06 requires anything, passing tests and a mutation score of 65%. */
function initWithScore(dir: string): string {
  const run = cli(['init', dir]);
  expect(run.status, run.stderr).toBe(0);
  const requirements = noRequirements();
  requirements['phase_requirements'][IMPL]['test_iteration'] = {
    ...requirements['phase_requirements'][IMPL]['test_iteration'],
    enabled: true,
    success_criteria: { min_coverage_percent: null, min_mutation_score: 65 },
  };
  writeJson(join(dir, '.isdlc/config/iteration-requirements.json'), requirements);
  return run.stdout + run.stderr;
}

/** The fix workflow up to its implementation phase; no earlier phase requires anything here. */
function reachImplementation(dir: string): void {
  writePlan(dir);
  isdlc(dir, ['workflow', 'start', 'fix', '--description', 'slugs compare']);
  for (;;) {
    const phase = stateOf(dir)['active_workflow'].current_phase;
    if (phase === IMPL) break;
    complete(dir, `${phase} done`);
    activate(dir);
  }
}

/** The agent's own run of the suite, as its hooks see it. */
function agentRunsTests(dir: string): void {
  const run = spawnSync('npx', ['mocha'], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  send(dir, bashPassed(dir, 'npm test', run.stdout, run.stderr));
}

const stateOf = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));
type GateJson = { open: boolean; checks: { requirement: string; met: boolean; detail: string; action?: string }[] };
const gateCheck = (dir: string): GateJson => JSON.parse(cli(['gate', 'check', '--json'], { cwd: dir }).stdout) as GateJson;
const mutationCheck = (dir: string) => gateCheck(dir).checks.find((check) => check.requirement === 'mutation_score');

describe('the mutation score of the changed code at the gate', () => {
  it('a hollow test passes the tests and is refused with the survivors named; honest tests complete the phase', { timeout: 300_000 }, () => {
    const dir = userProject(STRYKER);
    const said = initWithScore(dir);
    expect(said, 'Stryker is installed: nothing to advise').not.toContain('Mutation score:');
    expect(cli(['doctor', dir]).stdout).toMatch(/✓ mutation score for 06-implementation \(65%\): the gate mutates the changed code with `npx stryker run`/);

    reachImplementation(dir);
    const base = stateOf(dir)['active_workflow']['base_commit'];
    expect(base, 'workflow start records where the changes begin').toMatch(/^[0-9a-f]{40}$/);

    // The agent's change: a new function, and a test that runs it and checks nothing.
    writeFile(join(dir, 'slug.js'), WITH_SAME);
    writeFile(join(dir, 'test/slug.test.js'), testFile(HOLLOW));
    agentRunsTests(dir);
    const preview = mutationCheck(dir)!;
    expect(preview).toMatchObject({ met: true });
    expect(preview.detail).toBe('`isdlc phase complete` mutates the 4 changed lines in 1 file with `npx stryker run` and needs 65%');

    const started = Date.now();
    // Refused after the runs are recorded: the state holds them.
    const refusal = cli(['phase', 'complete', '--summary', 'same compares slugs'], { cwd: dir });
    const hollowSeconds = (Date.now() - started) / 1000;
    expect(refusal.status, refusal.stdout).toBe(1);
    const hollow = refusal.stderr;
    expect(hollow).toContain('mutation_score: the gate mutated 4 changed lines in 1 file');
    expect(hollow).toContain('below the 65% this phase requires');
    expect(hollow).toContain('slug.js:6 EqualityOperator: slug(a) === slug(b) → slug(a) !== slug(b) (covered by "slug compares", not caught)');
    expect(hollow).toContain('Next: write or strengthen tests that fail on these changes');
    const workflow = stateOf(dir)['active_workflow'];
    expect(workflow['gate_runs'].at(-1)).toMatchObject({ phase: IMPL, result: 'passed', counts: { passed: 2 } });
    const [first] = workflow['mutation_runs'];
    expect(first).toMatchObject({ phase: IMPL, result: 'measured', score: 20, threshold: 65, base_commit: base, changed: { files: 1, lines: 4 } });
    expect(first.command).toBe(
      'npx stryker run --mutate slug.js:5-8 --reporters json --testRunner mocha --incremental --incrementalFile reports/mutation/isdlc-incremental.json',
    );
    // Stryker's results kept in isdlc's own folder for the next run, written through the journal.
    const kept = readJson<State>(join(dir, '.isdlc/mutation/stryker-incremental.json'));
    expect(Object.keys(kept['files'])).toEqual(['slug.js']);
    // An incremental file the agent leaves for the next run is replaced by isdlc's copy before Stryker reads it.
    writeFile(join(dir, 'reports/mutation/isdlc-incremental.json'), JSON.stringify({ ...kept, files: {} }));
    expect(first.sandboxed, 'in the same sandbox as the test run').toBe(workflow['gate_runs'].at(-1).sandboxed);
    expect(first.survivors.every((survivor: State) => survivor.file === 'slug.js')).toBe(true);
    expect(workflow['phase_status'][IMPL]).toBe('in_progress');
    // gate check shows the last run's verdict until the next completion measures again.
    expect(mutationCheck(dir)).toMatchObject({ met: false, detail: expect.stringContaining('completing the phase mutates the changed code again') });

    writeFile(join(dir, 'test/slug.test.js'), testFile(HONEST));
    agentRunsTests(dir);
    const honest = cli(['phase', 'complete', '--summary', 'same compares slugs'], { cwd: dir });
    expect(honest.status, honest.stderr).toBe(0);
    const after = stateOf(dir)['active_workflow'];
    const last = after['mutation_runs'].at(-1);
    expect(last).toMatchObject({ result: 'measured', threshold: 65, survivors_total: 0 });
    expect(cli(['changes'], { cwd: dir }).stdout, "isdlc's kept file is no change of someone else's").not.toContain('mutation');
    expect(last.score).toBeGreaterThanOrEqual(65);
    expect(after['phase_status'][IMPL]).toBe('completed');
    const history: State[] = stateOf(dir)['history'];
    expect(history.map((line) => line['action']).join('\n')).toMatch(/Gate of 06-implementation mutated the changed code: score 100%/);
    console.log(
      `one Stryker run through phase complete (with the test run): ${hollowSeconds.toFixed(1)} s; mutation part ${(first.duration_ms / 1000).toFixed(1)} s`,
    );
  });

  it('without Stryker: init and doctor name the install step, and the gate refuses before running anything', { timeout: 300_000 }, () => {
    const dir = userProject([]);
    const said = initWithScore(dir);
    const step = 'npm install --save-dev @stryker-mutator/core @stryker-mutator/mocha-runner';
    // init spoke before the project's requirements were written: the bundled ones want a score in 16-quality-loop.
    expect(said).toContain(`Mutation score: the gates of 16-quality-loop (65%), for a standard-size workflow need a mutation score`);
    expect(said).toContain(`One step provides it: ${step}.`);
    expect(cli(['doctor', dir]).stdout).toContain(`fix: ${step}`);

    reachImplementation(dir);
    writeFile(join(dir, 'slug.js'), WITH_SAME);
    agentRunsTests(dir);
    expect(mutationCheck(dir)).toMatchObject({
      met: false,
      detail: expect.stringContaining('@stryker-mutator/core and @stryker-mutator/mocha-runner are not installed'),
      action: expect.stringContaining(step),
    });
    const refusal = refused(dir, ['phase', 'complete']);
    expect(refusal).toContain('mutation_score: the phase requires a mutation score of 65%');
    expect(stateOf(dir)['active_workflow']['gate_runs'] ?? [], 'nothing ran').toEqual([]);
  });
});
