// A `file_exists` rule: a path under the project root is there (a file or a directory), or, with
// `mustExist: false`, is not.
import type { FileExistsRule, RuleResult, ValidationContext } from '../types.js';
import { resolveInsideRoot, statIfPresent } from './inside-root.js';
import { resultMaker } from './result.js';

export function runFileExistsRule(rule: FileExistsRule, ctx: ValidationContext): RuleResult {
  const started = Date.now();
  const make = resultMaker(rule, started);
  const result = (passed: boolean, errored: boolean, message: string): RuleResult => make({ passed, errored }, message);

  const resolved = resolveInsideRoot(ctx.root, rule.path);
  if (!resolved.ok) return result(false, true, `cannot check: ${resolved.reason}`);
  const exists = statIfPresent(resolved.path) !== undefined;
  if (rule.mustExist) {
    return exists ? result(true, false, `${rule.path} exists`) : result(false, false, `${rule.path} is missing (it must exist)`);
  }
  return exists ? result(false, false, `${rule.path} exists (it must not)`) : result(true, false, `${rule.path} is absent, as required`);
}
