// An iteration loop's stop hook, as a real Stop / SubagentStop hook: while a loop bound to this session
// (and subagent) runs, the end of a turn is validated; the agent keeps working until the rules pass with
// a completion promise, it declares BLOCKED, or a safety limit hands the loop to a person. Every block
// moves the loop on by one iteration, so the loop's own iteration limit caps the blocks whatever the
// host counts.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineGuard } from '../engine/guard.js';
import { loadLoop } from '../loop/load.js';
import { VALIDATION_BUDGET_MS } from '../loop/timing.js';

export const iterationLoop = defineGuard({
  id: 'iteration-loop',
  description: 'At the end of a turn, validates the loop bound to this session and keeps the agent working until it completes, is blocked or escalates.',
  on: { Stop: true, SubagentStop: true },
  check({ event, location, guarded, deny, tellUser, log }) {
    if (!event.sessionId || !existsSync(join(location.isdlcDir, 'loop.db'))) return;
    const loop = loadLoop();
    let answer: ReturnType<typeof loop.answerStop>;
    try {
      answer = loop.answerStop({
        isdlcDir: location.isdlcDir,
        root: location.root,
        protect: guarded.protectedPaths(),
        sessionId: event.sessionId,
        agentId: event.name === 'SubagentStop' ? event.agentId : undefined,
        lastMessage: event.stop?.lastMessage ?? '',
        deadline: Date.now() + VALIDATION_BUDGET_MS,
      });
    } catch (error) {
      if (!(error instanceof loop.LoopDbError)) throw error;
      // A loop that cannot be read cannot hold the turn; the person must hear why.
      log({ outcome: 'unreadable', problem: error.message });
      tellUser(`isdlc: no loop can be checked at this stop: ${error.message}`);
      return;
    }
    if (answer.kind === 'none') return;
    if (answer.kind === 'waiting') {
      log({ loop: answer.loopId, outcome: 'awaiting-approval' });
      tellUser(answer.userMessage);
      return;
    }
    if (answer.kind === 'block') {
      log({ loop: answer.loopId, outcome: 'continue', iteration: answer.iteration });
      deny(answer.reason);
      tellUser(answer.userMessage);
      return;
    }
    log({ loop: answer.loopId, outcome: answer.status });
    tellUser(answer.userMessage);
  },
});
