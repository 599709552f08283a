// The loop's MCP tools of `isdlc mcp`. The surface is kept small on purpose: the old iteration-loop
// server's 55 tools cost about 6,400 tokens of schema in every session.
import { AGENT_DEFINITION_DIRS } from '../hosts/index.js';
import type { ProtectedPaths } from '../sandbox/os-sandbox.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type * as LoopApi from '../loop/api.js';
import { AgentDefaultsError } from '../loop/agent-defaults.js';
import type { Loop, LoopStore, Task } from '../loop/store.js';
import { startTaskLoop } from '../loop/task-loop.js';
import { needs, replier, text, ToolInputError } from './replies.js';
import { compactReport, completeTag, configSummary, failingMessages, historyRows, loopSummary, resumeInstructions } from './views.js';
import { locateProject } from './workflow-tools.js';

export interface ToolContext {
  /** Absolute project root: rules run and resolve paths here. */
  root: string;
  /** What the OS sandbox keeps read-only while command rules run: the project's guarded set, as it is now. */
  protect(): ProtectedPaths;
  /** The loop bundle (dist/loop.cjs in a build). */
  loop(): typeof LoopApi;
  /** The project's loop store, opened on first use. */
  store(): LoopStore;
}

// Ranges and whole-number checks are the loop configuration's own (loop-config.ts): one place, one message.
const count = (what = 'a whole number') => z.number(needs(what));
const taskId = () => text('a task id from task_create (T-…)');
const metadata = () => z.record(z.string(), z.unknown(), needs('an object')).optional();

