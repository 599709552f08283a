// `npm run bench` (second part): the iteration loop in-process, through the built loop bundle.
//   iteration_validate overhead: validating a loop whose one rule is `node -e ''` (rule schema, process
//     group, output tail, promise detection, the SQLite transaction), minus spawning that same process
//     alone and waiting for it; both measured interleaved in this run.
//   checkpoint_create throughput: checkpoints per second on a real loop.db (WAL, one transaction each).
//   the OS sandbox: a `true` rule validated in the sandbox and without it (ISDLC_OS_SANDBOX=off, which
//     the rule runner reads at each call), interleaved.
//
//   node bench/loop.mjs [--runs N] [--json]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const loop = createRequire(import.meta.url)(join(repo, 'dist/loop.cjs'));
// The rules' sandbox keeps the guarded set of every project read-only, as the Stop hook's does.
const protect = createRequire(import.meta.url)(join(repo, 'dist/cli.cjs')).GUARDED.protectedPaths();
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 60;
const asJson = args.includes('--json');

const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (started) => Number(process.hrtime.bigint() - started) / 1e6;

const root = mkdtempSync(join(tmpdir(), 'isdlc-bench-loop-'));
const store = loop.LoopStore.open(join(root, '.isdlc'));
const task = store.createTask({ title: 'Bench loop' });
const started = store.startLoop({
  taskId: task.id,
  config: { maxIterations: 100, circuitBreakerThreshold: 100, validationRules: [{ type: 'command', name: 'noop', command: [process.execPath, '-e', ''] }] },
});

// A person runs the bench: its rules may run where no OS sandbox is.
const personal = { id: started.id, approvedByPerson: true };

function spawnAlone() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { cwd: root, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function validateOnce() {
  const current = store.loop(started.id);
  const report = await loop.validate(current.config.validationRules, { root, protect, agentOutput: 'Done.', loop: personal });
  const promise = loop.detectPromise('Done.', loop.promiseTexts(current.config.completionPromises));
  if (!report.overallPassed) throw new Error(`the rule failed: ${report.results[0].message}`);
  return store.recordValidation(started.id, { report, promise, by: 'tool' });
}

for (let i = 0; i < 5; i += 1) {
  await spawnAlone();
  await validateOnce();
}
const alone = [];
const validated = [];
for (let i = 0; i < runs; i += 1) {
  let t = process.hrtime.bigint();
  await spawnAlone();
  alone.push(ms(t));
  t = process.hrtime.bigint();
  await validateOnce();
  validated.push(ms(t));
}

const sandbox = loop.ruleSandbox();
const trueRule = [{ type: 'command', name: 'true', enabled: true, command: 'true', expectedExitCode: 0, timeoutSeconds: 30 }];
async function trueRuleMs(inSandbox) {
  if (inSandbox) delete process.env.ISDLC_OS_SANDBOX;
  else process.env.ISDLC_OS_SANDBOX = 'off';
  const t = process.hrtime.bigint();
  const report = await loop.validate(trueRule, { root, protect, agentOutput: '', loop: personal });
  if (!report.overallPassed) throw new Error(`the true rule failed: ${report.results[0].message}`);
  return ms(t);
}
const sandboxed = [];
const unsandboxed = [];
if (sandbox.ok) {
  for (let i = 0; i < 3; i += 1) await trueRuleMs(true);
  for (let i = 0; i < Math.max(20, Math.round(runs / 3)); i += 1) {
    unsandboxed.push(await trueRuleMs(false));
    sandboxed.push(await trueRuleMs(true));
  }
}
delete process.env.ISDLC_OS_SANDBOX;

const CHECKPOINTS = 2000;
const t = process.hrtime.bigint();
for (let i = 0; i < CHECKPOINTS; i += 1) store.createCheckpoint(task.id, { trigger: 'manual', agentContext: { step: i, files: ['src/a.ts', 'src/b.ts'] } });
const seconds = ms(t) / 1000;
store.close();
rmSync(root, { recursive: true, force: true });

const result = {
  runs,
  rule_process_alone_ms: Number(median(alone).toFixed(2)),
  iteration_validate_ms: Number(median(validated).toFixed(2)),
  iteration_validate_overhead_ms: Number((median(validated) - median(alone)).toFixed(2)),
  checkpoint_create_per_second: Math.round(CHECKPOINTS / seconds),
  os_sandbox: sandbox.ok ? sandbox.kind : `none: ${sandbox.why}`,
  ...(sandbox.ok ? { true_rule_unsandboxed_ms: Number(median(unsandboxed).toFixed(2)), true_rule_sandboxed_ms: Number(median(sandboxed).toFixed(2)) } : {}),
};
if (asJson) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  process.stdout.write(`iteration loop, in-process: median of ${runs} runs each, interleaved\n`);
  process.stdout.write(`  rule process alone (\`node -e ''\`, spawn and wait)          ${result.rule_process_alone_ms.toFixed(2).padStart(7)} ms\n`);
  process.stdout.write(`  iteration_validate with that one rule                       ${result.iteration_validate_ms.toFixed(2).padStart(7)} ms\n`);
  process.stdout.write(`  iteration_validate overhead beyond the rule's process       ${result.iteration_validate_overhead_ms.toFixed(2).padStart(7)} ms\n`);
  process.stdout.write(`  checkpoint_create: ${result.checkpoint_create_per_second} per second (${CHECKPOINTS} on a real loop.db, WAL)\n`);
  if (sandbox.ok) {
    process.stdout.write(
      `  a \`true\` rule without the OS sandbox (median of ${unsandboxed.length})        ${result.true_rule_unsandboxed_ms.toFixed(2).padStart(7)} ms\n`,
    );
    process.stdout.write(`  the same rule in the OS sandbox (${sandbox.kind})                 ${result.true_rule_sandboxed_ms.toFixed(2).padStart(7)} ms\n`);
  } else process.stdout.write(`  OS sandbox: ${result.os_sandbox}\n`);
}
