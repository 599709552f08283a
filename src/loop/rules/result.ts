// How a rule's outcome is written down: its name and type, the message prefixed with its name, and how
// long it took since `started`.
import type { Rule, RuleResult } from '../types.js';

export function resultMaker(rule: Rule, started: number) {
  return (fields: Omit<RuleResult, 'name' | 'type' | 'durationMs' | 'message'>, message: string): RuleResult => ({
    name: rule.name,
    type: rule.type,
    ...fields,
    message: `${rule.name}: ${message}`,
    durationMs: Date.now() - started,
  });
}
