// The MCP server validates in its own process, where waiting is no problem; a Stop hook runs the same
// rules on a worker thread instead (stop.ts, validate-in-worker.ts).
import { ruleSandbox, type ProtectedPaths } from '../sandbox/os-sandbox.js';
import { awaitingApproval, ruleContext, unvouched, waitingForAgentMessage } from './approval.js';
import { LoopStoreError, type Loop } from './store.js';
import type { ValidationReport } from './types.js';
import { validate } from './validate.js';

/**
 * A loop's rules, run for iteration_validate: refused, with what to ask the person for, while its command
 * rules wait for approval (approval.ts), so nothing is recorded against the loop.
 */
export function validateLoop(loop: Loop, root: string, protect: ProtectedPaths, agentOutput: string): Promise<ValidationReport> {
  if (unvouched(loop)) {
    const sandbox = ruleSandbox();
    if (awaitingApproval(loop, sandbox)) throw new LoopStoreError(waitingForAgentMessage(loop, sandbox));
  }
  return validate(loop.config.validationRules, { root, protect, agentOutput, loop: ruleContext(loop) });
}
