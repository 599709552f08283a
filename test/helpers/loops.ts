// Loops made and read through the built loop bundle, in the test's process, on the project's real loop.db;
// and loops driven the way an agent drives them: started in its shell, held by the registered Stop hook.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'vitest';
import { bashPassed, stop } from './payloads.js';
import { cli, decisionOf, initedProject, REPO, writeFile, writeJson, type Run } from './project.js';
import { answerAsRegistered } from './registered-hook.js';

type Payload = Record<string, unknown>;

const LOOP = join(REPO, 'dist', 'loop.cjs');

/** The loop store as the built loop bundle opens it (typed here only as far as the helpers use it). */
interface Store {
  createTask(input: { title: string }): { id: string };
  startLoop(input: { taskId: string; config: Record<string, unknown>; sessionId?: string | undefined; agentId?: string | undefined }): { id: string };
  loop(id: string): Record<string, any> & { id: string; taskId: string };
  task(id: string): unknown;
  history(loopId: string): unknown;
  close(): void;
}

/** What the tests use of the built loop bundle (dist/loop.cjs), loaded once into the test's process. */
interface LoopBundle {
  LoopStore: { open(isdlcDir: string): Store };
  loopRows: { snapshot(file: string): string };
}

let bundle: LoopBundle | undefined;

export function loopBundle(): LoopBundle {
  bundle ??= createRequire(import.meta.url)(LOOP) as LoopBundle;
  return bundle;
}

/** Runs `work` on the project's loop store, opened through the built loop bundle, and returns what it gives as JSON carries it. */
function withStore<T>(project: string, work: (store: Store) => T): T {
  const store = loopBundle().LoopStore.open(join(project, '.isdlc'));
  try {
    return JSON.parse(JSON.stringify(work(store) ?? null)) as T;
  } finally {
    store.close();
  }
}

export interface LoopSeed {
  config?: Record<string, unknown>;
  sessionId?: string;
  agentId?: string;
}

/** A live loop on a new task; returns the loop's id. */
export function makeLoop(project: string, seed: LoopSeed = {}): string {
  return withStore(project, (store) => {
    const task = store.createTask({ title: 'Make the tests pass' });
    return store.startLoop({ taskId: task.id, config: seed.config ?? {}, sessionId: seed.sessionId, agentId: seed.agentId }).id;
  });
}

export function readLoop(project: string, loopId: string): Record<string, any> {
  return withStore(project, (store) => {
    const loop = store.loop(loopId);
    return { ...loop, task: store.task(loop.taskId), history: store.history(loop.id) };
  });
}

/** A project whose `npm test` passes once add() adds. */
export function projectWithTests(): string {
  const project = initedProject('isdlc-loop-');
  writeJson(join(project, 'package.json'), { name: 'sum', version: '1.0.0', private: true, scripts: { test: 'node test.js' } });
  writeFile(
    join(project, 'test.js'),
    "const add = require('./add.js');\n" +
      "if (add(1, 2) !== 3) { console.error('FAIL add(1, 2) should be 3, got ' + add(1, 2)); process.exit(1); }\n" +
      "console.log('1 passing');\n",
  );
  brokenAdd(project);
  return project;
}
export const brokenAdd = (project: string): void => writeFile(join(project, 'add.js'), 'module.exports = (a, b) => a - b;\n');
export const fixedAdd = (project: string): void => writeFile(join(project, 'add.js'), 'module.exports = (a, b) => a + b;\n');

/** The recorded Stop payload's session (post-bash.json differs). */
export const SESSION = '5c59934b-3bd1-43ab-9506-a6a16f581034';

/** The agent runs `isdlc loop start ...` in its shell; the hook sees that call's output. */
export function agentStartsLoop(
  project: string,
  args: string[],
  payloadExtra: Payload = {},
  env: Record<string, string> = {},
): { start: Run; bind: ReturnType<typeof decisionOf> } {
  const start = cli(['loop', 'start', ...args], { cwd: project, env: { CLAUDECODE: '1', ...env } });
  expect(start.status, start.stderr).toBe(0);
  const command = `node .isdlc/bin/isdlc.cjs loop start ${args.map((arg) => (/\s/.test(arg) ? `"${arg}"` : arg)).join(' ')}`;
  const bind = decisionOf(answerAsRegistered(project, { ...bashPassed(project, command, start.stdout), ...payloadExtra }, env));
  return { start, bind };
}

export function stopWith(project: string, message: string, extra: Payload = {}, env: Record<string, string> = {}): ReturnType<typeof decisionOf> {
  return decisionOf(answerAsRegistered(project, { ...stop(project, message), ...extra }, env));
}

export interface LoopJson {
  id: string;
  status: string;
  iteration: number;
  stopBlocks: number;
  sessionId: string | null;
  rulesSetBy: string;
  rulesApprovedBy: string | null;
  task: { status: string; blockedReason: string | null };
  history: { iteration: number; passed: boolean | null; signal: string | null; validatedBy: string | null }[];
}

export function loops(project: string): LoopJson[] {
  const run = cli(['loop', 'status', '--all', '--json', '--dir', project]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as LoopJson[];
}
