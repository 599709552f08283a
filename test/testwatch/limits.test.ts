import { describe, expect, it } from 'vitest';
import { iterationLimits } from '../../src/testwatch/limits.js';

const configured = (extra: Record<string, unknown>) => ({ iteration_config: { configured_at: '2026-11-25T09:00:00.000Z', ...extra } });
const requirements = { test_iteration: { enabled: true, max_iterations: 5, circuit_breaker_threshold: 4 } };

describe('iterationLimits: iteration_config, then the requirements, then 10 and 3', () => {
  it.each([
    ['nothing configured anywhere', {}, undefined, { max: 10, breaker: 3 }],
    ['the requirements only', {}, requirements, { max: 5, breaker: 4 }],
    ["the person's iteration_config first", configured({ testing_max: 2, circuit_breaker_threshold: 1 }), requirements, { max: 2, breaker: 1 }],
    ['one of the two configured, the other from the requirements', configured({ testing_max: 7 }), requirements, { max: 7, breaker: 4 }],
    [
      'digits in a string, as the discovery agent was told to write them',
      configured({ testing_max: '6', circuit_breaker_threshold: ' 2 ' }),
      requirements,
      { max: 6, breaker: 2 },
    ],
    [
      'iteration_config without configured_at is not the person’s choice',
      { iteration_config: { testing_max: 2, circuit_breaker_threshold: 1 } },
      requirements,
      { max: 5, breaker: 4 },
    ],
    [
      '0, negatives, fractions and words are skipped',
      configured({ testing_max: 0, circuit_breaker_threshold: 'three' }),
      { test_iteration: { max_iterations: 0, circuit_breaker_threshold: 2.5 } },
      { max: 10, breaker: 3 },
    ],
  ])('%s', (_name, state, reqs, expected) => {
    expect(iterationLimits(state, reqs as never)).toEqual(expected);
  });
});
