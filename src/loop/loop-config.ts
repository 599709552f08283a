// A loop's configuration, with every default applied in this one place. Limits are always finite: an
// unlimited loop is what let the Stop-hook plugin run 6,239 iterations.
import * as v from 'valibot';
import { parseRules } from './rule-schema.js';
import type { Rule } from './types.js';

export const DEFAULT_MAX_ITERATIONS = 10;
export const MAX_ITERATIONS_CEILING = 100;
export const DEFAULT_CIRCUIT_BREAKER = 3;
export const DEFAULT_COMPLETION_PROMISES: readonly string[] = Object.freeze(['<promise>COMPLETE</promise>', '<promise>BLOCKED</promise>']);

export interface IterationConfig {
  maxIterations: number;
  circuitBreakerThreshold: number;
  completionPromises: string[];
  validationRules: Rule[];
  /** The task as the person put it, repeated to the agent at every iteration. */
  prompt?: string;
}

const whole = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
};

const ConfigInput = v.object({
  maxIterations: v.optional(whole(1, MAX_ITERATIONS_CEILING), DEFAULT_MAX_ITERATIONS),
  circuitBreakerThreshold: v.optional(whole(1, MAX_ITERATIONS_CEILING), DEFAULT_CIRCUIT_BREAKER),
  completionPromises: v.optional(
    v.array(v.pipe(v.string('must be a list of texts'), v.trim(), v.nonEmpty('must not hold an empty text')), 'must be a list of texts'),
    () => [...DEFAULT_COMPLETION_PROMISES],
  ),
  validationRules: v.optional(v.array(v.unknown(), 'must be a list of rules'), () => []),
  prompt: v.optional(v.pipe(v.string('must be a text'), v.maxLength(20_000, 'must be at most 20,000 characters'))),
});

export class LoopConfigError extends Error {}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map((item) => String(item.key)).join('.') ?? '';
  return path ? `${path}: ${issue.message}` : issue.message;
}

export function parseIterationConfig(input: unknown): IterationConfig {
  const parsed = v.safeParse(ConfigInput, input ?? {});
  if (!parsed.success) throw new LoopConfigError(`invalid loop configuration: ${parsed.issues.map(describeIssue).join('; ')}`);
  const { validationRules, prompt, ...limits } = parsed.output;
  let rules: Rule[];
  try {
    rules = parseRules(validationRules);
  } catch (error) {
    throw new LoopConfigError(`invalid validation rules: ${(error as Error).message}`);
  }
  return { ...limits, validationRules: rules, ...(prompt !== undefined && prompt !== '' ? { prompt } : {}) };
}
