// The gate's own test run happens on the packages the lockfile names. A real project with mocha, chai and c8
// from the npm registry, driven through the built CLI to 06-implementation: chai patched inside
// node_modules (no `git status` shows it) so that its assert never throws, with the code wrong. Without the
// check the phase completes on that (the control, a project with no lockfile); with it, `phase complete`
// refuses naming the package and the file, and `npm ci` puts it right. An `npm install` of a new package
// during the workflow is ordinary work and is not refused; a package put into node_modules by hand is, until
// a person accepts it.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activate, isdlc, satisfyGate, send, stateOf } from '../helpers/handshake.js';
import { bashPassed } from '../helpers/payloads.js';
import { cleanEnv, cli, tempDir, writeFile, writePlan } from '../helpers/project.js';

const IMPL = '06-implementation';
const BEFORE_IMPL = ['01-requirements', '02-tracing', '05-test-strategy'];
const NPM_QUIET = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
const RIGHT = 'module.exports = (text) => text.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");\n';
const WRONG = 'module.exports = (text) => text;\n';
const TEST = `const { assert } = require('chai');\nconst slug = require('../slug');\ndescribe('slug', () => {\n  it('joins words', () => assert.strictEqual(slug(' Hello World '), 'hello-world'));\n  it('drops symbols', () => assert.strictEqual(slug('a&b'), 'a-b'));\n});\n`;
/** What an agent could append to chai: its assert never fails again. */
const NEVER_THROWS = '\nmodule.exports.assert.strictEqual = function () {};\n';

function sh(dir: string, line: string): string {
  const run = spawnSync('sh', ['-c', line], { cwd: dir, encoding: 'utf8', env: cleanEnv(), timeout: 180_000 });
  expect(run.status, `${line}\n${run.stdout}${run.stderr}`).toBe(0);
  return run.stdout;
}

