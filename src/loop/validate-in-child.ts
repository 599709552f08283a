// The hook's engine is synchronous, while a rule's process group has to be watched and killed
// asynchronously; so the Stop hook runs the validation in a child Node process (this bundle again, with
// `--validate`) and waits for its report. The child gets a deadline inside the hook's own time limit.
import { join } from 'node:path';
import type { Rule, RuleResult, ValidationContext, ValidationReport } from './types.js';
import { summarise } from './validate.js';

export const VALIDATE_FLAG = '--validate';

export interface ChildRequest {
  rules: Rule[];
  context: ValidationContext;
  /** Epoch milliseconds by which every rule must have finished. */
  deadline: number;
}

function failedReport(rules: Rule[], why: string): ValidationReport {
  const results: RuleResult[] = rules
    .filter((rule) => rule.enabled)
    .map((rule) => ({ name: rule.name, type: rule.type, passed: false, errored: true, message: `${rule.name}: not evaluated (${why})` }));
  return summarise(results);
}

export function validateInChild(request: ChildRequest): ValidationReport {
  const bundle = join(__dirname, 'loop.cjs');
  const child = process.getBuiltinModule('node:child_process').spawnSync(process.execPath, [bundle, VALIDATE_FLAG], {
    input: JSON.stringify(request),
    encoding: 'utf8',
    maxBuffer: 32 * 1024 * 1024,
    timeout: Math.max(1_000, request.deadline - Date.now() + 15_000),
    killSignal: 'SIGKILL',
    windowsHide: true,
  });
  if (child.error) return failedReport(request.rules, `the validation process failed: ${child.error.message}`);
  try {
    return JSON.parse(child.stdout) as ValidationReport;
  } catch {
    const detail = (child.stderr || child.stdout || '').trim().split('\n').slice(-3).join(' ');
    return failedReport(request.rules, `the validation process exited ${child.status ?? child.signal}: ${detail.slice(0, 300)}`);
  }
}
