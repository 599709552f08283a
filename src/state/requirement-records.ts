// Whether a phase's requirement records say "done", read the same way by the gate and the guards. Both
// isdlc's records and the JavaScript framework's count: the framework wrote `completed: true` with
// `last_test_result: "passed"` (or only `status: "success"`) and `status: "compliant"`, without isdlc's
// bookkeeping (`current_iteration`, `started_at`). State is only read here once the journal has accepted
// it, and an agent's write to these records is refused or undone, so taking the older shape opens no route.
import type { ConstitutionalValidationState, TestIterationState } from './schema.js';

const PASSED_STATUSES = new Set(['success', 'passed']);

export function testsPassed(record: TestIterationState | undefined): boolean {
  if (!record || record.completed !== true || record.status === 'escalated') return false;
  if (record.last_test_result !== undefined) return record.last_test_result === 'passed';
  return typeof record.status === 'string' && PASSED_STATUSES.has(record.status);
}

export function constitutionCompliant(record: ConstitutionalValidationState | undefined): boolean {
  return record?.completed === true && record.status === 'compliant';
}
