// `npm run bench` (part): what the gate's own test run adds to `phase complete`, beyond the test command's
// own time. In-process, on projects `isdlc init` set up with a two-test node --test suite, a workflow in
// 06-implementation and every other requirement off:
//   (a) the test command alone, spawned and awaited (the floor)
//   (b) completing the phase with verify_at_gate: false (no run)
//   (c) completing it with the gate's run, in the OS sandbox where this machine has one (the gate asks the
//       machine, not the environment, so there is no switching it off here)
// The gate's cost is (c) − (b) − (a).
//
//   node bench/gate-run.mjs [--runs N] [--json]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 15;
const bin = join(repo, 'dist/isdlc.cjs');
const isdlc = (...a) =>
  execFileSync(process.execPath, [bin, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, CLAUDECODE: '' } });

const work = mkdtempSync(join(tmpdir(), 'isdlc-bench-gate-'));
const bundle = join(work, 'gate.cjs');
buildSync({
  stdin: {
    contents:
      "export { completeAt } from './src/workflow/operations.ts'; export { JournaledStateStore as StateStore } from './src/integrity/journaled-state.ts'; export { locateState } from './src/state/locate.ts'; " +
      "export { probeOsSandbox } from './src/sandbox/os-sandbox.ts'; export { gateIsolation } from './src/hosts/index.ts'; export { CONFIG_DIRS } from './src/hosts/hook-hosts.ts';",
    resolveDir: repo,
    loader: 'ts',
  },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  outfile: bundle,
  logLevel: 'error',
  loader: { '.md': 'text' },
});
const { completeAt, StateStore, locateState, probeOsSandbox, gateIsolation, CONFIG_DIRS } = createRequire(import.meta.url)(bundle);

const COMMAND = 'node --test';
const FEATURE_PHASES = JSON.parse(readFileSync(join(repo, 'src/config/defaults/workflows.json'), 'utf8')).workflows.feature.phases;
const IMPL = '06-implementation';

function project(name, verify) {
  const dir = join(work, name);
  mkdirSync(join(dir, 'test'), { recursive: true });
  writeFileSync(join(dir, 'add.js'), 'module.exports = (a, b) => a + b;\n');
  writeFileSync(
    join(dir, 'test/add.test.js'),
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst add = require('../add.js');\ntest('adds', () => assert.strictEqual(add(1, 2), 3));\ntest('adds zero', () => assert.strictEqual(add(0, 0), 0));\n",
  );
  isdlc('init', dir);
  writeFileSync(join(dir, '.isdlc/config/testing.json'), JSON.stringify({ command: COMMAND, timeout_minutes: 2 }));
  // Every phase of the feature workflow is known (init's consistency check wants that); only 06 requires anything.
  const requirements = Object.fromEntries(
    FEATURE_PHASES.map((phase) => [phase, phase === IMPL ? { test_iteration: { enabled: true, verify_at_gate: verify } } : {}]),
  );
  writeFileSync(join(dir, '.isdlc/config/iteration-requirements.json'), JSON.stringify({ phase_requirements: requirements }));
  isdlc('workflow', 'start', 'feature', '--description', 'Bench gate run', '--dir', dir);
  isdlc('changes', 'accept', '--dir', dir);
  const location = locateState(dir, { env: {}, cwd: dir, configDirs: CONFIG_DIRS });
  const store = new StateStore(location.stateFile);
  const base = store.read().state;
  const phases = base.active_workflow.phases;
  const index = phases.indexOf(IMPL);
  base.active_workflow.current_phase = IMPL;
  base.current_phase = IMPL;
  base.active_workflow.current_phase_index = index;
  base.active_workflow.phase_status = Object.fromEntries(phases.map((p, i) => [p, i < index ? 'completed' : i === index ? 'in_progress' : 'pending']));
  base.phases[IMPL] = {
    status: 'in_progress',
    started: base.active_workflow.started_at,
    iteration_requirements: {
      test_iteration: {
        completed: true,
        status: 'success',
        current_iteration: 1,
        max_iterations: 10,
        last_test_result: 'passed',
        last_test_command: 'npm test',
        history: [],
      },
    },
  };
  const reset = () =>
    store.update((draft) => {
      for (const key of Object.keys(draft)) delete draft[key];
      Object.assign(draft, structuredClone(base));
    });
  return { dir, location, reset };
}

const median = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function timeCompletion({ location, reset }) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    reset();
    const started = process.hrtime.bigint();
    await completeAt(location, undefined, gateIsolation());
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(samples);
}

async function timeCommand(dir) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const started = process.hrtime.bigint();
    await new Promise((resolve, reject) => {
      const child = spawn('/bin/sh', ['-c', COMMAND], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.resume();
      child.stderr.resume();
      child.on('error', reject);
      child.on('close', resolve);
    });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(samples);
}

try {
  const on = project('verify-on', true);
  const off = project('verify-off', false);
  const command = await timeCommand(on.dir);
  const noRun = await timeCompletion(off);
  const withRun = await timeCompletion(on);
  const sandbox = probeOsSandbox();
  const figures = {
    runs,
    command_ms: command,
    complete_without_run_ms: noRun,
    complete_with_run_ms: withRun,
    gate_cost_ms: withRun - noRun - command,
    sandbox: sandbox.ok ? sandbox.kind : `none (${sandbox.why})`,
  };
  if (args.includes('--json')) console.log(JSON.stringify(figures));
  else {
    const f = (ms) => `${ms.toFixed(1)} ms`;
    console.log(`\nThe gate's own test run (median of ${runs}; \`${COMMAND}\`, 2 tests; OS sandbox: ${figures.sandbox})`);
    console.log(`  (a) the test command alone                    ${f(command)}`);
    console.log(`  (b) phase complete, verify_at_gate: false      ${f(noRun)}`);
    console.log(`  (c) phase complete with the gate's run         ${f(withRun)}   gate's cost (c)-(b)-(a): ${f(figures.gate_cost_ms)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
