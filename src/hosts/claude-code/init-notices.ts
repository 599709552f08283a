// What `isdlc init` wants a person to read about Claude Code: the version it registered for, the sandbox,
// and what it found in the settings but must not change (the person's own values).
import { assumedVersionWarning, describePlan, type HookPlan } from './hook-plan.js';
import {
  bashEditDiffFinding,
  hooksSwitchedOffFindings,
  hostSettingsSources,
  originalHooksFindings,
  readProjectSettingsFiles,
  userPromptExpansionFindings,
} from './host-checks.js';
import { sandboxGap } from './protection-level.js';

export interface InitOutcome {
  plan: HookPlan;
  /** Whether the sandbox is on, and why not. */
  sandbox: { on: boolean; why?: string };
  /** Values of the user's in settings.json that init replaced (e.g. `sandbox.enabled: false`). */
  replaced: { path: string; was: unknown }[];
}

export function initNotices(root: string, result: InitOutcome): string[] {
  const { plan } = result;
  const reinit = `isdlc init ${root}${plan.target.from === 'flag' ? ` --claude-version ${plan.target.version}` : ''}`;
  const files = readProjectSettingsFiles(root);
  const warnings = [
    assumedVersionWarning(plan, root),
    ...userPromptExpansionFindings(files, plan.target.version, reinit).map((f) => `${f.what}.\n    fix: ${f.fix ?? ''}`),
  ];
  const host = hostSettingsSources();
  warnings.push(...hooksSwitchedOffFindings(files, host).map((f) => `${f.what}.\n    fix: ${f.fix ?? ''}`));
  warnings.push(...originalHooksFindings(files).map((f) => `${f.what}.\n    fix: ${f.fix ?? ''}`));
  const bashEditDiff = bashEditDiffFinding(files, host, plan.target.version);
  if (bashEditDiff.severity !== 'ok') warnings.push(`${bashEditDiff.what}.\n    fix: ${bashEditDiff.fix ?? ''}`);
  return [describePlan(plan), sandboxNotice(result), ...warnings.filter((w): w is string => w !== undefined).map((w) => `! ${w}`)];
}

/** One line on the sandbox: on, or off and why, and what a value of the user's became. */
function sandboxNotice(result: InitOutcome): string {
  const replaced = result.replaced.filter((r) => r.path.startsWith('sandbox.') || r.path.startsWith('permissions.'));
  const was = replaced.length > 0 ? ` (replaced your ${replaced.map((r) => `${r.path}: ${JSON.stringify(r.was)}`).join(', ')}; uninstall gives it back)` : '';
  const gap = result.sandbox.on ? sandboxGap(result.plan.target.version) : undefined;
  if (gap) return `! sandboxed, with a gap: ${gap}${was}. Upgrade Claude Code to close it; \`isdlc init --no-sandbox\` turns the sandbox off.`;
  if (result.sandbox.on) {
    return (
      `sandboxed: every Bash call of the agent runs in Claude Code's sandbox, where isdlc's files are read-only${was}. ` +
      'It costs about 0.1 s per Bash call; `isdlc init --no-sandbox` turns it off.'
    );
  }
  return `! not sandboxed: ${result.sandbox.why ?? 'unknown'}. The agent's shell can then write isdlc's files; isdlc can only notice afterwards.`;
}
