// Loops made and read through the built loop bundle in a child process, on the project's real loop.db.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './project.js';

const LOOP = join(REPO, 'dist', 'loop.cjs');

function withStore<T>(project: string, body: string, args: unknown): T {
  const script = `const loop = require(${JSON.stringify(LOOP)});
    const store = loop.LoopStore.open(${JSON.stringify(join(project, '.isdlc'))});
    const args = JSON.parse(process.argv[1]);
    const out = (() => { ${body} })();
    store.close();
    process.stdout.write(JSON.stringify(out ?? null));`;
  const run = spawnSync(process.execPath, ['-e', script, JSON.stringify(args)], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`loop helper failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

export interface LoopSeed {
  config?: Record<string, unknown>;
  sessionId?: string;
  agentId?: string;
}

/** A live loop on a new task; returns the loop's id. */
export function makeLoop(project: string, seed: LoopSeed = {}): string {
  return withStore<string>(
    project,
    `const task = store.createTask({ title: 'Make the tests pass' });
     return store.startLoop({ taskId: task.id, config: args.config ?? {}, sessionId: args.sessionId, agentId: args.agentId }).id;`,
    seed,
  );
}

export function readLoop(project: string, loopId: string): Record<string, any> {
  return withStore(project, `const l = store.loop(args.id); return { ...l, task: store.task(l.taskId), history: store.history(l.id) };`, { id: loopId });
}
