// `isdlc branch acknowledge`: a person says they have seen the commits isdlc found on a branch the
// workflow keeps closed (src/verify/branch-violations.ts), so the gate stops counting them.
import type { IsdlcState } from '../state/schema.js';
import { violationsOf, type BranchViolation } from '../verify/branch-violations.js';
import { WorkflowError } from './start.js';

export function acknowledgeViolations(draft: IsdlcState, input: { by: string; now: string; note?: string }): BranchViolation[] {
  const open = violationsOf(draft).filter((entry) => !entry.acknowledged);
  if (open.length === 0) throw new WorkflowError('no commit to a closed branch is waiting for acknowledgement');
  for (const entry of open) entry.acknowledged = { by: input.by, at: input.now, ...(input.note ? { note: input.note } : {}) };
  return open;
}
