// `npm run bench` (part): what the tamper check costs inside one hook call, measured in-process on a
// project `isdlc init` set up, with a workflow in 06-implementation and a state of about 60 KB. The check
// runs as the hook runs it (src/integrity/tamper-on-hook.ts); `node -e ''` is not the yardstick here, the
// whole-process figures are in hook-latency.mjs ((h) is the same project through the registered hook).
//
//   node bench/tamper-check.mjs [--runs N] [--json]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 2000;
const bin = join(repo, 'dist/isdlc.cjs');
const isdlc = (...a) => execFileSync(process.execPath, [bin, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

const work = mkdtempSync(join(tmpdir(), 'isdlc-bench-tamper-'));
const bundle = join(work, 'check.cjs');
buildSync({
  stdin: {
    contents:
      "export { tamperCheckForHook } from './src/integrity/tamper-on-hook.ts'; export { JournaledStateStore } from './src/integrity/journaled-state.ts'; export { GUARDED } from './src/hosts/hook-hosts.ts';",
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
const { tamperCheckForHook, JournaledStateStore, GUARDED } = createRequire(import.meta.url)(bundle);
const { loopRows } = createRequire(import.meta.url)(join(repo, 'dist/loop.cjs'));

const dir = join(work, 'project');
execFileSync('mkdir', ['-p', dir]);
isdlc('init', dir, '--claude-version', '2.1.332');
isdlc('workflow', 'start', 'feature', '--description', 'Bench feature', '--dir', dir);
const file = join(dir, '.isdlc/state.json');
const state = JSON.parse(readFileSync(file, 'utf8'));
for (let i = 0; JSON.stringify(state, null, 2).length < 60 * 1024; i += 1)
  state.history.push({
    timestamp: new Date(1_750_000_000_000 + i * 60_000).toISOString(),
    agent: 'software-developer',
    action: `Recorded step ${i} of the bench workflow`,
  });
writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
isdlc('changes', 'accept', '--dir', dir);

const check = { guarded: GUARDED, stateFile: () => file, foundBy: 'PreToolUse', loopRows: () => loopRows };
const time = (body, before = () => {}) => {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    before(i);
    const started = process.hrtime.bigint();
    body();
    samples.push(Number(process.hrtime.bigint() - started) / 1e3);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p95: samples[Math.floor(samples.length * 0.95)] };
};
for (let i = 0; i < 50; i += 1) tamperCheckForHook(dir, check);
const clean = time(() => tamperCheckForHook(dir, check));
// The call after one in which isdlc wrote the state itself (a test run recorded, say): still only stats.
const store = new JournaledStateStore(file);
const afterWrite = time(
  () => tamperCheckForHook(dir, check),
  (i) => store.update((draft) => void (draft.bench_counter = i)),
);
const result = { stateBytes: statSync(file).size, runs, microseconds: { unchanged: clean, afterIsdlcWrote: afterWrite } };
if (args.includes('--json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
else {
  const line = (what, t) => `  ${what}: median ${t.median.toFixed(0)} µs, p95 ${t.p95.toFixed(0)} µs\n`;
  process.stdout.write(
    `tamper check per hook call, ${Math.round(result.stateBytes / 1024)} KB state, ${runs} calls each\n${line('nothing changed', clean)}${line('isdlc wrote the state since', afterWrite)}`,
  );
}
rmSync(work, { recursive: true, force: true });
