// The Stop / SubagentStop answer for a loop: find the live loop bound to this session (and subagent),
// validate, and either let the turn end or keep the agent working. A session never answers for another
// session's loop, so a loop left behind by a crash traps nobody.
import { ruleSandbox, type ProtectedPaths } from '../sandbox/os-sandbox.js';
import { awaitingApproval, ruleContext, unvouched, waitingForPersonMessage } from './approval.js';
import { continueReason, endMessage, progressMessage } from './messages.js';
import { detectPromise, promiseTexts } from './promise.js';
import { LoopStore, LoopStoreError } from './store.js';
import { validateInWorker } from './validate-in-worker.js';

export interface StopInput {
  isdlcDir: string;
  root: string;
  /** What the OS sandbox keeps read-only while the rules run. */
  protect: ProtectedPaths;
  sessionId: string;
  /** Set for SubagentStop: the subagent that is finishing. */
  agentId?: string | undefined;
  lastMessage: string;
  /** Epoch milliseconds by which the answer must be ready. */
  deadline: number;
}

export type StopAnswer =
  | { kind: 'none' }
  /** The loop's command rules wait for a person's approval: the turn ends unvalidated, the person is told. */
  | { kind: 'waiting'; userMessage: string; loopId: string }
  | { kind: 'block'; reason: string; userMessage: string; loopId: string; iteration: number }
  | { kind: 'end'; userMessage: string; loopId: string; status: string };

export function answerStop(input: StopInput): StopAnswer {
  const store = LoopStore.open(input.isdlcDir);
  try {
    const loop = store.loopBoundTo(input.sessionId, input.agentId);
    if (!loop) return { kind: 'none' };
    // Probed only for rules that need a person's word without one (the probe starts bwrap once).
    if (unvouched(loop)) {
      const sandbox = ruleSandbox();
      if (awaitingApproval(loop, sandbox)) return { kind: 'waiting', userMessage: waitingForPersonMessage(loop, sandbox), loopId: loop.id };
    }
    const task = store.task(loop.taskId);
    const report = validateInWorker({
      rules: loop.config.validationRules,
      context: { root: input.root, protect: input.protect, agentOutput: input.lastMessage, loop: ruleContext(loop) },
      deadline: input.deadline,
    });
    const promise = detectPromise(input.lastMessage, promiseTexts(loop.config.completionPromises));
    let outcome;
    try {
      outcome = store.recordValidation(loop.id, { report, promise, by: 'hook', advanceOnContinue: true });
    } catch (error) {
      // Ended meanwhile (a person cancelled it, a tool completed it): nothing left to hold the turn for.
      if (error instanceof LoopStoreError) return { kind: 'none' };
      throw error;
    }
    if (outcome.decision.signal === 'CONTINUE') {
      return {
        kind: 'block',
        reason: continueReason(outcome.loop, outcome.decision, report, loop.iteration),
        userMessage: progressMessage(outcome.loop, report, loop.iteration),
        loopId: loop.id,
        iteration: outcome.loop.iteration,
      };
    }
    return { kind: 'end', userMessage: endMessage(outcome.loop, task), loopId: loop.id, status: outcome.loop.status };
  } finally {
    store.close();
  }
}
