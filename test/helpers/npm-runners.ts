// Test runners installed from the npm registry, once per machine: a project the tests make links the
// packages of its node_modules to the cached install, so a suite that runs uvu, node-tap or AVA for real costs an install
// the first time only. The cache is outside the repository (`npm ci` would delete it from node_modules).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { initedProject, writeFile, writeJson } from './project.js';
import { compliant, delegated, testRecord, withConstitution, withTests, workflowState } from './states.js';

const CACHE = join(process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'isdlc', 'test-runners');
const LOCK_STALE_MS = 5 * 60_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** `name@version` installed in a folder of its own; returns its node_modules. Workers wait on one lock folder. */
export function installedRunner(spec: string): string {
  const dir = join(CACHE, spec.replace(/[^\w.@-]/g, '_'));
  const modules = join(dir, 'node_modules');
  const done = join(dir, '.installed');
  if (existsSync(done)) return modules;
  mkdirSync(CACHE, { recursive: true });
  const lock = `${dir}.lock`;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(done)) return modules;
      try {
        if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile: try again
      }
      sleep(500);
    }
  }
  try {
    if (existsSync(done)) return modules;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'isdlc-test-runner', version: '1.0.0', private: true })}\n`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', spec], { cwd: dir, stdio: 'pipe', timeout: 240_000 });
    writeFileSync(done, `${spec}\n`);
    return modules;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * `project/node_modules` holding a link to each package of the cached install of `spec`. The folder itself
 * is the project's: a runner writes its cache there (AVA's node_modules/.cache), as in any project, and the
 * gate's sandbox lets it, while the cached install stays read-only to the run.
 */
export function linkRunner(project: string, spec: string): void {
  const cached = installedRunner(spec);
  const modules = join(project, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(cached)) {
    if (entry === '.cache' || entry === '.package-lock.json') continue;
    symlinkSync(join(cached, entry), join(modules, entry), 'dir');
  }
}

const IMPL = '06-implementation';
const IMPL_ARTICLES = ['I', 'II', 'III', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

/**
 * A project isdlc set up, in a feature workflow's 06-implementation with every requirement but the gate's own
 * run met: `npm test` runs `script` with the runner `spec` linked from the cache, `files` written. No coverage
 * figure is asked (gate-complete.test.ts shows that requirement).
 */
export function implementationWithRunner(prefix: string, input: { script: string; spec: string; files: Record<string, string> }): string {
  const dir = initedProject(prefix);
  writeJson(join(dir, 'package.json'), { name: 'project', version: '1.0.0', private: true, scripts: { test: input.script } });
  linkRunner(dir, input.spec);
  for (const [rel, text] of Object.entries(input.files)) writeFile(join(dir, rel), text);
  writeJson(join(dir, '.isdlc/config/testing.json'), { command: 'npm test', timeout_minutes: 3, require_counts: true });
  writeJson(join(dir, '.isdlc/config/iteration-requirements.json'), {
    phase_requirements: { [IMPL]: { test_iteration: { enabled: true, success_criteria: { min_coverage_percent: null } } } },
  });
  const state = withTests(workflowState('feature', IMPL), IMPL, testRecord('passed', 1));
  withConstitution(state, IMPL, compliant(IMPL_ARTICLES));
  writeJson(join(dir, '.isdlc/state.json'), delegated(state, 'software-developer', IMPL));
  return dir;
}
