// The loops still running in a project, as a few facts a session needs when it starts or picks up again
// (session-context): which loop, where it stands, what ends it, whom it holds.
import { completeTag } from './messages.js';
import { LoopStore } from './store.js';

export interface LiveLoop {
  id: string;
  taskTitle: string;
  iteration: number;
  maxIterations: number;
  rules: string[];
  /** The tag that completes it, as the agent must write it. */
  completeTag: string;
  sessionId: string | null;
  agentId: string | null;
  agentType: string | null;
}

/** The running loops, newest first; read-only, so looking never changes the store. */
export function liveLoops(isdlcDir: string): LiveLoop[] {
  const store = LoopStore.open(isdlcDir, { readonly: true });
  try {
    return store.loops({ activeOnly: true }).map((loop) => ({
      id: loop.id,
      taskTitle: store.task(loop.taskId).title,
      iteration: loop.iteration,
      maxIterations: loop.config.maxIterations,
      rules: loop.config.validationRules.map((rule) => rule.name),
      completeTag: completeTag(loop.config),
      sessionId: loop.sessionId,
      agentId: loop.agentId,
      agentType: loop.agentType,
    }));
  } finally {
    store.close();
  }
}
