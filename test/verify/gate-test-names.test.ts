// Tests are tracked by name, not only counted. In a real project with Mocha from the npm registry, the
// agent's honest failing run is observed by the real hook; the agent then marks the failing test pending
// and adds a trivial one, so the count stays. `isdlc phase complete` (the built CLI, the gate's own run)
// refuses, naming the test; a person's `isdlc tests accept` lets it complete. The control: with a reporter
// that names no test, the count floor alone lets the same change through.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { implementationWithRunner } from '../helpers/npm-runners.js';
import { bashCall, bashFailed, bashPassed } from '../helpers/payloads.js';
import { cli, decisionOf, git, hookProcess, readJson, writeFile } from '../helpers/project.js';

type State = Record<string, any>;
const IMPL = '06-implementation';
const MOCHA = 'mocha@11.8.0';

const SLUG = "exports.slug = (text) => text.replace(/[^A-Za-z0-9]+/g, '-');\n";
const HONEST = [
  "const assert = require('node:assert');",
  "const { slug } = require('../slug.js');",
  "describe('slug', () => {",
  "  it('keeps digits', () => assert.strictEqual(slug('a1 b2'), 'a1-b2'));",
  "  it('lowercases', () => assert.strictEqual(slug('AB'), 'ab'));",
  '});',
  '',
].join('\n');
// The failing test marked pending (Mocha's todo: a test with no function) and a trivial one added: 2 run, as before.
const DODGED = HONEST.replace(
  "  it('lowercases', () => assert.strictEqual(slug('AB'), 'ab'));",
  "  it('lowercases');\n  it('is a function', () => assert.ok(slug));",
);

function project(script: string): string {
  const dir = implementationWithRunner('isdlc-gate-names-', {
    script,
    spec: MOCHA,
    files: { 'slug.js': SLUG, 'test/slug.test.js': HONEST, '.gitignore': 'node_modules\n' },
  });
  git(dir, 'init', '-q');
  return dir;
}

/** The agent runs `npm test` in its shell; the real hook sees the failing run as Claude Code reports it. */
function agentRunsTests(dir: string, env: Record<string, string> = {}): string {
  const run = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
  const output = `${run.stdout}${run.stderr}`;
  expect(run.status, output).not.toBe(0);
  const observed = hookProcess(dir, bashFailed(dir, 'npm test', run.status!, output));
  expect(observed.status, observed.stderr).toBe(0);
  expect(decisionOf(observed).context ?? '').toContain('the tests failed');
  return output;
}

/** The agent's run passes (its change made it so): observed as Claude Code reports a command that exited 0. */
function agentRunsPassingTests(dir: string, env: Record<string, string> = {}): void {
  const run = spawnSync('npm', ['test'], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  const observed = hookProcess(dir, bashPassed(dir, 'npm test', run.stdout, run.stderr));
  expect(decisionOf(observed).context ?? '').toContain('the tests passed');
}

const stateOf = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));

