// The state store, driven through the bundled code (dist/cli.cjs) from real processes where it matters:
// parallel writers lose nothing, a killed writer never leaves a torn file, a corrupt file is kept aside.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock, type LockTakeover } from '../../src/state/lock.js';
import { StateConflictError, StateStore } from '../../src/state/store.js';
import { REPO, tempDir, writeFile } from '../helpers/project.js';

const LIBRARY = join(REPO, 'dist/cli.cjs');

/** The pid of a process that has ended (and, this soon after, has not been reused). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid;
}

/** A node process that runs `body` with the bundled store in scope as `StateStore`. */
function storeScript(body: string): string {
  return `const { StateStore } = require(${JSON.stringify(LIBRARY)});\n${body}`;
}

describe('one process', () => {
  it('writes state_version + 1 on every write and keeps unknown fields', () => {
    const file = join(tempDir(), '.isdlc/state.json');
    writeFile(file, JSON.stringify({ state_version: 7, custom_field: { kept: true } }));
    const store = new StateStore(file);
    const result = store.update((draft) => {
      draft['counter'] = 1;
    });
    expect(result).toMatchObject({ written: true, version: 8 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ state_version: 8, custom_field: { kept: true }, counter: 1 });
  });

  it('does not write when the update changes nothing', () => {
    const file = join(tempDir(), 'state.json');
    writeFile(file, JSON.stringify({ state_version: 2, a: 1 }));
    const before = readFileSync(file, 'utf8');
    expect(new StateStore(file).update(() => undefined).written).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('compare-and-swap: refuses a write based on an older version, and equal versions are not a pass for a stale reader', () => {
    const file = join(tempDir(), 'state.json');
    writeFile(file, JSON.stringify({ state_version: 5 }));
    const store = new StateStore(file);
    expect(() => store.update(() => undefined, { expectedVersion: 3 })).toThrow(StateConflictError);
    const read = store.read();
    store.update((draft) => {
      draft['x'] = 1;
    }); // someone else writes in between
    expect(() => store.update((draft) => void (draft['y'] = 2), { expectedVersion: read.version })).toThrow(/expected state_version 5, found 6/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ state_version: 6, x: 1 });
  });

  it('sets a corrupt file aside with a timestamp, never overwriting it, and reports it', () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    writeFile(file, '{"state_version": 3, "active_workflow": {"type": "feat');
    const snapshot = new StateStore(file).read();
    expect(snapshot.state).toBeNull();
    expect(snapshot.corrupt?.problem).toContain('not valid JSON');
    const kept = readdirSync(dir).filter((name) => name.startsWith('state.corrupt-'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(dir, kept[0]!), 'utf8')).toBe('{"state_version": 3, "active_workflow": {"type": "feat');
    expect(existsSync(file)).toBe(false);
  });

  it('treats a file holding something other than an object as corrupt', () => {
    const file = join(tempDir(), 'state.json');
    writeFile(file, '[1,2,3]');
    expect(new StateStore(file).read().corrupt?.problem).toContain('an array');
  });

  it('a lock held by a dead process is taken over at once', () => {
    const file = join(tempDir(), 'state.json');
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: dead, host: hostname(), nonce: 'x', at: Date.now() }));
    const started = Date.now();
    new StateStore(file, { timeoutMs: 3000 }).update((draft) => void (draft['ok'] = true));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  // A lock file is something an agent can write: one that names a live process (pid 1 is always alive)
  // must not keep every state write out, or no failure would ever be recorded. Each takeover is reported.
  it.each([
    [
      'dated in the future',
      (): string => JSON.stringify({ pid: 1, host: hostname(), nonce: 'jam', at: Date.now() + 10 * 365 * 86_400_000 }),
      0,
      'dated in the future',
    ],
    ['whose content is not a holder', (): string => 'locked, keep out', 2000, 'unreadable'],
    ['with no time at all', (): string => JSON.stringify({ pid: 1, host: hostname(), nonce: 'jam' }), 0, 'older than the stale bound'],
    [
      'dated now but a file older than the stale bound',
      (): string => JSON.stringify({ pid: 1, host: hostname(), nonce: 'jam', at: Date.now() + 50_000 }),
      40_000,
      'older than the stale bound',
    ],
    ['held by a process that is gone', (): string => JSON.stringify({ pid: deadPid(), host: hostname(), nonce: 'jam', at: Date.now() }), 0, 'dead holder pid'],
  ] as const)('a jammed lock, %s, is taken over and the takeover reported', (_, content, ageMs, why) => {
    const file = join(tempDir(), 'state.json');
    writeFileSync(`${file}.lock`, content());
    if (ageMs !== 0) {
      const when = new Date(Date.now() - ageMs);
      utimesSync(`${file}.lock`, when, when);
    }
    const takeovers: LockTakeover[] = [];
    const started = Date.now();
    new StateStore(file, { timeoutMs: 3000, onTakeover: (takeover) => takeovers.push(takeover) }).update((draft) => void (draft['ok'] = true));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ ok: true });
    expect(takeovers).toHaveLength(1);
    expect(takeovers[0]!.file).toBe(`${file}.lock`);
    expect(takeovers[0]!.why).toContain(why);
    if (why !== 'unreadable') expect(takeovers[0]!.holder).toMatchObject({ host: hostname() });
  });

  it('a lock taken and released in turn is no takeover', () => {
    const file = join(tempDir(), 'state.json');
    const takeovers: LockTakeover[] = [];
    const store = new StateStore(file, { onTakeover: (takeover) => takeovers.push(takeover) });
    store.update((draft) => void (draft['a'] = 1));
    store.update((draft) => void (draft['b'] = 2));
    expect(takeovers).toEqual([]);
  });

  it('a lock held by a live process makes a writer wait, then give up with who holds it', () => {
    const file = join(tempDir(), 'state.json');
    const lock = acquireLock(file);
    try {
      expect(() => new StateStore(file, { timeoutMs: 200 }).update((draft) => void (draft['x'] = 1))).toThrow(`held by pid ${process.pid}`);
    } finally {
      lock.release();
    }
  });
});

