// A guard that throws is skipped: the hook's own fault must not stop the agent's ordinary work. The one
// exception is a call about to write one of isdlc's own files: there the guard is what stands between
// the agent and the workflow's record, and skipping it would let exactly the write it exists to judge
// through unchecked. Such a call is refused instead, and both the model and the person are told why.
import { GUARDED_KIND_LABELS, type GuardedSet } from '../integrity/guarded-set.js';
import { guardedWriteOf, type GuardedWrite } from '../integrity/guarded-writes.js';
import type { HookEvent } from '../events/hook-event.js';

export interface FailureRefusal {
  /** For the model: the deny's reason. */
  reason: string;
  /** For the person. */
  userMessage: string;
}

/** The refusal owed when guard `guardId` threw `error` while judging `event`, or undefined: fail open. */
export function refusalAfterFailure(guardId: string, error: string, event: HookEvent, root: string, guarded: GuardedSet): FailureRefusal | undefined {
  let write: GuardedWrite | undefined;
  try {
    write = guardedWriteOf(event, root, guarded);
  } catch {
    return undefined; // nothing known about the target: the ordinary rule, fail open
  }
  if (!write) return undefined;
  const tool = event.tool?.name ?? 'call';
  const what = write.kind ? `${write.named} (${GUARDED_KIND_LABELS[write.kind]})` : write.named;
  return {
    reason:
      `isdlc ${guardId}: Do not retry this ${tool} yet: the ${guardId} guard failed while judging it (${error}), and since it writes ${what}, ` +
      "one of isdlc's own files, it is refused rather than let through unchecked. Ask the person to look at .isdlc/hook-activity.log, " +
      'where the failure is recorded; until the guard is fixed the same call will be refused again.',
    userMessage:
      `isdlc: the ${guardId} guard failed (${error}) while judging a ${tool} that writes ${what}; the ${tool} was refused because it targets ` +
      "isdlc's own file. See .isdlc/hook-activity.log.",
  };
}
