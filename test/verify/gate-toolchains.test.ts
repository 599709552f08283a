// The gate's own run in its OS sandbox, where the machine is read-only outside the project and the temp
// folders are the run's own: the four toolchains init detects still build and test, with the commands init
// writes for them, and a failure still reads as one. Each toolchain missing here is skipped by name.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { detectTesting } from '../../src/config/detect-tests.js';
import { gateIsolation } from '../../src/hosts/index.js';
import { probeOsSandbox } from '../../src/sandbox/os-sandbox.js';
import { runGateTests } from '../../src/verify/gate-run.js';
import { tempDir } from '../helpers/project.js';

const sandbox = probeOsSandbox();
const has = (program: string, ...args: string[]): boolean => spawnSync(program, args, { stdio: 'ignore' }).status === 0;

interface Toolchain {
  name: string;
  present: boolean;
  files: Record<string, string>;
  /** The same project with one test that fails. */
  failing: Record<string, string>;
}

const TOOLCHAINS: Toolchain[] = [
  {
    name: 'npm test (node --test)',
    present: true,
    files: {
      'package.json': JSON.stringify({ name: 'sum', version: '1.0.0', private: true, scripts: { test: 'node --test' } }),
      'test/sum.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 2, 3));\n",
    },
    failing: {
      'test/sum.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 2, 4));\n",
    },
  },
  {
    name: 'pytest',
    present: has('python', '-m', 'pytest', '--version'),
    files: { 'pytest.ini': '[pytest]\n', 'test_sum.py': 'def test_adds():\n    assert 1 + 2 == 3\n' },
    failing: { 'test_sum.py': 'def test_adds():\n    assert 1 + 2 == 4\n' },
  },
  {
    name: 'go test',
    present: has('go', 'version'),
    files: {
      'go.mod': 'module example.com/sum\n\ngo 1.19\n',
      'sum.go': 'package sum\n\nfunc Add(a, b int) int { return a + b }\n',
      'sum_test.go': 'package sum\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("wrong")\n\t}\n}\n',
    },
    failing: { 'sum_test.go': 'package sum\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif Add(1, 2) != 4 {\n\t\tt.Fatal("wrong")\n\t}\n}\n' },
  },
  {
    name: 'cargo test',
    present: has('cargo', '--version'),
    files: {
      'Cargo.toml': '[package]\nname = "sum"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n',
    },
    failing: {
      'src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 4); }\n}\n',
    },
  },
];

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

describe.skipIf(!sandbox.ok || process.platform !== 'linux')("the gate's run in its sandbox, in each toolchain", () => {
  for (const toolchain of TOOLCHAINS) {
    test.skipIf(!toolchain.present)(`${toolchain.name}: the detected command passes on good code and fails on bad`, { timeout: 180_000 }, async () => {
      const dir = tempDir('isdlc-gate-toolchain-');
      // A project isdlc is set up in: new names in its root stay allowed (Cargo.lock, go.sum, .pytest_cache).
      mkdirSync(join(dir, '.isdlc'));
      write(dir, toolchain.files);
      const detected = detectTesting(dir);
      expect(detected.command).not.toBeNull();
      const run = () =>
        runGateTests({
          root: dir,
          phase: '06-implementation',
          testing: { command: detected.command!, timeout_minutes: 3, require_counts: true },
          wantCoverage: false,
          isolation: gateIsolation(),
          sandbox,
        });
      const good = await run();
      expect(good.sandboxed).toBe(true);
      expect(good.result, `${good.basis}\n${good.excerpt ?? ''}`).toBe('passed');
      expect(good.counts?.passed).toBeGreaterThanOrEqual(1);
      write(dir, toolchain.failing);
      const bad = await run();
      expect(bad.result, `${bad.basis}\n${bad.excerpt ?? ''}`).toBe('failed');
    });
  }
});

describe.skipIf(!sandbox.ok || process.platform !== 'linux')("the gate's run in its sandbox, outside the project", () => {
  test('a test that writes into the home folder, a PATH folder or the machine-wide temp folder leaves nothing there', async () => {
    const dir = tempDir('isdlc-gate-outside-');
    mkdirSync(join(dir, '.isdlc'));
    const mark = `isdlc-gate-planted-${process.pid}-${Date.now()}`;
    const home = homedir();
    const places = [join(home, mark), join(dirname(process.execPath), mark), join('/tmp', mark), join(home, '.config', mark, 'x')];
    write(dir, {
      'package.json': JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } }),
      'test/plant.test.js': [
        "const test = require('node:test');",
        "const fs = require('node:fs');",
        "const path = require('node:path');",
        `const places = ${JSON.stringify(places)};`,
        "test('plants', () => { for (const p of places) { try { fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, 'planted'); } catch {} } });",
        '',
      ].join('\n'),
    });
    try {
      const run = await runGateTests({
        root: dir,
        phase: '06-implementation',
        testing: { command: 'npm test', timeout_minutes: 1, require_counts: true },
        wantCoverage: false,
        isolation: gateIsolation(),
        sandbox,
      });
      expect(run.result, `${run.basis}\n${run.excerpt ?? ''}`).toBe('passed');
      expect(places.filter((place) => existsSync(place))).toEqual([]);
    } finally {
      for (const place of places) rmSync(place, { force: true });
      rmSync(join(home, '.config', mark), { recursive: true, force: true });
    }
  });
});
