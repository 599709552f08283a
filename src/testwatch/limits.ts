// The two limits of a phase's test loop: how many iterations, and after how many identical failures in a
// row the circuit breaker trips. As in the JavaScript framework: `state.iteration_config` (what the person
// chose at discovery, counted only once it has `configured_at`) first, then the phase's requirements with
// the workflow's overrides merged, then 10 and 3. A value that is not a positive whole number is skipped,
// as the framework's `||` chain skipped 0; digits in a string count (its discovery agent was told to write
// `"testing_max": "{value}"`, and the framework's comparisons took "5" as 5).
import type { PhaseRequirements } from '../config/schemas.js';
import type { IsdlcState } from '../state/schema.js';

export interface IterationLimits {
  max: number;
  breaker: number;
}

export const DEFAULT_LIMITS: IterationLimits = { max: 10, breaker: 3 };

function positive(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `state.iteration_config`, when the person configured it (it has `configured_at`). */
function iterationConfigOf(state: IsdlcState | null | undefined): Record<string, unknown> | undefined {
  const config = state?.['iteration_config'];
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return undefined;
  const record = config as Record<string, unknown>;
  return record['configured_at'] ? record : undefined;
}

export function iterationLimits(state: IsdlcState | null | undefined, requirements: PhaseRequirements | undefined): IterationLimits {
  const configured = iterationConfigOf(state);
  const test = requirements?.test_iteration;
  return {
    max: positive(configured?.['testing_max']) ?? positive(test?.max_iterations) ?? DEFAULT_LIMITS.max,
    breaker: positive(configured?.['circuit_breaker_threshold']) ?? positive(test?.circuit_breaker_threshold) ?? DEFAULT_LIMITS.breaker,
  };
}