describe('many processes', () => {
  it('eight processes adding 1 to a counter 100 times each end at exactly 800, the file parseable throughout', async () => {
    const file = join(tempDir(), '.isdlc/state.json');
    writeFile(file, JSON.stringify({ state_version: 0, counter: 0 }));
    const worker = storeScript(`
      const store = new StateStore(process.argv[1], { timeoutMs: 30000 });
      for (let i = 0; i < 100; i++) store.update((draft) => { draft.counter = (draft.counter || 0) + 1; });
    `);
    const children = Array.from({ length: 8 }, () => spawn(process.execPath, ['-e', worker, file], { stdio: ['ignore', 'ignore', 'pipe'] }));
    let parseFailures = 0;
    const reader = setInterval(() => {
      try {
        JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        parseFailures += 1;
      }
    }, 2);
    const codes = await Promise.all(
      children.map(
        (child) =>
          new Promise<number | null>((resolve) => {
            let stderr = '';
            child.stderr.on('data', (chunk) => (stderr += String(chunk)));
            child.on('close', (code) => {
              if (code !== 0) console.error(stderr);
              resolve(code);
            });
          }),
      ),
    );
    clearInterval(reader);
    expect(codes).toEqual(Array(8).fill(0));
    const state = JSON.parse(readFileSync(file, 'utf8'));
    expect(state.counter).toBe(800);
    expect(state.state_version).toBe(800);
    expect(parseFailures).toBe(0);
  });

  it('a writer killed with SIGKILL mid-write never leaves a torn file, and the next writer goes on', async () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    // A few MB per write, so that kills land inside writes.
    writeFile(file, JSON.stringify({ state_version: 0, generation: 0, payload: 'start0' }));
    const writer = storeScript(`
      const store = new StateStore(process.argv[1]);
      const big = 'x'.repeat(4 * 1024 * 1024);
      for (;;) store.update((draft) => { draft.generation = (draft.generation || 0) + 1; draft.payload = big + draft.generation; });
    `);
    const tempFiles = (): string[] => readdirSync(dir).filter((name) => name.endsWith('.tmp'));
    for (let round = 0; round < 10; round += 1) {
      const child = spawn(process.execPath, ['-e', writer, file], { stdio: 'ignore' });
      // Kill the moment a write is under way: its temporary file has appeared.
      const known = new Set(tempFiles());
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && !tempFiles().some((name) => !known.has(name))) {
        /* poll */
      }
      child.kill('SIGKILL');
      await new Promise((resolve) => child.on('close', resolve));
      const state = JSON.parse(readFileSync(file, 'utf8')); // throws on a torn file
      expect(state.payload.endsWith(String(state.generation))).toBe(true);
    }
    // Leftover temporary files show that some kills did land inside a write.
    const interrupted = readdirSync(dir).filter((name) => name.endsWith('.tmp')).length;
    expect(interrupted).toBeGreaterThan(0);
    const before = JSON.parse(readFileSync(file, 'utf8')).generation;
    const next = spawnSync(
      process.execPath,
      ['-e', storeScript(`new StateStore(process.argv[1], { timeoutMs: 3000 }).update((d) => { d.generation += 1; d.payload = 'done'; });`), file],
      { encoding: 'utf8' },
    );
    expect(next.status, next.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ generation: before + 1, payload: 'done' });
  });
});