describe('tests tracked by name at the gate', () => {
  it('a failing test made pending while a trivial one keeps the count: refused naming it, until a person accepts', { timeout: 300_000 }, () => {
    const dir = project('mocha');
    expect(agentRunsTests(dir)).toContain('1 failing');
    const record = readJson<State>(join(dir, '.isdlc/test-names.json'));
    expect(record['tests']['mocha']).toMatchObject({ 'slug > keeps digits': [[1, 'passed']], 'slug > lowercases': [[1, 'failed']] });
    expect(record['runs'][0]).toMatchObject({ by: 'observed', runner: 'mocha', command: 'npm test', named: 2, tree: expect.stringMatching(/^[0-9a-f]{64}$/) });

    writeFile(join(dir, 'test/slug.test.js'), DODGED);
    agentRunsPassingTests(dir);
    // The agent's edit of the record is caught: the gate stays closed, and the next hook call puts it back.
    const kept = readFileSync(join(dir, '.isdlc/test-names.json'), 'utf8');
    writeFileSync(join(dir, '.isdlc/test-names.json'), '{}\n');
    const tampered = cli(['phase', 'complete', '--dir', dir]);
    expect(tampered.status).not.toBe(0);
    expect(tampered.stderr).toContain('.isdlc/test-names.json (modified)');
    hookProcess(dir, bashCall(dir, 'ls'));
    expect(readFileSync(join(dir, '.isdlc/test-names.json'), 'utf8')).toBe(kept);
    const refused = cli(['phase', 'complete', '--dir', dir]);
    expect(refused.status, refused.stderr).not.toBe(0);
    expect(refused.stderr).toContain('1 test seen earlier does not pass now: `slug > lowercases` failed at');
    expect(refused.stderr).toContain('is skipped now');
    expect(refused.stderr).toContain('isdlc tests accept');
    expect(stateOf(dir)['active_workflow']['phase_status'][IMPL]).toBe('in_progress');
    // The gate's run passed and ran as many tests as the agent's: the count floor alone would have let it through.
    expect(stateOf(dir)['active_workflow']['gate_runs'].at(-1)).toMatchObject({ result: 'passed', counts: { executed: 2, skipped: 1 } });

    const listed = cli(['tests', '--dir', dir]);
    expect(listed.stdout).toContain('`slug > lowercases`: failed at');
    expect(listed.stdout).toContain('skipped now');
    const byAgent = cli(['tests', 'accept', '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(byAgent.status).not.toBe(0);
    const accepted = cli(['tests', 'accept', '--dir', dir]);
    expect(accepted.status, accepted.stderr).toBe(0);
    expect(accepted.stdout).toContain('`slug > lowercases`');
    const after = readJson<State>(join(dir, '.isdlc/test-names.json'));
    expect(after['accepted'].at(-1)).toMatchObject({ runner: 'mocha', names: ['slug > lowercases'], by: expect.any(String) });

    const completed = cli(['phase', 'complete', '--dir', dir]);
    expect(completed.status, completed.stderr).toBe(0);
    expect(stateOf(dir)['active_workflow']['phase_status'][IMPL]).toBe('completed');
  });

  it('control: with a reporter that names no test, the count floor alone lets the same change through', { timeout: 300_000 }, () => {
    const dir = project('mocha --reporter dot');
    agentRunsTests(dir);
    writeFile(join(dir, 'test/slug.test.js'), DODGED);
    agentRunsPassingTests(dir);
    const gateCheck = cli(['gate', 'check', '--dir', dir]);
    expect(gateCheck.status, gateCheck.stderr).toBe(0);
    const completed = cli(['phase', 'complete', '--dir', dir]);
    expect(completed.status, completed.stderr).toBe(0);
    expect(stateOf(dir)['active_workflow']['gate_runs'].at(-1)).toMatchObject({ result: 'passed', counts: { executed: 2 } });
    expect(stateOf(dir)['active_workflow']['gate_runs'].at(-1)['names']).toBeUndefined();
  });

  it('a test that failed in a run of the agent and passes in the gate run on the same files is refused', { timeout: 300_000 }, () => {
    const dir = project('mocha');
    // The test looks at its environment: it fails in the agent's shell and passes in the gate's run.
    writeFile(join(dir, 'test/slug.test.js'), HONEST.replace("assert.strictEqual(slug('AB'), 'ab')", 'assert.ok(!process.env.AGENT_SHELL_MARK)'));
    agentRunsTests(dir, { AGENT_SHELL_MARK: '1' });
    // The agent's next run passes only because it leaves the mark out (`AGENT_SHELL_MARK= npm test`): same files.
    agentRunsPassingTests(dir, { AGENT_SHELL_MARK: '' });
    const refused = cli(['phase', 'complete', '--dir', dir]);
    expect(refused.status, refused.stderr).not.toBe(0);
    expect(refused.stderr).toContain("`slug > lowercases` failed in the agent's run at");
    expect(refused.stderr).toContain("passed in the gate's run on the same files");
    expect(refused.stderr).toContain('make the test assert the same wherever it runs');
    // Once the files change (the agent fixed something), the two runs are no longer comparable this way.
    writeFile(join(dir, 'slug.js'), `${SLUG}// fixed\n`);
    expect(cli(['phase', 'complete', '--dir', dir]).status).toBe(0);
    expect(readFileSync(join(dir, 'slug.js'), 'utf8')).toContain('fixed');
    execFileSync('git', ['-C', dir, 'status', '--short']);
  });
});
