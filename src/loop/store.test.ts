// The loop store's transitions and refusals, on a real SQLite file.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseIterationConfig } from './loop-config.js';
import { MIGRATIONS } from './migrations.js';
import { Db } from './sqlite.js';
import { KEPT_CHECKPOINTS, LoopStore } from './store.js';
import type { ValidationReport } from './types.js';

const passing: ValidationReport = { results: [], totalRules: 0, passedRules: 0, failedRules: 0, erroredRules: 0, overallPassed: true, score: 100 };
const failing: ValidationReport = {
  results: [{ name: 'tests', type: 'command', passed: false, errored: false, message: 'tests: `npm test` exited 1 (expected 0)' }],
  totalRules: 1,
  passedRules: 0,
  failedRules: 1,
  erroredRules: 0,
  overallPassed: false,
  score: 0,
};
const COMPLETE = { signal: 'COMPLETE' as const, promise: '<promise>COMPLETE</promise>' };

const made: string[] = [];
afterAll(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const storeFolder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-store-'));
  made.push(dir);
  return join(dir, '.isdlc');
};

function fresh(): LoopStore {
  return LoopStore.open(storeFolder());
}

function started(store: LoopStore, config: Record<string, unknown> = {}) {
  const task = store.createTask({ title: 'Make it work' });
  return { task, loop: store.startLoop({ taskId: task.id, config }) };
}

