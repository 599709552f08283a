// `npm run bench:mutation`: what a mutation run of the changed code costs on this machine. A mid-size
// TypeScript project with vitest (24 modules of about 100 lines, a test file each, generated the same way
// every time) is committed; then a change of 50, 200 and 500 lines (new functions, with tests that check
// them) is mutated by Stryker with the vitest runner, limited to the changed lines the way the gate limits
// it. Each size is timed cold (no earlier result) and again incrementally after a one-line edit, where
// Stryker reuses what it can.
//
//   node bench/mutation-run.mjs [--sizes 50,200,500] [--json]
//
// The packages come from the npm registry once and are kept in .bench-tmp/mutation-packages.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const sizes = option('--sizes', '50,200,500').split(',').map(Number);
const asJson = args.includes('--json');
const PACKAGES = {
  vitest: '3.2.4',
  typescript: '5.9.3',
  '@stryker-mutator/core': '10.1.1',
  '@stryker-mutator/vitest-runner': '10.1.1',
};
const MODULES = 24;

const log = (line) => {
  if (!asJson) process.stderr.write(`${line}\n`);
};

/** node_modules for the project, installed once from the registry. */
function packages() {
  const dir = join(repo, '.bench-tmp/mutation-packages');
  const marker = join(dir, 'installed.json');
  const wanted = JSON.stringify(PACKAGES);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === wanted) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'bench-mutation', private: true, type: 'module' }));
  log('installing vitest, typescript and Stryker from the registry (once)…');
  const specs = Object.entries(PACKAGES).map(([name, version]) => `${name}@${version}`);
  execFileSync('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs], { cwd: dir, stdio: 'inherit' });
  writeFileSync(marker, wanted);
  return dir;
}

// Functions of the kinds a service's code has: arithmetic, comparisons, string handling, branches, loops.
const KINDS = [
  (n) => ({
    code: [
      `export function clamp${n}(value: number, low: number, high: number): number {`,
      `  if (value < low) return low;`,
      `  if (value > high) return high;`,
      `  return value;`,
      `}`,
    ],
    test: [
      `  it('clamp${n} keeps values inside', () => {`,
      `    expect(m.clamp${n}(5, 0, 10)).toBe(5);`,
      `    expect(m.clamp${n}(-1, 0, 10)).toBe(0);`,
      `    expect(m.clamp${n}(11, 0, 10)).toBe(10);`,
      `    expect(m.clamp${n}(0, 0, 10)).toBe(0);`,
      `    expect(m.clamp${n}(10, 0, 10)).toBe(10);`,
      `  });`,
    ],
  }),
  (n) => ({
    code: [
      `export function total${n}(items: { price: number; count: number }[], discount = 0): number {`,
      `  let sum = 0;`,
      `  for (const item of items) {`,
      `    sum += item.price * item.count;`,
      `  }`,
      `  const off = sum > 100 ? sum * discount : 0;`,
      `  return Math.round((sum - off) * 100) / 100;`,
      `}`,
    ],
    test: [
      `  it('total${n} sums and discounts', () => {`,
      `    expect(m.total${n}([{ price: 2, count: 3 }, { price: 1.5, count: 2 }])).toBe(9);`,
      `    expect(m.total${n}([{ price: 60, count: 2 }], 0.1)).toBe(108);`,
      `    expect(m.total${n}([{ price: 50, count: 2 }], 0.1)).toBe(100);`,
      `    expect(m.total${n}([])).toBe(0);`,
      `  });`,
    ],
  }),
  (n) => ({
    code: [
      `export function slug${n}(text: string): string {`,
      `  return text`,
      `    .trim()`,
      `    .toLowerCase()`,
      `    .replace(/[^a-z0-9]+/g, '-')`,
      `    .replace(/^-|-$/g, '');`,
      `}`,
    ],
    test: [
      `  it('slug${n} joins words', () => {`,
      `    expect(m.slug${n}(' Hello World ')).toBe('hello-world');`,
      `    expect(m.slug${n}('a&b')).toBe('a-b');`,
      `    expect(m.slug${n}('--x--')).toBe('x');`,
      `  });`,
    ],
  }),
  (n) => ({
    code: [
      `export function grade${n}(score: number): string {`,
      `  if (score >= 90) {`,
      `    return 'A';`,
      `  } else if (score >= 75) {`,
      `    return 'B';`,
      `  } else if (score >= 50 && score !== 66) {`,
      `    return 'C';`,
      `  }`,
      `  return 'F';`,
      `}`,
    ],
    test: [
      `  it('grade${n} bands scores', () => {`,
      `    expect(m.grade${n}(95)).toBe('A');`,
      `    expect(m.grade${n}(90)).toBe('A');`,
      `    expect(m.grade${n}(80)).toBe('B');`,
      `    expect(m.grade${n}(75)).toBe('B');`,
      `    expect(m.grade${n}(60)).toBe('C');`,
      `    expect(m.grade${n}(50)).toBe('C');`,
      `    expect(m.grade${n}(66)).toBe('F');`,
      `    expect(m.grade${n}(10)).toBe('F');`,
      `  });`,
    ],
  }),
  (n) => ({
    code: [
      `export function parsePairs${n}(line: string): Record<string, string> {`,
      `  const out: Record<string, string> = {};`,
      `  for (const part of line.split(';')) {`,
      `    const at = part.indexOf('=');`,
      `    if (at <= 0) continue;`,
      `    out[part.slice(0, at).trim()] = part.slice(at + 1).trim();`,
      `  }`,
      `  return out;`,
      `}`,
    ],
    test: [
      `  it('parsePairs${n} reads pairs', () => {`,
      `    expect(m.parsePairs${n}('a=1; b = 2;=x;c')).toEqual({ a: '1', b: '2' });`,
      `    expect(m.parsePairs${n}('k=v=w')).toEqual({ k: 'v=w' });`,
      `    expect(m.parsePairs${n}('')).toEqual({});`,
      `  });`,
    ],
  }),
];

