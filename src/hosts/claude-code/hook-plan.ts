// Which hooks `isdlc init` registers, and in which form, for the Claude Code a project runs: only what that
// version runs. A hook the host cannot run fails open, so registering one would look like protection
// while every tool call goes through.
import { capabilitiesOf, CLAUDE_CODE, detectClaudeVersion, UPGRADE_COMMANDS, type ClaudeCapabilities, type ClaudeVersionDetection } from './versions.js';
import { eventsOf, registrationsFor, type HookForm, type Registration } from './settings.js';

/** Where the Claude Code version init registered for came from. */
export type VersionSource = 'flag' | 'claude --version' | 'assumed';

export interface ClaudeTarget {
  version: string;
  from: VersionSource;
  /** Why the version had to be assumed: what detection said. */
  why?: string;
}

export interface HookPlan {
  target: ClaudeTarget;
  capabilities: ClaudeCapabilities;
  form: HookForm;
  registrations: readonly Registration[];
}

/** The version from `--claude-version`, else from `claude --version`, else the newest known (said loudly). */
export function resolveTarget(flag: string | undefined, detect: () => ClaudeVersionDetection = detectClaudeVersion): ClaudeTarget {
  if (flag !== undefined) return { version: flag, from: 'flag' };
  const detected = detect();
  if (detected.found) return { version: detected.version, from: 'claude --version' };
  return { version: CLAUDE_CODE.newestKnown, from: 'assumed', why: detected.reason };
}

export function sourceText(target: Pick<ClaudeTarget, 'from'>): string {
  switch (target.from) {
    case 'flag':
      return 'from --claude-version';
    case 'claude --version':
      return 'found by `claude --version`';
    case 'assumed':
      return 'assumed: no version found';
  }
}

/**
 * The hooks to register for `target`, or why init must refuse. `requested` is a form the user asked for;
 * without it the form is the one the version runs.
 */
export function planHooks(target: ClaudeTarget, requested?: HookForm): HookPlan | { refused: string } {
  const capabilities = capabilitiesOf(target.version);
  const which = `Claude Code ${target.version} (${sourceText(target)})`;
  const notYours =
    target.from === 'flag' ? '' : ` If that is not the Claude Code you run, pass \`--claude-version X\` with what \`claude --version\` prints there.`;
  if (!capabilities.supported) {
    return {
      refused:
        `${which} is older than ${CLAUDE_CODE.minimumSupported}, the oldest Claude Code isdlc supports (older ones drop or never fire hooks isdlc relies on). ` +
        `Upgrade it with ${UPGRADE_COMMANDS}, then run \`isdlc init\` again.${notYours} isdlc changed nothing.`,
    };
  }
  if (requested === 'exec' && !capabilities.execFormHooks) {
    return {
      refused:
        `--hook-form exec needs Claude Code ${CLAUDE_CODE.execFormHooksFrom} or newer: ${which} runs \`node\` without its arguments, so every isdlc hook would fail and every tool call would go through. ` +
        `Leave out --hook-form (init then registers one command line per hook), or upgrade with ${UPGRADE_COMMANDS}.${notYours} isdlc changed nothing.`,
    };
  }
  const form = requested ?? (capabilities.execFormHooks ? 'exec' : 'shell');
  return { target, capabilities, form, registrations: registrationsFor(capabilities) };
}

const FORM_TEXT: Record<HookForm, string> = {
  exec: 'exec-form hooks (`node` with arguments, no shell)',
  shell: 'shell-form hooks (one command line each)',
};

/** What init registered, in one line: `registered for Claude Code 2.1.332 (found by ...): exec-form hooks on 8 events`. */
export function describePlan(plan: HookPlan): string {
  const events = eventsOf(plan.registrations);
  const left: string[] = [];
  if (plan.form === 'shell' && !plan.capabilities.execFormHooks) left.push(`exec form needs ${CLAUDE_CODE.execFormHooksFrom}`);
  if (!events.includes('UserPromptExpansion')) left.push(`UserPromptExpansion left out: it fires from ${CLAUDE_CODE.userPromptExpansionFiresFrom}`);
  return (
    `registered for Claude Code ${plan.target.version} (${sourceText(plan.target)}): ${FORM_TEXT[plan.form]} on ${events.length} events` +
    (left.length > 0 ? ` (${left.join('; ')})` : '')
  );
}

/** The loud part when no version was found: what was assumed and how to say otherwise. */
export function assumedVersionWarning(plan: HookPlan, root: string): string | undefined {
  if (plan.target.from !== 'assumed') return undefined;
  return (
    `No Claude Code version found (${plan.target.why ?? 'unknown reason'}), so isdlc registered for the newest it knows, ${plan.target.version}. ` +
    `On a Claude Code older than ${CLAUDE_CODE.execFormHooksFrom} these hooks do not run. Run \`claude --version\` where you use Claude Code, ` +
    `then \`isdlc init ${root} --claude-version X\` with what it prints.`
  );
}