describe('LoopStore', () => {
  it('starts a loop at iteration 1 with every default applied and the task in progress', () => {
    const store = fresh();
    const { task, loop } = started(store);
    expect(loop).toMatchObject({ status: 'active', iteration: 1, consecutiveFailures: 0, sessionId: null });
    expect(loop.config).toMatchObject({
      maxIterations: 10,
      circuitBreakerThreshold: 3,
      completionPromises: ['<promise>COMPLETE</promise>', '<promise>BLOCKED</promise>'],
    });
    expect(store.task(task.id).status).toBe('in_progress');
    expect(store.resumePoint(task.id)).toMatchObject({ iterationNumber: 1, trigger: 'iteration_start' });
  });

  it('refuses a second live loop on one task, and a loop on a completed task', () => {
    const store = fresh();
    const { task } = started(store);
    expect(() => store.startLoop({ taskId: task.id, config: {} })).toThrow(/already has a running loop/);
    store.recordValidation(store.loopOfTask(task.id)!.id, { report: passing, promise: COMPLETE, by: 'tool' });
    expect(() => store.startLoop({ taskId: task.id, config: {} })).toThrow(/is completed/);
  });

  it('refuses limits that are not finite', () => {
    const store = fresh();
    const task = store.createTask({ title: 't' });
    expect(() => store.startLoop({ taskId: task.id, config: { maxIterations: 0 } })).toThrow(/maxIterations/);
    expect(() => store.startLoop({ taskId: task.id, config: { maxIterations: 1000 } })).toThrow(/maxIterations/);
  });

  it('iteration_next needs a validated, live iteration and stops at the last one', () => {
    const store = fresh();
    const { task, loop } = started(store, { maxIterations: 2, circuitBreakerThreshold: 5 });
    expect(() => store.next(task.id)).toThrow(/not been validated/);
    store.recordValidation(loop.id, { report: failing, by: 'tool' });
    expect(store.next(task.id, 'tried the obvious fix')).toMatchObject({ iteration: 2 });
    expect(store.history(loop.id)[0]).toMatchObject({ notes: 'tried the obvious fix', passed: false, signal: 'CONTINUE' });
    const outcome = store.recordValidation(loop.id, { report: failing, by: 'tool' });
    expect(outcome.decision.signal).toBe('ESCALATE');
    expect(() => store.next(task.id)).toThrow(/has ended \(escalated/);
  });

  it('completes only through a passing validation', () => {
    const store = fresh();
    const { task, loop } = started(store);
    expect(() => store.complete(task.id)).toThrow(/not been validated/);
    store.recordValidation(loop.id, { report: failing, by: 'tool' });
    expect(() => store.complete(task.id)).toThrow(/failed, so the loop cannot complete: tests: `npm test` exited 1/);
    expect(() => store.updateTask(task.id, { status: 'completed' })).toThrow(/completes through iteration_complete/);
    store.recordValidation(loop.id, { report: passing, by: 'tool' });
    expect(store.complete(task.id).status).toBe('completed');
    expect(store.task(task.id).status).toBe('completed');
    expect(store.complete(task.id).status).toBe('completed'); // reported again, unchanged
  });

  it('ends the live loop when the task is marked blocked with a reason; cancelling it is for a person', () => {
    const store = fresh();
    const { task, loop } = started(store);
    expect(() => store.updateTask(task.id, { status: 'cancelled' })).toThrow(/a person's decision \(`isdlc loop cancel`\)/);
    expect(() => store.updateTask(task.id, { status: 'blocked' })).toThrow(/needs blockedReason/);
    store.updateTask(task.id, { status: 'blocked', blockedReason: 'waiting for the API key' });
    expect(store.loop(loop.id)).toMatchObject({ status: 'blocked', endReason: 'task marked blocked: waiting for the API key' });
  });

  it('binds an unclaimed loop once, never a loop of another session, and one loop per session and agent', () => {
    const store = fresh();
    const { loop } = started(store);
    expect(store.bind(loop.id, { sessionId: 's1' }).bound).toBe(true);
    expect(store.bind(loop.id, { sessionId: 's2' })).toMatchObject({ bound: false, problem: expect.stringMatching(/another session/) });
    expect(store.loopBoundTo('s1', undefined)?.id).toBe(loop.id);
    expect(store.loopBoundTo('s1', 'a1')).toBeUndefined();
    const second = started(store).loop;
    expect(store.bind(second.id, { sessionId: 's1' })).toMatchObject({ bound: false, problem: expect.stringMatching(/already runs loop/) });
    expect(store.bind(second.id, { sessionId: 's1', agentId: 'a1' }).bound).toBe(true);
  });

  it('prunes old manual checkpoints but never those of a live loop', () => {
    const store = fresh();
    const { task, loop } = started(store, { maxIterations: 50, circuitBreakerThreshold: 50 });
    for (let i = 0; i < 5; i += 1) store.recordValidation(loop.id, { report: failing, by: 'hook', advanceOnContinue: true });
    // An agent naming its checkpoints like the loop's own gains no protection.
    for (let i = 0; i < KEPT_CHECKPOINTS + 10; i += 1) store.createCheckpoint(task.id, { trigger: 'auto_iteration', agentContext: { step: i } });
    const rows = store.db.prepare('SELECT origin FROM checkpoints WHERE task_id = ?').all(task.id) as { origin: string }[];
    expect(rows.filter((row) => row.origin === 'agent')).toHaveLength(KEPT_CHECKPOINTS);
    expect(rows.filter((row) => row.origin === 'loop')).toHaveLength(6); // start + 5 iterations
    expect(store.history(loop.id).every((record) => record.checkpointId !== null)).toBe(true);
    expect(store.resumePoint(task.id).agentContext).toEqual({ step: KEPT_CHECKPOINTS + 9 });
  });

  it('keeps agent context across iterations', () => {
    const store = fresh();
    const { task, loop } = started(store);
    store.createCheckpoint(task.id, { agentContext: { filesModified: ['src/auth.ts'] } });
    store.recordValidation(loop.id, { report: failing, by: 'hook', advanceOnContinue: true });
    expect(store.resumePoint(task.id)).toMatchObject({ iterationNumber: 2, agentContext: { filesModified: ['src/auth.ts'] } });
  });

  it('records who set the rules: the agent by default, a person approved from the start', () => {
    const store = fresh();
    const agents = started(store).loop;
    expect(agents).toMatchObject({ rulesSetBy: 'agent', rulesApprovedBy: null, rulesApprovedAt: null });
    const task = store.createTask({ title: 'theirs' });
    const persons = store.startLoop({ taskId: task.id, config: {}, rulesSetBy: { by: 'person', who: 'ada (isdlc loop start in a terminal)' } });
    expect(persons).toMatchObject({ rulesSetBy: 'person', rulesApprovedBy: 'ada (isdlc loop start in a terminal)', rulesApprovedAt: persons.startedAt });
  });

  it("approves a live loop's rules once, with who and when; an ended loop is refused", () => {
    const store = fresh();
    const { task, loop } = started(store, { validationRules: ['tests_pass'] });
    const first = store.approveRules(loop.id, 'ada (isdlc loop approve)');
    expect(first).toMatchObject({ already: false, loop: { rulesApprovedBy: 'ada (isdlc loop approve)', rulesSetBy: 'agent' } });
    expect(first.loop.rulesApprovedAt).not.toBeNull();
    expect(store.approveRules(loop.id, 'bob (isdlc loop approve)')).toMatchObject({ already: true, loop: { rulesApprovedBy: 'ada (isdlc loop approve)' } });
    expect(store.activity(task.id).map((entry) => entry.kind)).toContain('rules_approved');
    store.cancel(loop.id, 'done');
    const other = started(store).loop;
    store.cancel(other.id, 'done');
    expect(() => store.approveRules(other.id, 'ada')).toThrow(/has ended \(cancelled.*approving its rules needs a running loop/);
  });

  it('upgrades a loop store of the first schema in place: its loops count as set by the agent, unapproved', () => {
    const dir = storeFolder();
    mkdirSync(dir);
    const old = new Db(join(dir, 'loop.db'), { busyTimeoutMs: 1000 });
    old.exec(MIGRATIONS[0]!);
    old.exec('PRAGMA user_version = 1');
    const at = '2025-01-01T00:00:00.000Z';
    old.prepare("INSERT INTO tasks (id, title, status, created_at, updated_at) VALUES ('T-1', 'old', 'in_progress', ?, ?)").run(at, at);
    const config = JSON.stringify(parseIterationConfig({ validationRules: ['tests_pass'] }));
    old.prepare("INSERT INTO loops (id, task_id, status, config, started_at, updated_at) VALUES ('L-1', 'T-1', 'active', ?, ?, ?)").run(config, at, at);
    old.close();
    const store = LoopStore.open(dir);
    expect(Number(store.db.pragmaValue('user_version'))).toBe(MIGRATIONS.length);
    expect(store.loop('L-1')).toMatchObject({ rulesSetBy: 'agent', rulesApprovedAt: null, status: 'active' });
    expect(store.approveRules('L-1', 'ada').loop.rulesApprovedBy).toBe('ada');
  });
});
