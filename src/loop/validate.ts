// One validation: the enabled rules, one after another, each turned into a result however it ends; then
// the counts and the score. In a build this is also a bundle of its own (dist/validate.cjs), the program of
// the Stop hook's validation worker (validate-in-worker.ts): so it leaves the loop store out.
import { runCommandRule } from './rules/command.js';
import { runContentPatternRule } from './rules/content-pattern.js';
import { runCoverageRule } from './rules/coverage.js';
import { runFileExistsRule } from './rules/file-exists.js';
import { score } from './score.js';
import type { Rule, RuleResult, ValidationContext, ValidationReport } from './types.js';

export interface ValidateOptions {
  /** Epoch milliseconds by which every rule must have finished: commands are stopped there, later rules not run. */
  deadline?: number | undefined;
}

function settled(run: () => RuleResult): Promise<RuleResult> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

function runRule(rule: Rule, ctx: ValidationContext, options: ValidateOptions): Promise<RuleResult> {
  switch (rule.type) {
    case 'command':
      return runCommandRule(rule, ctx, { deadline: options.deadline });
    // The rules that only read files answer at once; a thrown error becomes a rejection like a command's.
    case 'content_pattern':
      return settled(() => runContentPatternRule(rule, ctx));
    case 'coverage':
      return settled(() => runCoverageRule(rule, ctx));
    case 'file_exists':
      return settled(() => runFileExistsRule(rule, ctx));
    default: {
      const unknown: { type?: unknown } = rule;
      return Promise.reject(new Error(`unknown rule type ${JSON.stringify(unknown.type)}`));
    }
  }
}

export async function validate(rules: Rule[], ctx: ValidationContext, options: ValidateOptions = {}): Promise<ValidationReport> {
  const results: RuleResult[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const started = Date.now();
    let result: RuleResult;
    if (options.deadline !== undefined && started >= options.deadline) {
      result = { name: rule.name, type: rule.type, passed: false, errored: true, message: `${rule.name}: not run: the validation deadline had passed` };
    } else {
      try {
        result = await runRule(rule, ctx, options);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        result = { name: rule.name, type: rule.type, passed: false, errored: true, message: `${rule.name}: the rule could not be evaluated: ${why}` };
      }
    }
    // An errored rule never counts as passed, whatever a runner said.
    results.push({ ...result, passed: result.passed && !result.errored, durationMs: result.durationMs ?? Date.now() - started });
  }

  return summarise(results);
}

/** The counts, the verdict and the score of a set of rule results. */
export function summarise(results: RuleResult[]): ValidationReport {
  const totalRules = results.length;
  const erroredRules = results.filter((result) => result.errored).length;
  const passedRules = results.filter((result) => result.passed).length;
  const failedRules = totalRules - passedRules - erroredRules;
  const counts = { totalRules, passedRules, failedRules, erroredRules };
  return { results, ...counts, overallPassed: failedRules === 0 && erroredRules === 0, score: score(counts) };
}
