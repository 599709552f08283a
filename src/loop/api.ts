// Everything the loop offers the rest of isdlc, shipped as one file (dist/loop.cjs) that only loop work
// loads: the SQLite driver and the rule runner stay off the hook's hot path.
export { answerStop, type StopAnswer, type StopInput } from './stop.js';
export { liveLoops, type LiveLoop } from './live.js';
export { bindMarkedLoops, markerFor, type BindResult } from './bind.js';
export {
  LoopStore,
  LoopStoreError,
  TASK_STATUSES,
  type Loop,
  type RulesSetBy,
  type Task,
  type Checkpoint,
  type IterationRecord,
  type TaskStatus,
} from './store.js';
export {
  LoopConfigError,
  parseIterationConfig,
  DEFAULT_CIRCUIT_BREAKER,
  DEFAULT_MAX_ITERATIONS,
  MAX_ITERATIONS_CEILING,
  type IterationConfig,
} from './loop-config.js';
export { LoopDbError, LOOP_DB } from './db.js';
export { validate } from './validate.js';
export { validateLoop } from './validate-loop.js';
export { approvalNote, awaitingApproval, commandRuleList, commandRulesStatus } from './approval.js';
export { ruleSandbox } from '../sandbox/os-sandbox.js';
export { detectPromise, promiseTexts } from './promise.js';
export { completeTag, continueReason, endMessage, failingLines, progressMessage } from './messages.js';
export { loopRows } from './journal-rows.js';
