// A task and its loop in one step: `isdlc loop start` and the MCP tool loop_start. The loop's settings come
// from what the caller names, else from the agent's defaults (agent-defaults.ts), else the loop's own.
// Not part of the loop bundle: the store is handed in, so the callers' bundles pull in no SQLite.
import { agentIterationDefaults, type AgentProject } from './agent-defaults.js';
import type { Loop, LoopStore, Task } from './store.js';

export interface TaskLoopRequest {
  /** The task, repeated to the agent at each iteration. */
  prompt: string;
  /** Take defaults from this agent's phase (and bind the loop to that agent type). */
  agent?: string;
  maxIterations?: number;
  circuitBreaker?: number;
  /** Commands that must exit 0; they replace the agent's rules. */
  rules?: string[];
  /** The completion promise's text (`<promise>TEXT</promise>`). */
  promise?: string;
  /** Bind to this session now, instead of through the marker at the caller's PostToolUse. */
  sessionId?: string;
  /** Who chose the rules: a person's are approved from the start; an agent's run only in an OS sandbox or once approved. */
  rulesSetBy?: { by: 'agent' } | { by: 'person'; who: string };
}

function titleOf(prompt: string): string {
  const first = prompt.trim().split('\n')[0]!.trim();
  return first.length <= 80 ? first : `${first.slice(0, 77)}...`;
}

/**
 * Creates the task and starts its loop. Throws AgentDefaultsError (no defaults for the agent), or the
 * store's own errors; a loop the store refuses leaves its task cancelled, saying why.
 */
export function startTaskLoop(store: LoopStore, project: AgentProject, request: TaskLoopRequest): { task: Task; loop: Loop } {
  const prompt = request.prompt.trim();
  const defaults = request.agent ? agentIterationDefaults(project, request.agent) : undefined;
  const config: Record<string, unknown> = { prompt };
  const max = request.maxIterations ?? defaults?.maxIterations;
  if (max !== undefined) config['maxIterations'] = max;
  if (request.circuitBreaker !== undefined) config['circuitBreakerThreshold'] = request.circuitBreaker;
  const rules = request.rules?.length ? request.rules.map((command) => ({ type: 'command', command })) : defaults?.validationRules;
  if (rules) config['validationRules'] = rules;
  if (request.promise) config['completionPromises'] = [`<promise>${request.promise.trim()}</promise>`, '<promise>BLOCKED</promise>'];
  else if (defaults?.completionPromises) config['completionPromises'] = defaults.completionPromises;

  const task = store.createTask({ title: titleOf(prompt), description: prompt, assignedAgent: request.agent });
  try {
    const loop = store.startLoop({
      taskId: task.id,
      config,
      sessionId: request.sessionId,
      agentType: request.agent,
      rulesSetBy: request.rulesSetBy ?? { by: 'agent' },
    });
    return { task: store.task(task.id), loop };
  } catch (error) {
    store.updateTask(task.id, { status: 'cancelled', notes: `loop not started: ${(error as Error).message}` });
    throw error;
  }
}
