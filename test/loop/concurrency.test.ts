// The loop store under several processes at once, through the built loop bundle
// and real SQLite files.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/project.js';
import { MIGRATIONS } from '../../src/loop/migrations.js';

const LOOP = join(REPO, 'dist', 'loop.cjs');

/** Runs a script in a fresh Node process with the loop bundle as `loop`; resolves with its exit and output. */
function run(script: string, args: string[] = []): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', `const loop = require(${JSON.stringify(LOOP)});\n${script}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the loop store under concurrent processes', () => {
  it('lets six (and then sixteen) processes open a brand-new database at the same moment', async () => {
    for (const count of [6, 16]) {
      const dir = tempDir('isdlc-loopdb-');
      const results = await Promise.all(
        Array.from({ length: count }, (_, index) =>
          run(`const store = loop.LoopStore.open(process.argv[1]); store.createTask({ title: 'opened by ' + process.argv[2] }); store.close();`, [
            dir,
            String(index),
          ]),
        ),
      );
      for (const result of results) expect(result.code, result.err).toBe(0);
      const check = await run(
        `const store = loop.LoopStore.open(process.argv[1]);
         console.log(JSON.stringify({ version: store.db.pragmaValue('user_version'), mode: store.db.pragmaValue('journal_mode'),
           tasks: store.db.prepare('SELECT count(*) AS n FROM tasks').get().n }));`,
        [dir],
      );
      expect(check.code, check.err).toBe(0);
      expect(JSON.parse(check.out)).toEqual({ version: MIGRATIONS.length, mode: 'wal', tasks: count });
    }
  });

  it('loses no update when four processes advance one loop at once', async () => {
    const dir = tempDir('isdlc-loopdb-');
    const setup = await run(
      `const store = loop.LoopStore.open(process.argv[1]);
       const task = store.createTask({ title: 'shared' });
       const started = store.startLoop({ taskId: task.id, config: { maxIterations: 100 } });
       console.log(started.id);`,
      [dir],
    );
    expect(setup.code, setup.err).toBe(0);
    const loopId = setup.out.trim();
    const PER_PROCESS = 24;
    // Every rule passes but no promise: CONTINUE, and the hook's path moves the loop on in the same transaction.
    const worker = `
      const store = loop.LoopStore.open(process.argv[1]);
      const report = { results: [], totalRules: 0, passedRules: 0, failedRules: 0, erroredRules: 0, overallPassed: true, score: 100 };
      const seen = [];
      for (let i = 0; i < ${PER_PROCESS}; i++) seen.push(store.recordValidation(process.argv[2], { report, by: 'hook', advanceOnContinue: true }).advancedTo);
      store.close();
      console.log(JSON.stringify(seen));`;
    const results = await Promise.all([1, 2, 3, 4].map(() => run(worker, [dir, loopId])));
    for (const result of results) expect(result.code, result.err).toBe(0);
    const reached = results.flatMap((result) => JSON.parse(result.out) as number[]).sort((a, b) => a - b);
    // Each process saw distinct iterations; together exactly 2..97.
    expect(reached).toEqual(Array.from({ length: 4 * PER_PROCESS }, (_, index) => index + 2));
    const check = await run(
      `const store = loop.LoopStore.open(process.argv[1]); const l = store.loop(process.argv[2]);
       console.log(JSON.stringify({ iteration: l.iteration, stopBlocks: l.stopBlocks, rows: store.history(l.id).length,
         validated: store.history(l.id).filter((r) => r.validatedAt).length }));`,
      [dir, loopId],
    );
    expect(JSON.parse(check.out)).toEqual({ iteration: 97, stopBlocks: 96, rows: 97, validated: 96 });
  });
});
