// The loop store: tasks, loops, checkpoints, the iteration history, work products and an activity log in
// `.isdlc/loop.db`. Every state transition is one `BEGIN IMMEDIATE` transaction that reads the loop,
// checks it and writes it, so processes that advance one loop at the same time never lose an update.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { LOOP_DB, openLoopDb, type Db } from './db.js';
import type { Statement } from './sqlite.js';
import { closeRecorded, immediate } from './journal-rows.js';
import { decide, type Decision } from './decide.js';
import { parseIterationConfig, type IterationConfig } from './loop-config.js';
import type { DetectedPromise } from './promise.js';
import type { ValidationReport } from './types.js';

export const TASK_STATUSES = ['pending', 'in_progress', 'blocked', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export type LoopStatus = 'active' | 'completed' | 'blocked' | 'escalated' | 'cancelled';

export interface Task {
  id: string;
  title: string;
  description: string | null;
  status: TaskStatus;
  blockedReason: string | null;
  notes: string | null;
  assignedAgent: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface Loop {
  id: string;
  taskId: string;
  status: LoopStatus;
  config: IterationConfig;
  iteration: number;
  consecutiveFailures: number;
  stopBlocks: number;
  sessionId: string | null;
  agentId: string | null;
  agentType: string | null;
  endReason: string | null;
  startedAt: string;
  updatedAt: string;
  endedAt: string | null;
  /** Who set the rules: the agent (MCP, or the CLI in the agent's shell) or a person in a terminal. */
  rulesSetBy: RulesSetBy;
  /** Who let the command rules run without an OS sandbox, and when; a person who set them did by doing so. */
  rulesApprovedBy: string | null;
  rulesApprovedAt: string | null;
}

export type RulesSetBy = 'agent' | 'person';

export interface IterationRecord {
  iteration: number;
  checkpointId: string | null;
  startedAt: string;
  validatedAt: string | null;
  validatedBy: string | null;
  passed: boolean | null;
  score: number | null;
  signal: string | null;
  report: ValidationReport | null;
  promise: string | null;
  notes: string | null;
}

export interface Checkpoint {
  id: string;
  taskId: string;
  loopId: string | null;
  sequence: number;
  trigger: string;
  taskStatus: string;
  taskNotes: string | null;
  executionPhase: string | null;
  executionStep: string | null;
  agentContext: unknown;
  draftContent: string | null;
  draftType: string | null;
  createdAt: string;
  expiresAt: string | null;
  iterationNumber: number;
  iterationConfig: IterationConfig | null;
  completionPromises: string[];
  validationState: unknown;
}

export interface WorkProduct {
  id: string;
  taskId: string;
  type: string;
  title: string;
  content: string;
  createdAt: string;
}

/** A request the store refuses: the message says why and what would work. */
export class LoopStoreError extends Error {}

/** Manual checkpoints kept per task; iteration checkpoints of a live loop are never pruned. */
export const KEPT_CHECKPOINTS = 20;

type Row = Record<string, unknown>;

function newId(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

function json<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function toTask(row: Row): Task {
  return {
    id: String(row['id']),
    title: String(row['title']),
    description: str(row['description']),
    status: row['status'] as TaskStatus,
    blockedReason: str(row['blocked_reason']),
    notes: str(row['notes']),
    assignedAgent: str(row['assigned_agent']),
    metadata: json(row['metadata'], {}),
    createdAt: String(row['created_at']),
    updatedAt: String(row['updated_at']),
  };
}

function toLoop(row: Row): Loop {
  return {
    id: String(row['id']),
    taskId: String(row['task_id']),
    status: row['status'] as LoopStatus,
    config: json(row['config'], {} as IterationConfig),
    iteration: Number(row['iteration']),
    consecutiveFailures: Number(row['consecutive_failures']),
    stopBlocks: Number(row['stop_blocks']),
    sessionId: str(row['session_id']),
    agentId: str(row['agent_id']),
    agentType: str(row['agent_type']),
    endReason: str(row['end_reason']),
    startedAt: String(row['started_at']),
    updatedAt: String(row['updated_at']),
    endedAt: str(row['ended_at']),
    rulesSetBy: row['rules_set_by'] === 'person' ? 'person' : 'agent',
    rulesApprovedBy: str(row['rules_approved_by']),
    rulesApprovedAt: str(row['rules_approved_at']),
  };
}

function toIteration(row: Row): IterationRecord {
  return {
    iteration: Number(row['iteration']),
    checkpointId: str(row['checkpoint_id']),
    startedAt: String(row['started_at']),
    validatedAt: str(row['validated_at']),
    validatedBy: str(row['validated_by']),
    passed: row['passed'] === null ? null : Number(row['passed']) === 1,
    score: row['score'] === null ? null : Number(row['score']),
    signal: str(row['signal']),
    report: json(row['report'], null),
    promise: str(row['promise']),
    notes: str(row['notes']),
  };
}

function toCheckpoint(row: Row): Checkpoint {
  return {
    id: String(row['id']),
    taskId: String(row['task_id']),
    loopId: str(row['loop_id']),
    sequence: Number(row['sequence']),
    trigger: String(row['trigger']),
    taskStatus: String(row['task_status']),
    taskNotes: str(row['task_notes']),
    executionPhase: str(row['execution_phase']),
    executionStep: str(row['execution_step']),
    agentContext: json(row['agent_context'], null),
    draftContent: str(row['draft_content']),
    draftType: str(row['draft_type']),
    createdAt: String(row['created_at']),
    expiresAt: str(row['expires_at']),
    iterationNumber: Number(row['iteration_number']),
    iterationConfig: json(row['iteration_config'], null),
    completionPromises: json(row['completion_promises'], []),
    validationState: json(row['validation_state'], null),
  };
}

export interface StartLoopInput {
  taskId: string;
  config: unknown;
  sessionId?: string | undefined;
  agentId?: string | undefined;
  agentType?: string | undefined;
  /** Absent: the agent (every path but a person's terminal). A person's rules count as approved by them. */
  rulesSetBy?: { by: 'agent' } | { by: 'person'; who: string } | undefined;
}

export interface Binding {
  sessionId: string;
  agentId?: string | undefined;
  agentType?: string | undefined;
}

export interface ValidationOutcome {
  loop: Loop;
  decision: Decision;
  /** Set when the Stop hook moved the loop on: the new iteration. */
  advancedTo?: number;
}

export interface CheckpointInput {
  trigger?: string | undefined;
  executionPhase?: string | undefined;
  executionStep?: string | number | undefined;
  agentContext?: unknown;
  draftContent?: string | undefined;
  draftType?: string | undefined;
  expiresInMinutes?: number | undefined;
}

export class LoopStore {
  readonly db: Db;
  private readonly now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.db = db;
    this.now = now;
  }

  static open(isdlcDir: string, options: { now?: () => Date; readonly?: boolean } = {}): LoopStore {
    return new LoopStore(openLoopDb(join(isdlcDir, LOOP_DB), { readonly: options.readonly ?? false }), options.now);
  }

  close(): void {
    closeRecorded(this.db);
  }

  private readonly statements = new Map<string, Statement>();

  /** A prepared statement, compiled once per store. */
  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  private log(kind: string, taskId: string | null, loopId: string | null, detail: Record<string, unknown> = {}): void {
    this.sql('INSERT INTO activity (at, task_id, loop_id, kind, detail) VALUES (?, ?, ?, ?, ?)').run(
      this.stamp(),
      taskId,
      loopId,
      kind,
      JSON.stringify(detail),
    );
  }

  // ----- tasks -----

  createTask(input: {
    title: string;
    description?: string | undefined;
    assignedAgent?: string | undefined;
    metadata?: Record<string, unknown> | undefined;
  }): Task {
    const title = input.title.trim();
    if (title === '') throw new LoopStoreError('a task needs a non-empty title');
    const id = newId('T');
    const at = this.stamp();
    immediate(this.db, () => {
      this.sql('INSERT INTO tasks (id, title, description, assigned_agent, metadata, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        id,
        title,
        input.description ?? null,
        input.assignedAgent ?? null,
        JSON.stringify(input.metadata ?? {}),
        at,
        at,
      );
      this.log('task_created', id, null, { title });
    });
    return this.task(id);
  }

  findTask(id: string): Task | undefined {
    const row = this.sql('SELECT * FROM tasks WHERE id = ?').get(id) as Row | undefined;
    return row ? toTask(row) : undefined;
  }

  task(id: string): Task {
    const task = this.findTask(id);
    if (!task) throw new LoopStoreError(`no task ${id}: task_create makes one (task ids look like T-1a2b3c4d5e)`);
    return task;
  }

  /**
   * An agent's change to a task (task_update). Marking it blocked, with the reason, ends its live loop
   * (the agent's escape hatch); completing or cancelling it while a loop runs is refused: only a
   * passing validation completes a loop, and only a person cancels one.
   */
  updateTask(
    id: string,
    change: {
      status?: TaskStatus | undefined;
      notes?: string | undefined;
      blockedReason?: string | undefined;
      metadata?: Record<string, unknown> | undefined;
      assignedAgent?: string | undefined;
    },
  ): Task {
    immediate(this.db, () => {
      const task = this.task(id);
      const live = this.liveLoopOfTask(id);
      if (change.status === 'completed' && live) {
        throw new LoopStoreError(
          `task ${id} has a running loop (${live.id}, iteration ${live.iteration}): it completes through iteration_complete once validation passes, or end the loop first`,
        );
      }
      if (change.status === 'cancelled' && live) {
        throw new LoopStoreError(
          `task ${id} has a running loop (${live.id}): cancelling it is a person's decision (\`isdlc loop cancel\`). ` +
            'If you cannot go on, set status blocked with blockedReason, or end your final message with <promise>BLOCKED</promise> and the reason',
        );
      }
      if (change.status === 'blocked' && !(change.blockedReason ?? task.blockedReason)) {
        throw new LoopStoreError('a blocked task needs blockedReason: say what a person has to decide or provide');
      }
      const at = this.stamp();
      this.sql(
        `UPDATE tasks SET status = coalesce(?, status), notes = coalesce(?, notes), blocked_reason = ?,
             metadata = coalesce(?, metadata), assigned_agent = coalesce(?, assigned_agent), updated_at = ? WHERE id = ?`,
      ).run(
        change.status ?? null,
        change.notes ?? null,
        change.status && change.status !== 'blocked' ? null : (change.blockedReason ?? task.blockedReason),
        change.metadata ? JSON.stringify({ ...task.metadata, ...change.metadata }) : null,
        change.assignedAgent ?? null,
        at,
        id,
      );
      if (live && change.status === 'blocked') this.endLoop(live, 'blocked', `task marked blocked: ${change.blockedReason ?? task.blockedReason}`);
      this.log('task_updated', id, live?.id ?? null, { ...change });
    });
    return this.task(id);
  }

  // ----- loops -----

  loop(id: string): Loop {
    const row = this.sql('SELECT * FROM loops WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new LoopStoreError(`no loop ${id}`);
    return toLoop(row);
  }

  private liveLoopOfTask(taskId: string): Loop | undefined {
    const row = this.sql("SELECT * FROM loops WHERE task_id = ? AND status = 'active'").get(taskId) as Row | undefined;
    return row ? toLoop(row) : undefined;
  }

  /** The task's live loop, else its latest one. */
  loopOfTask(taskId: string): Loop | undefined {
    const row = this.sql("SELECT * FROM loops WHERE task_id = ? ORDER BY status = 'active' DESC, started_at DESC, rowid DESC LIMIT 1").get(taskId) as
      Row | undefined;
    return row ? toLoop(row) : undefined;
  }

  /** The task's live (else latest) loop; refused for an unknown task or one that never had a loop. */
  requireLoopOfTask(taskId: string): Loop {
    this.task(taskId);
    const loop = this.loopOfTask(taskId);
    if (!loop) throw new LoopStoreError(`task ${taskId} has no loop: iteration_start begins one`);
    return loop;
  }

  /** The live loop a Stop of this session (and subagent, when inside one) must answer for. */
  loopBoundTo(sessionId: string, agentId: string | undefined): Loop | undefined {
    const row = this.sql("SELECT * FROM loops WHERE status = 'active' AND session_id = ? AND agent_id IS ? ORDER BY started_at DESC LIMIT 1").get(
      sessionId,
      agentId ?? null,
    ) as Row | undefined;
    return row ? toLoop(row) : undefined;
  }

  loops(options: { activeOnly?: boolean; limit?: number } = {}): Loop[] {
    const rows = this.sql(`SELECT * FROM loops ${options.activeOnly ? "WHERE status = 'active'" : ''} ORDER BY started_at DESC, rowid DESC LIMIT ?`).all(
      options.limit ?? 20,
    ) as Row[];
    return rows.map(toLoop);
  }

  startLoop(input: StartLoopInput): Loop {
    const config = parseIterationConfig(input.config);
    const id = newId('L');
    immediate(this.db, () => {
      const task = this.task(input.taskId);
      if (task.status === 'completed' || task.status === 'cancelled') {
        throw new LoopStoreError(`task ${task.id} is ${task.status}: start a loop on a new task`);
      }
      const live = this.liveLoopOfTask(task.id);
      if (live) {
        throw new LoopStoreError(
          `task ${task.id} already has a running loop (${live.id}, iteration ${live.iteration} of ${live.config.maxIterations}): continue it, or cancel it first`,
        );
      }
      if (input.sessionId) this.refuseSecondLoopInScope(input.sessionId, input.agentId);
      const at = this.stamp();
      const person = input.rulesSetBy?.by === 'person' ? input.rulesSetBy.who : undefined;
      this.sql(
        `INSERT INTO loops (id, task_id, status, config, session_id, agent_id, agent_type, started_at, updated_at,
             rules_set_by, rules_approved_by, rules_approved_at)
           VALUES (?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        task.id,
        JSON.stringify(config),
        input.sessionId ?? null,
        input.agentId ?? null,
        input.agentType ?? null,
        at,
        at,
        person === undefined ? 'agent' : 'person',
        person ?? null,
        person === undefined ? null : at,
      );
      this.sql("UPDATE tasks SET status = 'in_progress', blocked_reason = NULL, updated_at = ? WHERE id = ?").run(at, task.id);
      const checkpointId = this.insertCheckpoint(task.id, this.loop(id), { trigger: 'iteration_start', executionPhase: 'iteration', executionStep: 1 });
      this.sql('INSERT INTO iterations (loop_id, iteration, checkpoint_id, started_at) VALUES (?, 1, ?, ?)').run(id, checkpointId, at);
      this.log('loop_started', task.id, id, {
        maxIterations: config.maxIterations,
        rules: config.validationRules.map((rule) => rule.name),
        sessionId: input.sessionId ?? null,
        rulesSetBy: person === undefined ? 'agent' : 'person',
      });
    });
    return this.loop(id);
  }

  private refuseSecondLoopInScope(sessionId: string, agentId: string | undefined): void {
    const other = this.loopBoundTo(sessionId, agentId);
    if (other) {
      throw new LoopStoreError(`this session already runs loop ${other.id} (task ${other.taskId}); finish or cancel it before starting another`);
    }
  }

  /** Ties an unbound live loop to the session (and subagent) that started it. */
  bind(loopId: string, binding: Binding): { bound: boolean; loop: Loop; problem?: string } {
    return immediate(this.db, () => {
      const loop = this.loop(loopId);
      if (loop.status !== 'active') return { bound: false, loop, problem: `loop ${loop.id} has ended (${loop.status})` };
      if (loop.sessionId === binding.sessionId && loop.agentId === (binding.agentId ?? null)) return { bound: false, loop };
      if (loop.sessionId) return { bound: false, loop, problem: `loop ${loop.id} belongs to another session` };
      const other = this.loopBoundTo(binding.sessionId, binding.agentId);
      if (other) return { bound: false, loop, problem: `this session already runs loop ${other.id}; finish or cancel it before starting another` };
      this.sql('UPDATE loops SET session_id = ?, agent_id = ?, agent_type = coalesce(?, agent_type), updated_at = ? WHERE id = ?').run(
        binding.sessionId,
        binding.agentId ?? null,
        binding.agentType ?? null,
        this.stamp(),
        loop.id,
      );
      this.log('loop_bound', loop.taskId, loop.id, { ...binding });
      return { bound: true, loop: this.loop(loop.id) };
    });
  }

  history(loopId: string): IterationRecord[] {
    return (this.sql('SELECT * FROM iterations WHERE loop_id = ? ORDER BY iteration').all(loopId) as Row[]).map(toIteration);
  }

  private currentIteration(loop: Loop): IterationRecord {
    const row = this.sql('SELECT * FROM iterations WHERE loop_id = ? AND iteration = ?').get(loop.id, loop.iteration) as Row | undefined;
    if (!row) throw new LoopStoreError(`loop ${loop.id} has no record of iteration ${loop.iteration}`);
    return toIteration(row);
  }

  private requireActive(loop: Loop, action: string): void {
    if (loop.status !== 'active') {
      throw new LoopStoreError(`loop ${loop.id} has ended (${loop.status}${loop.endReason ? `: ${loop.endReason}` : ''}); ${action} needs a running loop`);
    }
  }

  /**
   * Records one validation of the loop's current iteration and decides what it means. A terminal signal
   * ends the loop. With `advanceOnContinue` (the Stop hook) a CONTINUE also moves the loop to the next
   * iteration, in the same transaction.
   */
  recordValidation(
    loopId: string,
    input: { report: ValidationReport; promise?: DetectedPromise | undefined; by: 'hook' | 'tool'; advanceOnContinue?: boolean },
  ): ValidationOutcome {
    return immediate(this.db, () => {
      const loop = this.loop(loopId);
      this.requireActive(loop, 'validation');
      const previousScores = this.history(loop.id)
        .filter((record) => record.iteration < loop.iteration && record.score !== null)
        .map((record) => record.score as number);
      const decision = decide({
        iteration: loop.iteration,
        maxIterations: loop.config.maxIterations,
        circuitBreakerThreshold: loop.config.circuitBreakerThreshold,
        previousConsecutiveFailures: loop.consecutiveFailures,
        previousScores,
        report: input.report,
        promise: input.promise,
      });
      const at = this.stamp();
      this.sql(
        `UPDATE iterations SET validated_at = ?, validated_by = ?, passed = ?, score = ?, signal = ?, report = ?, promise = ?
           WHERE loop_id = ? AND iteration = ?`,
      ).run(
        at,
        input.by,
        input.report.overallPassed ? 1 : 0,
        input.report.score,
        decision.signal,
        JSON.stringify(input.report),
        input.promise?.promise ?? null,
        loop.id,
        loop.iteration,
      );
      const validationState = {
        lastRun: at,
        passed: input.report.overallPassed,
        score: input.report.score,
        consecutiveFailures: decision.consecutiveFailures,
        circuitBreakerTripped: decision.signal === 'ESCALATE' && decision.consecutiveFailures >= loop.config.circuitBreakerThreshold,
        lastFailureReason: input.report.results.find((result) => !result.passed)?.message ?? null,
        signal: decision.signal,
      };
      this.sql('UPDATE checkpoints SET validation_state = ? WHERE id = (SELECT checkpoint_id FROM iterations WHERE loop_id = ? AND iteration = ?)').run(
        JSON.stringify(validationState),
        loop.id,
        loop.iteration,
      );
      this.log('validated', loop.taskId, loop.id, {
        iteration: loop.iteration,
        by: input.by,
        passed: input.report.overallPassed,
        score: input.report.score,
        signal: decision.signal,
      });

      const outcome: ValidationOutcome = { loop, decision };
      if (decision.signal === 'COMPLETE') this.finishLoop(loop, 'completed', decision.reasons.join('; '));
      else if (decision.signal === 'BLOCKED') this.finishLoop(loop, 'blocked', decision.reasons.join('; '));
      else if (decision.signal === 'ESCALATE') this.finishLoop(loop, 'escalated', decision.reasons.join('; '));
      else if (input.advanceOnContinue) {
        outcome.advancedTo = this.advanceWithin(this.loop(loop.id), { failed: !input.report.overallPassed, stopBlock: true });
      }
      outcome.loop = this.loop(loop.id);
      return outcome;
    });
  }

  /** `iteration_next`: the current iteration must have been validated, the loop live, an iteration left. */
  next(taskId: string, notes?: string): { loop: Loop; iteration: number; checkpointId: string } {
    return immediate(this.db, () => {
      const loop = this.requireLoopOfTask(taskId);
      this.requireActive(loop, 'iteration_next');
      const current = this.currentIteration(loop);
      if (current.validatedAt === null) {
        throw new LoopStoreError(`iteration ${loop.iteration} has not been validated yet: call iteration_validate first`);
      }
      if (notes) this.sql('UPDATE iterations SET notes = ? WHERE loop_id = ? AND iteration = ?').run(notes, loop.id, loop.iteration);
      const iteration = this.advanceWithin(loop, { failed: current.passed !== true, stopBlock: false });
      const after = this.loop(loop.id);
      return { loop: after, iteration, checkpointId: this.currentIteration(after).checkpointId ?? '' };
    });
  }

  /** Moves a live loop on by one iteration; call inside a transaction. */
  private advanceWithin(loop: Loop, how: { failed: boolean; stopBlock: boolean }): number {
    if (loop.iteration >= loop.config.maxIterations) {
      throw new LoopStoreError(`loop ${loop.id} is at its last iteration (${loop.config.maxIterations}): it can only complete or escalate`);
    }
    const next = loop.iteration + 1;
    const at = this.stamp();
    this.sql('UPDATE loops SET iteration = ?, consecutive_failures = ?, stop_blocks = stop_blocks + ?, updated_at = ? WHERE id = ?').run(
      next,
      how.failed ? loop.consecutiveFailures + 1 : 0,
      how.stopBlock ? 1 : 0,
      at,
      loop.id,
    );
    const moved = this.loop(loop.id);
    const checkpointId = this.insertCheckpoint(loop.taskId, moved, { trigger: 'auto_iteration', executionPhase: 'iteration', executionStep: next });
    this.sql('INSERT INTO iterations (loop_id, iteration, checkpoint_id, started_at) VALUES (?, ?, ?, ?)').run(loop.id, next, checkpointId, at);
    this.log('iteration_next', loop.taskId, loop.id, { iteration: next });
    return next;
  }

  /**
   * `iteration_complete`: ends a live loop as completed, only when its current iteration's latest
   * validation passed. A loop that validation already completed is reported as it is.
   */
  complete(taskId: string, promise?: string): Loop {
    return immediate(this.db, () => {
      const loop = this.requireLoopOfTask(taskId);
      if (loop.status === 'completed') return loop;
      this.requireActive(loop, 'iteration_complete');
      const current = this.currentIteration(loop);
      if (current.passed !== true) {
        const failing = current.report?.results.filter((result) => !result.passed).map((result) => result.message) ?? [];
        throw new LoopStoreError(
          current.validatedAt === null
            ? `iteration ${loop.iteration} has not been validated: call iteration_validate; the loop completes only when every rule passes`
            : `the latest validation of iteration ${loop.iteration} failed, so the loop cannot complete: ${failing.join('; ')}`,
        );
      }
      this.sql("UPDATE iterations SET signal = 'COMPLETE', promise = coalesce(?, promise) WHERE loop_id = ? AND iteration = ?").run(
        promise ?? null,
        loop.id,
        loop.iteration,
      );
      this.finishLoop(loop, 'completed', `completed through iteration_complete after ${loop.iteration} iteration(s)`);
      return this.loop(loop.id);
    });
  }

  /**
   * A person's word that the loop's command rules may run where no OS sandbox holds them. Recorded once;
   * asking again changes nothing and says who approved.
   */
  approveRules(loopId: string, by: string): { loop: Loop; already: boolean } {
    return immediate(this.db, () => {
      const loop = this.loop(loopId);
      this.requireActive(loop, 'approving its rules');
      if (loop.rulesApprovedAt !== null) return { loop, already: true };
      const at = this.stamp();
      this.sql('UPDATE loops SET rules_approved_by = ?, rules_approved_at = ?, updated_at = ? WHERE id = ?').run(by, at, at, loop.id);
      this.log('rules_approved', loop.taskId, loop.id, {
        by,
        rules: loop.config.validationRules.filter((rule) => rule.type === 'command').map((rule) => rule.name),
      });
      return { loop: this.loop(loop.id), already: false };
    });
  }

  cancel(loopId: string, reason: string): Loop {
    return immediate(this.db, () => {
      const loop = this.loop(loopId);
      this.requireActive(loop, 'cancel');
      this.endLoop(loop, 'cancelled', reason);
      this.sql("UPDATE tasks SET status = 'cancelled', updated_at = ? WHERE id = ? AND status NOT IN ('completed')").run(this.stamp(), loop.taskId);
      return this.loop(loop.id);
    });
  }

  /** Ends the loop and puts its task in the matching status. */
  private finishLoop(loop: Loop, status: 'completed' | 'blocked' | 'escalated', reason: string): void {
    this.endLoop(loop, status, reason);
    const taskStatus: TaskStatus = status === 'completed' ? 'completed' : 'blocked';
    this.sql('UPDATE tasks SET status = ?, blocked_reason = ?, updated_at = ? WHERE id = ?').run(
      taskStatus,
      taskStatus === 'blocked' ? reason : null,
      this.stamp(),
      loop.taskId,
    );
  }

  private endLoop(loop: Loop, status: Exclude<LoopStatus, 'active'>, reason: string): void {
    const at = this.stamp();
    this.sql('UPDATE loops SET status = ?, end_reason = ?, ended_at = ?, updated_at = ? WHERE id = ?').run(status, reason, at, at, loop.id);
    this.insertCheckpoint(loop.taskId, this.loop(loop.id), { trigger: `loop_${status}`, executionPhase: 'iteration', executionStep: loop.iteration });
    this.log(`loop_${status}`, loop.taskId, loop.id, { iteration: loop.iteration, reason });
    this.pruneCheckpoints(loop.taskId);
  }

  // ----- checkpoints -----

  private insertCheckpoint(taskId: string, loop: Loop | undefined, input: CheckpointInput, origin: 'loop' | 'agent' = 'loop'): string {
    const task = this.task(taskId);
    const id = newId('CP');
    const at = this.now();
    const sequence = Number((this.sql('SELECT coalesce(max(sequence), 0) + 1 AS next FROM checkpoints WHERE task_id = ?').get(taskId) as Row)['next']);
    const previous = this.sql('SELECT agent_context FROM checkpoints WHERE task_id = ? ORDER BY sequence DESC LIMIT 1').get(taskId) as Row | undefined;
    const agentContext = input.agentContext !== undefined ? JSON.stringify(input.agentContext) : (str(previous?.['agent_context']) ?? null);
    this.sql(
      `INSERT INTO checkpoints (id, task_id, loop_id, sequence, trigger, origin, task_status, task_notes, task_metadata, blocked_reason,
           assigned_agent, execution_phase, execution_step, agent_context, draft_content, draft_type, created_at, expires_at,
           iteration_config, iteration_number, completion_promises)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      taskId,
      loop?.id ?? null,
      sequence,
      input.trigger ?? 'manual',
      origin,
      task.status,
      task.notes,
      JSON.stringify(task.metadata),
      task.blockedReason,
      task.assignedAgent,
      input.executionPhase ?? null,
      input.executionStep === undefined ? null : String(input.executionStep),
      agentContext,
      input.draftContent ?? null,
      input.draftType ?? null,
      at.toISOString(),
      input.expiresInMinutes ? new Date(at.getTime() + input.expiresInMinutes * 60_000).toISOString() : null,
      loop ? JSON.stringify(loop.config) : null,
      loop?.iteration ?? 0,
      JSON.stringify(loop?.config.completionPromises ?? []),
    );
    return id;
  }

  /** `checkpoint_create`: a snapshot of the task and, while a loop runs, its iteration. */
  createCheckpoint(taskId: string, input: CheckpointInput): Checkpoint {
    const id = immediate(this.db, () => {
      const loop = this.liveLoopOfTask(taskId);
      const created = this.insertCheckpoint(taskId, loop, input, 'agent');
      this.log('checkpoint_created', taskId, loop?.id ?? null, { id: created, trigger: input.trigger ?? 'manual' });
      this.pruneCheckpoints(taskId);
      return created;
    });
    return this.checkpoint(id);
  }

  checkpoint(id: string): Checkpoint {
    const row = this.sql('SELECT * FROM checkpoints WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new LoopStoreError(`no checkpoint ${id}`);
    return toCheckpoint(row);
  }

  /** The named checkpoint, or the task's latest one that has not expired. */
  resumePoint(taskId: string, checkpointId?: string): Checkpoint {
    this.task(taskId);
    if (checkpointId) {
      const checkpoint = this.checkpoint(checkpointId);
      if (checkpoint.taskId !== taskId) throw new LoopStoreError(`checkpoint ${checkpointId} belongs to task ${checkpoint.taskId}, not ${taskId}`);
      return checkpoint;
    }
    const row = this.sql('SELECT * FROM checkpoints WHERE task_id = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY sequence DESC LIMIT 1').get(
      taskId,
      this.stamp(),
    ) as Row | undefined;
    if (!row) throw new LoopStoreError(`task ${taskId} has no checkpoint to resume from`);
    return toCheckpoint(row);
  }

  /**
   * Keeps a task's checkpoints bounded: expired ones go, an ended loop keeps only its last checkpoint, and
   * of the checkpoints agents take themselves the newest KEPT_CHECKPOINTS stay. The iteration checkpoints
   * of a live loop are never removed.
   */
  private pruneCheckpoints(taskId: string): void {
    const live = this.liveLoopOfTask(taskId)?.id ?? null;
    const protectedRow = `(origin = 'loop' AND loop_id IS ?)`;
    this.sql(`DELETE FROM checkpoints WHERE task_id = ? AND expires_at IS NOT NULL AND expires_at <= ? AND NOT ${protectedRow}`).run(
      taskId,
      this.stamp(),
      live,
    );
    this.sql(
      `DELETE FROM checkpoints WHERE task_id = ? AND origin = 'loop' AND loop_id IS NOT ? AND sequence <
           (SELECT max(sequence) FROM checkpoints last WHERE last.loop_id = checkpoints.loop_id AND last.origin = 'loop')`,
    ).run(taskId, live);
    this.sql(
      `DELETE FROM checkpoints WHERE task_id = ? AND origin = 'agent' AND id NOT IN
           (SELECT id FROM checkpoints WHERE task_id = ? AND origin = 'agent' ORDER BY sequence DESC LIMIT ?)`,
    ).run(taskId, taskId, KEPT_CHECKPOINTS);
    this.sql('UPDATE iterations SET checkpoint_id = NULL WHERE checkpoint_id IS NOT NULL AND checkpoint_id NOT IN (SELECT id FROM checkpoints)').run();
  }

  // ----- work products -----

  storeWorkProduct(input: { taskId: string; type: string; title: string; content: string }): WorkProduct {
    const id = newId('WP');
    immediate(this.db, () => {
      this.task(input.taskId);
      this.sql('INSERT INTO work_products (id, task_id, type, title, content, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
        id,
        input.taskId,
        input.type,
        input.title,
        input.content,
        this.stamp(),
      );
      this.log('work_product_stored', input.taskId, null, { id, type: input.type, title: input.title, chars: input.content.length });
    });
    return this.workProducts(input.taskId).find((product) => product.id === id)!;
  }

  workProductCount(taskId: string): number {
    return Number((this.sql('SELECT count(*) AS n FROM work_products WHERE task_id = ?').get(taskId) as Row)['n']);
  }

  workProducts(taskId: string): WorkProduct[] {
    return (this.sql('SELECT * FROM work_products WHERE task_id = ? ORDER BY created_at, rowid').all(taskId) as Row[]).map((row) => ({
      id: String(row['id']),
      taskId: String(row['task_id']),
      type: String(row['type']),
      title: String(row['title']),
      content: String(row['content']),
      createdAt: String(row['created_at']),
    }));
  }

  activity(taskId: string, limit = 50): { at: string; kind: string; loopId: string | null; detail: unknown }[] {
    return (this.sql('SELECT * FROM activity WHERE task_id = ? ORDER BY seq DESC LIMIT ?').all(taskId, limit) as Row[])
      .reverse()
      .map((row) => ({ at: String(row['at']), kind: String(row['kind']), loopId: str(row['loop_id']), detail: json(row['detail'], null) }));
  }
}