function git(dir: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.email=dev@example.com', '-c', 'user.name=dev', ...args], { cwd: dir, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

/** A small library with mocha, chai and c8 installed from the registry and committed (`lockfile: false`: installed without one). */
function project(options: { lockfile: boolean }): string {
  const dir = tempDir('isdlc-installed-packages-');
  writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'slug', version: '1.0.0', private: true, scripts: { test: 'mocha' } }, null, 2)}\n`);
  writeFile(join(dir, 'slug.js'), RIGHT);
  writeFile(join(dir, 'test/slug.test.js'), TEST);
  writeFile(join(dir, '.gitignore'), 'node_modules/\ncoverage/\n');
  sh(dir, `npm install --save-dev mocha@10.8.2 chai@4.5.0 c8@10.1.3 ${NPM_QUIET.join(' ')}${options.lockfile ? '' : ' --no-package-lock'}`);
  spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'the library');
  const init = cli(['init', dir]);
  expect(init.status, init.stderr).toBe(0);
  return dir;
}

/** The fix workflow up to its implementation phase, each earlier gate met the way an agent meets it. */
function reachImplementation(dir: string): string {
  writePlan(dir);
  const started = cli(['workflow', 'start', 'fix', '--description', 'slug keeps digits'], { cwd: dir });
  expect(started.status, started.stderr).toBe(0);
  for (const [index, phase] of BEFORE_IMPL.entries()) {
    if (index > 0) activate(dir);
    satisfyGate(dir, phase, { type: 'fix' });
    isdlc(dir, ['phase', 'complete', '--summary', `${phase} done`]);
  }
  activate(dir);
  expect(stateOf(dir)['active_workflow'].current_phase).toBe(IMPL);
  return started.stdout;
}

/** The agent's own run of the suite, as its hooks see it: the real output of `npm test`. */
function agentRunsTests(dir: string): string {
  const run = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8', env: cleanEnv() });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  send(dir, bashPassed(dir, 'npm test', run.stdout, run.stderr));
  return run.stdout;
}

const phaseComplete = (dir: string) => cli(['phase', 'complete', '--summary', 'slug keeps digits'], { cwd: dir });
const gateRuns = (dir: string): unknown[] => stateOf(dir)['active_workflow']['gate_runs'] ?? [];

describe('the tests run on the packages the lockfile names', () => {
  it('control: with no lockfile nothing is recorded, and a chai that never throws completes 06 on wrong code', () => {
    const dir = project({ lockfile: false });
    reachImplementation(dir);
    expect(existsSync(join(dir, '.isdlc/dependencies.json'))).toBe(false);
    writeFile(join(dir, 'slug.js'), WRONG);
    appendFileSync(join(dir, 'node_modules/chai/index.js'), NEVER_THROWS);
    expect(agentRunsTests(dir)).toContain('2 passing');
    satisfyGate(dir, IMPL, { type: 'fix' });
    const gate = cli(['gate', 'check'], { cwd: dir });
    expect(gate.stdout).toContain('dependencies_verified: the project has no npm lockfile: its installed packages are not verified');
    const completed = phaseComplete(dir);
    expect(completed.status, completed.stderr).toBe(0);
    expect(stateOf(dir)['active_workflow']['phase_status'][IMPL]).toBe('completed');
  });

  it('a patched chai is refused by name and file; `npm ci` restores it; then the wrong code fails and the right code completes', () => {
    const dir = project({ lockfile: true });
    reachImplementation(dir);
    const record = JSON.parse(readFileSync(join(dir, '.isdlc/dependencies.json'), 'utf8')) as { packages: Record<string, { name: string }> };
    expect(record.packages['node_modules/chai']).toMatchObject({ name: 'chai' });
    agentRunsTests(dir);
    satisfyGate(dir, IMPL, { type: 'fix' });

    writeFile(join(dir, 'slug.js'), WRONG);
    appendFileSync(join(dir, 'node_modules/chai/index.js'), NEVER_THROWS);
    expect(spawnSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' }).stdout, 'git shows no change to chai').not.toContain('node_modules');
    expect(agentRunsTests(dir), 'the patched chai passes the wrong code').toContain('2 passing');

    const gate = cli(['gate', 'check'], { cwd: dir });
    expect(gate.status).toBe(1);
    expect(gate.stdout).toMatch(
      /dependencies_verified: 1 installed package is not what package-lock\.json installs: node_modules\/chai: 1 file differs from what was installed when the workflow started \(\d\d:\d\d UTC\) \(index\.js\)/,
    );
    const refusal = phaseComplete(dir);
    expect(refusal.status).toBe(1);
    expect(refusal.stderr).toContain('node_modules/chai: 1 file differs from what was installed when the workflow started');
    expect(refusal.stderr).toContain('(index.js)');
    expect(refusal.stderr).toContain('`npm ci` reinstalls from the lockfile');
    expect(gateRuns(dir), 'nothing ran on the patched package').toEqual([]);
    expect(stateOf(dir)['active_workflow']['phase_status'][IMPL]).toBe('in_progress');

    sh(dir, `npm ci ${NPM_QUIET.join(' ')}`);
    const failing = phaseComplete(dir);
    expect(failing.status, 'chai as installed fails the wrong code').toBe(1);
    expect(failing.stderr).toContain('verified_test_run');
    expect(failing.stderr).not.toContain('dependencies_verified');

    writeFile(join(dir, 'slug.js'), RIGHT);
    agentRunsTests(dir);
    const completed = phaseComplete(dir);
    expect(completed.status, completed.stderr).toBe(0);
    expect(stateOf(dir)['active_workflow']['phase_status'][IMPL]).toBe('completed');
  });

  it('an `npm install` of a new package is ordinary work; a package put into node_modules by hand waits for a person', () => {
    const dir = project({ lockfile: true });
    reachImplementation(dir);
    agentRunsTests(dir);
    satisfyGate(dir, IMPL, { type: 'fix' });

    // Copied in by hand: no lockfile names it, and the runner would resolve it.
    cpSync(join(dir, 'node_modules/chai'), join(dir, 'node_modules/chai-extra'), { recursive: true });
    const refusal = phaseComplete(dir);
    expect(refusal.status).toBe(1);
    expect(refusal.stderr).toContain('node_modules/chai-extra: installed, and package-lock.json does not name it');
    const listed = cli(['tests'], { cwd: dir });
    expect(listed.stdout).toContain('node_modules/chai-extra: installed, and package-lock.json does not name it');
    expect(cli(['tests', 'accept'], { cwd: dir, env: { CLAUDECODE: '1' } }).status, "refused in the agent's shell").not.toBe(0);
    const accepted = cli(['tests', 'accept'], { cwd: dir });
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('node_modules/chai-extra');
    const record = JSON.parse(readFileSync(join(dir, '.isdlc/dependencies.json'), 'utf8')) as { accepted: { by: string; packages: string[] }[] };
    expect(record.accepted.at(-1)!.packages).toEqual([expect.stringContaining('node_modules/chai-extra')]);

    sh(dir, `npm install --save-dev is-odd@3.0.1 ${NPM_QUIET.join(' ')}`);
    const completed = phaseComplete(dir);
    expect(completed.status, completed.stderr).toBe(0);
    const after = JSON.parse(readFileSync(join(dir, '.isdlc/dependencies.json'), 'utf8')) as { recorded_because: string; packages: Record<string, unknown> };
    expect(after.recorded_because).toContain('node_modules/is-odd');
    expect(after.packages['node_modules/is-number']).toBeDefined();
  });
});
