// A `content_pattern` rule: a regular expression looked for in the agent's final message or in a file of
// the project. `mustMatch: false` turns it into "must not appear".
import { readFileSync } from 'node:fs';
import { describePattern } from '../describe.js';
import type { ContentPatternRule, RuleResult, ValidationContext } from '../types.js';
import { resolveInsideRoot, statIfPresent } from './inside-root.js';
import { resultMaker } from './result.js';

export const AGENT_OUTPUT = 'agent_output';

/** Larger files are not searched (a pattern rule is for sources and notes, not build output). */
const MAX_FILE_BYTES = 20 * 1024 * 1024;

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

export function runContentPatternRule(rule: ContentPatternRule, ctx: ValidationContext): RuleResult {
  const started = Date.now();
  const pattern = describePattern(rule.pattern, rule.flags);
  const make = resultMaker(rule, started);
  const result = (passed: boolean, errored: boolean, message: string): RuleResult => make({ passed, errored }, message);

  let regex: RegExp;
  try {
    regex = new RegExp(rule.pattern, rule.flags);
  } catch (error) {
    return result(false, true, `the pattern ${pattern} does not compile: ${(error as Error).message}`);
  }

  let text: string;
  let where: string;
  if (rule.target === AGENT_OUTPUT) {
    text = ctx.agentOutput;
    where = "the agent's final message";
  } else {
    const file = resolveInsideRoot(ctx.root, rule.target);
    if (!file.ok) return result(false, true, `cannot read the target: ${file.reason}`);
    const stat = statIfPresent(file.path);
    if (!stat) return result(false, true, `cannot read ${rule.target}: no such file`);
    if (!stat.isFile()) return result(false, true, `cannot read ${rule.target}: not a file`);
    if (stat.size > MAX_FILE_BYTES) return result(false, true, `cannot read ${rule.target}: larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
    try {
      text = readFileSync(file.path, 'utf8');
    } catch (error) {
      return result(false, true, `cannot read ${rule.target}: ${(error as Error).message}`);
    }
    where = rule.target;
  }

  const match = regex.exec(text);
  const at = match ? ` (line ${lineOf(text, match.index)})` : '';
  if (rule.mustMatch) {
    return match ? result(true, false, `${pattern} found in ${where}${at}`) : result(false, false, `${pattern} not found in ${where} (it must appear)`);
  }
  return match
    ? result(false, false, `${pattern} found in ${where}${at} (it must not appear)`)
    : result(true, false, `${pattern} does not appear in ${where}, as required`);
}