/** Functions of `lines` source lines or a little more, numbered from `start`, with their tests. */
function functions(start, lines) {
  const code = [];
  const test = [];
  let written = 0;
  for (let n = start; written < lines; n++) {
    const made = KINDS[n % KINDS.length](n);
    code.push(...made.code, '');
    written += made.code.length;
    test.push(...made.test);
  }
  return { code, test };
}

function moduleFile(index, extra = []) {
  return [...functions(index * 100, 100).code, ...extra].join('\n');
}

function testFile(index, extraTests = []) {
  const made = functions(index * 100, 100);
  return [
    `import { describe, expect, it } from 'vitest';`,
    `import * as m from '../src/mod${index}';`,
    ``,
    `describe('mod${index}', () => {`,
    ...made.test,
    ...extraTests,
    `});`,
    ``,
  ].join('\n');
}

function sh(cwd, file, argv) {
  const run = spawnSync(file, argv, { cwd, encoding: 'utf8', env: { ...process.env, CI: '1', FORCE_COLOR: '0' } });
  if (run.status !== 0) throw new Error(`${file} ${argv.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** The committed project, with node_modules beside it. */
function project(modulesFrom) {
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-bench-mutation-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'test'));
  for (let i = 0; i < MODULES; i++) {
    writeFileSync(join(dir, `src/mod${i}.ts`), moduleFile(i));
    writeFileSync(join(dir, `test/mod${i}.test.ts`), testFile(i));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'service', private: true, type: 'module', scripts: { test: 'vitest run' } }, null, 2));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', strict: true, noEmit: true } }),
  );
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\nreports/\n.stryker-tmp/\n');
  cpSync(join(modulesFrom, 'node_modules'), join(dir, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  sh(dir, 'git', ['init', '-q', '-b', 'main']);
  sh(dir, 'git', ['add', '-A']);
  sh(dir, 'git', ['-c', 'user.email=b@example.com', '-c', 'user.name=bench', 'commit', '-qm', 'service']);
  return dir;
}

/** A change of about `lines` source lines spread over a few modules; the mutate patterns for exactly those lines. */
function change(dir, lines) {
  const touched = Math.max(1, Math.min(8, Math.round(lines / 60)));
  const patterns = [];
  let written = 0;
  for (let t = 0; t < touched; t++) {
    const share = Math.round(lines / touched);
    const index = t * 3;
    const made = functions(10_000 + t * 1000, share);
    const before = moduleFile(index).split('\n').length;
    writeFileSync(join(dir, `src/mod${index}.ts`), moduleFile(index, made.code));
    writeFileSync(join(dir, `test/mod${index}.test.ts`), testFile(index, made.test));
    patterns.push(`src/mod${index}.ts:${before + 1}-${before + made.code.length}`);
    written += made.code.filter((line) => line.trim()).length;
  }
  return { patterns, written, files: touched };
}

function stryker(dir, patterns, incremental) {
  const report = join(dir, 'reports/mutation/mutation.json');
  const argv = [
    join(dir, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
    'run',
    '--testRunner',
    'vitest',
    '--mutate',
    patterns.join(','),
    '--reporters',
    'json',
    '--concurrency',
    String(Math.max(1, cpus().length)),
    '--logLevel',
    'warn',
    ...(incremental ? ['--incremental', '--incrementalFile', join(dir, 'reports/incremental.json')] : []),
  ];
  const started = performance.now();
  const run = spawnSync(process.execPath, argv, { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1', FORCE_COLOR: '0' } });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`stryker failed (${run.status}):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  const parsed = JSON.parse(readFileSync(report, 'utf8'));
  const mutants = Object.values(parsed.files).flatMap((file) => file.mutants);
  const killed = mutants.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
  const counted = mutants.filter((m) => ['Killed', 'Timeout', 'Survived', 'NoCoverage'].includes(m.status)).length;
  return { ms, mutants: mutants.length, score: counted ? Math.round((killed / counted) * 1000) / 10 : null };
}

function vitestAlone(dir) {
  const started = performance.now();
  sh(dir, process.execPath, [join(dir, 'node_modules/vitest/vitest.mjs'), 'run']);
  return performance.now() - started;
}

const modulesFrom = packages();
const results = [];
for (const size of sizes) {
  const dir = project(modulesFrom);
  try {
    const suite = vitestAlone(dir);
    const made = change(dir, size);
    const cold = stryker(dir, made.patterns, true);
    // One line of the change edited: what a second completion after a fix costs.
    const first = join(dir, made.patterns[0].split(':')[0]);
    writeFileSync(
      first,
      readFileSync(first, 'utf8').replace(/return Math\.round\(\(sum - off\) \* 100\) \/ 100;/, 'return Math.round((sum - off) * 1000) / 1000;'),
    );
    const again = stryker(dir, made.patterns, true);
    const row = {
      changed_lines: made.written,
      files: made.files,
      suite_ms: Math.round(suite),
      cold_ms: Math.round(cold.ms),
      mutants: cold.mutants,
      score: cold.score,
      incremental_ms: Math.round(again.ms),
    };
    results.push(row);
    log(
      `${String(made.written).padStart(4)} changed lines in ${made.files} file(s): ${cold.mutants} mutants, score ${cold.score}%, ` +
        `${(cold.ms / 1000).toFixed(1)} s cold, ${(again.ms / 1000).toFixed(1)} s incremental after a one-line edit (the suite alone: ${(suite / 1000).toFixed(1)} s)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const machine = { cpus: cpus().length, node: process.version };
if (asJson) process.stdout.write(`${JSON.stringify({ machine, results }, null, 2)}\n`);
else log(`(${machine.cpus} cores, Node ${machine.node})`);