export function registerTools(server: McpServer, context: ToolContext): void {
  const api = context.loop();
  const expected = (error: unknown): boolean =>
    error instanceof ToolInputError ||
    error instanceof AgentDefaultsError ||
    error instanceof api.LoopStoreError ||
    error instanceof api.LoopConfigError ||
    error instanceof api.LoopDbError;

  const reply = replier(expected);

  /** What starting a loop answers; the marker in its message binds the loop at the caller's PostToolUse (loop-binder). */
  function startedLoop(loop: Loop, task: Task): Record<string, unknown> {
    const { maxIterations, circuitBreakerThreshold } = loop.config;
    const rules = loop.config.validationRules.map((rule) => rule.name);
    return {
      taskId: task.id,
      loopId: loop.id,
      iterationNumber: loop.iteration,
      maxIterations,
      rules,
      message:
        `${api.markerFor(loop.id)} Loop ${loop.id} started on task ${task.id} ("${task.title}"): iteration 1 of ${maxIterations}` +
        `${rules.length > 0 ? `, rules: ${rules.join(', ')}` : ', no rules'}. ` +
        `This session's turn will not end until the rules pass and your final message carries ${completeTag(loop.config)}, ` +
        `you declare <promise>BLOCKED</promise> with a reason, or a limit (${maxIterations} iterations, ` +
        `${circuitBreakerThreshold} failures in a row) hands the loop to a person. iteration_validate runs the rules at any time.` +
        api.approvalNote(loop, api.ruleSandbox()),
    };
  }

  server.registerTool(
    'task_create',
    {
      description: 'Create a task: the unit of work a loop runs on.',
      inputSchema: { title: text(), description: text().optional(), assignedAgent: text().optional(), metadata: metadata() },
    },
    (input) => reply('task_create', () => context.store().createTask(input)),
  );

  server.registerTool(
    'task_get',
    { description: 'A task with a summary of its loop and its count of work products.', inputSchema: { id: taskId() } },
    ({ id }) =>
      reply('task_get', () => {
        const store = context.store();
        const task = store.task(id);
        const loop = store.loopOfTask(id);
        return { task, loop: loop ? loopSummary(loop) : null, workProducts: store.workProductCount(id) };
      }),
  );

  server.registerTool(
    'task_update',
    {
      description: 'Change a task. Status blocked (needs blockedReason) ends its running loop for a person to decide.',
      inputSchema: {
        id: taskId(),
        status: z.enum(api.TASK_STATUSES, needs(`one of ${api.TASK_STATUSES.join(', ')}`)).optional(),
        notes: text().optional(),
        blockedReason: text().optional(),
        metadata: metadata(),
        assignedAgent: text().optional(),
      },
    },
    ({ id, ...change }) => reply('task_update', () => context.store().updateTask(id, change)),
  );

  server.registerTool(
    'checkpoint_create',
    {
      description: 'Save where the work stands (agentContext: any JSON) to resume from later.',
      inputSchema: {
        taskId: taskId(),
        trigger: text().optional(),
        executionPhase: text().optional(),
        executionStep: z.union([z.string(), z.number()], needs('a string or a number')).optional(),
        agentContext: z.unknown().optional(),
        draftContent: text().optional(),
        draftType: text().optional(),
        expiresInMinutes: z.number(needs('a number of minutes')).positive(needs('a positive number of minutes')).optional(),
      },
    },
    ({ taskId: id, ...input }) =>
      reply('checkpoint_create', () => {
        const checkpoint = context.store().createCheckpoint(id, input);
        return { checkpointId: checkpoint.id, sequence: checkpoint.sequence, iterationNumber: checkpoint.iterationNumber };
      }),
  );

  server.registerTool(
    'checkpoint_resume',
    {
      description: "Resume a task: the latest (or given) checkpoint's state, the loop's history and what to do next.",
      inputSchema: { taskId: taskId(), checkpointId: text('a checkpoint id (CP-…)').optional() },
    },
    ({ taskId: id, checkpointId }) =>
      reply('checkpoint_resume', () => {
        const store = context.store();
        const task = store.task(id);
        const checkpoint = store.resumePoint(id, checkpointId);
        const loop = store.loopOfTask(id);
        const history = loop ? store.history(loop.id) : [];
        return {
          taskId: id,
          taskStatus: task.status,
          checkpointId: checkpoint.id,
          createdAt: checkpoint.createdAt,
          trigger: checkpoint.trigger,
          executionPhase: checkpoint.executionPhase,
          executionStep: checkpoint.executionStep,
          iterationNumber: checkpoint.iterationNumber,
          iterationConfig: configSummary(checkpoint.iterationConfig),
          agentContext: checkpoint.agentContext,
          draft: checkpoint.draftContent === null ? null : { type: checkpoint.draftType, content: checkpoint.draftContent },
          validationState: checkpoint.validationState,
          loop: loop ? loopSummary(loop) : null,
          iterationHistory: historyRows(history),
          resumeInstructions: resumeInstructions(task, loop, history, checkpoint),
        };
      }),
  );

  server.registerTool(
    'iteration_start',
    {
      description: 'Start a loop on a task: your turn ends only when its rules pass and you declare completion.',
      inputSchema: {
        taskId: taskId(),
        maxIterations: count().optional().describe(`default ${api.DEFAULT_MAX_ITERATIONS}, at most ${api.MAX_ITERATIONS_CEILING}`),
        circuitBreakerThreshold: count().optional().describe('failed iterations in a row that end the loop'),
        completionPromises: z.array(z.string(), needs('a list of strings')).optional(),
        validationRules: z
          .array(z.unknown(), needs('a list of rules'))
          .optional()
          .describe(
            '"tests_pass", "compiles", "lint_clean", or {type:"command",command} {type:"file_exists",path} ' +
              '{type:"content_pattern",pattern,target?} {type:"coverage",minCoverage}; name optional',
          ),
        prompt: text().optional().describe('the task, repeated to you each iteration'),
      },
    },
    ({ taskId: id, ...settings }) =>
      reply('iteration_start', () => {
        const store = context.store();
        const task = store.task(id);
        const config = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
        return startedLoop(store.startLoop({ taskId: id, config }), task);
      }),
  );

  server.registerTool(
    'loop_start',
    {
      description: 'Start a loop on a new task: your turn ends only when its rules pass and you declare completion.',
      inputSchema: {
        prompt: text('the task, in a sentence or more').describe('the task, repeated to you each iteration'),
        agent: text('an agent name').optional().describe("defaults from this phase agent's config"),
        rules: z.array(z.string(), needs('a list of commands')).optional().describe('commands that must exit 0'),
        maxIterations: count().optional(),
        circuitBreakerThreshold: count().optional(),
        promise: text().optional().describe('completion promise text, default COMPLETE'),
      },
    },
    ({ circuitBreakerThreshold, ...request }) =>
      reply('loop_start', () => {
        if (request.prompt.trim() === '') throw new ToolInputError('say what the task is: prompt "make the login tests pass"');
        const { task, loop } = startTaskLoop(
          context.store(),
          { ...locateProject(context.root), agentDirs: AGENT_DEFINITION_DIRS },
          { ...request, circuitBreaker: circuitBreakerThreshold },
        );
        return startedLoop(loop, task);
      }),
  );

  server.registerTool(
    'iteration_validate',
    {
      description: "Run the loop's rules now and decide: CONTINUE, COMPLETE, BLOCKED or ESCALATE.",
      inputSchema: {
        taskId: taskId(),
        agentOutput: text().optional().describe('your final message; a <promise> counts only here'),
      },
    },
    ({ taskId: id, agentOutput }) =>
      reply('iteration_validate', async () => {
        const store = context.store();
        const loop = store.requireLoopOfTask(id);
        if (loop.status !== 'active') {
          throw new ToolInputError(
            `loop ${loop.id} of task ${id} has ended (${loop.status}${loop.endReason ? `: ${loop.endReason}` : ''}); iteration_status shows its history`,
          );
        }
        const report = await api.validateLoop(loop, context.root, context.protect(), agentOutput ?? '');
        const promise = agentOutput ? api.detectPromise(agentOutput, api.promiseTexts(loop.config.completionPromises)) : undefined;
        const { decision, loop: after } = store.recordValidation(loop.id, { report, promise, by: 'tool' });
        const failing = failingMessages(report);
        return {
          taskId: id,
          iterationNumber: loop.iteration,
          validationPassed: report.overallPassed,
          completionSignal: decision.signal,
          ...(promise ? { detectedPromise: promise.promise } : {}),
          feedback: [...failing, ...decision.reasons],
          score: report.score,
          validationReport: compactReport(report),
          message: nextStep(after, decision.signal, report.overallPassed),
        };
      }),
  );

  function nextStep(loop: Loop, signal: string, passed: boolean): string {
    const at = `iteration ${loop.iteration} of ${loop.config.maxIterations}`;
    if (signal === 'COMPLETE') return `Loop ${loop.id} completed at ${at}. iteration_complete gives the summary; work_product_store keeps results.`;
    if (signal === 'BLOCKED') return `Loop ${loop.id} ended blocked at ${at}; the task waits for a person.`;
    if (signal === 'ESCALATE') return `Loop ${loop.id} stopped at ${at} and is handed to a person.`;
    if (passed) return `Every rule passes at ${at}: end your final message with ${completeTag(loop.config)}, or call iteration_complete.`;
    return `Iteration ${loop.iteration} of ${loop.config.maxIterations} failed: fix what fails, call iteration_next, then iteration_validate again.`;
  }

  server.registerTool(
    'iteration_next',
    { description: 'Move a validated, still running loop to its next iteration.', inputSchema: { taskId: taskId(), notes: text().optional() } },
    ({ taskId: id, notes }) =>
      reply('iteration_next', () => {
        const store = context.store();
        const moved = store.next(id, notes);
        const max = moved.loop.config.maxIterations;
        return {
          taskId: id,
          iterationNumber: moved.iteration,
          maxIterations: max,
          checkpointId: moved.checkpointId,
          message: `Advanced to iteration ${moved.iteration} of ${max}${moved.iteration === max ? ' (the last)' : ''}. Fix what failed, then call iteration_validate.`,
        };
      }),
  );

  server.registerTool(
    'iteration_complete',
    {
      description: 'Finish a loop whose latest validation passed; returns its history.',
      inputSchema: { taskId: taskId(), completionPromise: text().optional() },
    },
    ({ taskId: id, completionPromise }) =>
      reply('iteration_complete', () => {
        const store = context.store();
        const loop = store.complete(id, completionPromise);
        const history = store.history(loop.id);
        const scored = history.filter((record) => record.score !== null);
        return {
          taskId: id,
          totalIterations: loop.iteration,
          finalValidationScore: scored[scored.length - 1]?.score ?? 0,
          iterationHistory: historyRows(history),
          completedAt: loop.endedAt,
          message: `Loop ${loop.id} completed after ${loop.iteration} iteration(s). work_product_store keeps results.`,
        };
      }),
  );

  server.registerTool(
    'work_product_store',
    {
      description: 'Store a result of the task (design, code summary, report, notes).',
      inputSchema: { taskId: taskId(), type: text(), title: text(), content: text() },
    },
    (input) =>
      reply('work_product_store', () => {
        const product = context.store().storeWorkProduct(input);
        return { id: product.id, taskId: product.taskId, type: product.type, title: product.title };
      }),
  );

  server.registerTool(
    'iteration_status',
    { description: "A loop's state, session binding, history and what fails now.", inputSchema: { taskId: taskId() } },
    ({ taskId: id }) =>
      reply('iteration_status', () => {
        const store = context.store();
        const loop = store.requireLoopOfTask(id);
        const history = store.history(loop.id);
        const validated = history.filter((record) => record.validatedAt !== null);
        let consecutiveFailures = 0;
        for (const record of [...validated].reverse()) {
          if (record.passed) break;
          consecutiveFailures += 1;
        }
        return {
          taskId: id,
          loopId: loop.id,
          status: loop.status,
          iteration: loop.iteration,
          maxIterations: loop.config.maxIterations,
          consecutiveFailures,
          circuitBreakerThreshold: loop.config.circuitBreakerThreshold,
          bound: loop.sessionId !== null,
          ...(loop.agentId ? { subagent: loop.agentType ?? loop.agentId } : {}),
          rules: loop.config.validationRules.map((rule) => rule.name),
          endReason: loop.endReason,
          history: historyRows(history, true),
          failing: failingMessages(validated[validated.length - 1]?.report),
        };
      }),
  );
}
