// Whether a phase's gate runs the tests itself: a module of its own, with nothing heavy behind it, because the
// test watcher asks it on every observed test run.
import type { PhaseRequirements } from '../config/schemas.js';

/** The phase requires tests, and verify_at_gate is not off. */
export function verifiesAtGate(requirements: PhaseRequirements | undefined): boolean {
  const test = requirements?.test_iteration;
  return test?.enabled === true && test.verify_at_gate !== false;
}
