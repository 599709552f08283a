// The gate's own run in its OS sandbox, where the machine is read-only outside the project and the temp
// folders are the run's own: the four toolchains init detects still build and test, with the commands init
// writes for them, and a failure still reads as one. Each toolchain missing here is skipped by name.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { detectTesting } from '../../src/config/detect-tests.js';
import { gateIsolation } from '../../src/hosts/index.js';
import { probeOsSandbox } from '../../src/sandbox/os-sandbox.js';
import { runGateTests } from '../../src/verify/gate-run.js';
import { tempDir } from '../helpers/project.js';
import { TOOLCHAIN_PROJECTS } from '../helpers/toolchain-projects.js';

const sandbox = probeOsSandbox();
function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

describe.skipIf(!sandbox.ok || process.platform !== 'linux')("the gate's run in its sandbox, in each toolchain", () => {
  for (const toolchain of TOOLCHAIN_PROJECTS) {
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
