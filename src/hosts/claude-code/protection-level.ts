// The one line `doctor` and `status` give on what keeps the agent from changing isdlc's files:
// "sandboxed", or "not sandboxed: <why>", so that nobody believes in a guarantee that is not there.
import type { GuardedSet } from '../../integrity/guarded-set.js';
import { readInstallRecord } from '../../state/install-record.js';
import { recordOrUndefined } from '../../util/json.js';
import type { Finding } from './host-checks.js';
import { claudeCodeFieldsOf } from './install-record.js';
import { capabilitiesOf, CLAUDE_CODE, UPGRADE_COMMANDS } from './versions.js';
import type { SandboxSupport } from './sandbox-support.js';
import { editDenyRules } from './sandbox-settings.js';
import { sandboxState, settingsByPrecedence, type SandboxState } from './sandbox-status.js';
import { WITHOUT_SANDBOX } from '../../integrity/tamper-messages.js';

export function projectSandboxState(root: string): SandboxState {
  return sandboxState(settingsByPrecedence(root), root);
}

/** Where the sandbox is on but this Claude Code's sandbox leaves a way around it, what that way is. */
export function sandboxGap(claudeVersion: string | undefined): string | undefined {
  if (!claudeVersion || capabilitiesOf(claudeVersion).sandboxHoldsFolders) return undefined;
  return (
    `Claude Code ${claudeVersion}'s sandbox lets the agent's shell rename a folder above a protected file (.claude, docs, .git) and put its own in its place, ` +
    `so the settings that turn the sandbox on, the constitution and git's hooks can be replaced for the next session (${CLAUDE_CODE.sandboxHoldsFoldersSeenIn} refuses it)`
  );
}

/**
 * How a person whose machine cannot run the sandbox works in a project whose shared settings require it:
 * their own local settings file, which Claude Code reads before the project's. isdlc guards that file like
 * its own, so the edit is kept with `isdlc changes accept`.
 */
export const LOCAL_OPT_OUT =
  'to work on this machine without the sandbox, put {"sandbox": {"enabled": false}} in .claude/settings.local.json and run `isdlc changes accept` (the agent\'s shell then runs unsandboxed on this machine; isdlc\'s deny rules and tamper evidence still apply)';

/** What would turn the sandbox on, given why it is off. */
function turnOnFix(root: string, support: SandboxSupport, claudeVersion: string, state: SandboxState): string {
  if (state.decidedBy === 'local') {
    const when = support.ok ? 'the sandbox can run here now' : `${support.why}${support.install ? ` (install: ${support.install})` : ''}`;
    return `.claude/settings.local.json turns it off on this machine only; ${when}: take its sandbox values out and run \`isdlc changes accept\``;
  }
  if (!capabilitiesOf(claudeVersion).sandbox)
    return `Claude Code ${claudeVersion}'s sandbox cannot run Bash (it works from ${CLAUDE_CODE.sandboxWorksFrom}): upgrade it with ${UPGRADE_COMMANDS}, then run \`isdlc init\``;
  if (!support.ok) {
    if (support.never) return `${support.why}: isdlc can only notice changes to its files afterwards`;
    return `${support.why}: ${support.install ? `install it (${support.install}), then ` : ''}run \`isdlc init\``;
  }
  if (claudeCodeFieldsOf(readInstallRecord(root))?.sandbox?.why?.includes('--no-sandbox'))
    return 'it was left off on purpose (`isdlc init --no-sandbox`); `isdlc init` turns it on';
  return '`isdlc init` turns it on';
}

/** doctor's findings: the protection level first, then what weakens it. */
export function protectionFindings(root: string, guarded: GuardedSet, support: SandboxSupport, claudeVersion: string): Finding[] {
  const files = settingsByPrecedence(root);
  const state = sandboxState(files, root);
  const findings: Finding[] = [];
  if (state.sandboxed && !capabilitiesOf(claudeVersion).sandbox) {
    findings.push({
      severity: 'fail',
      what: `the sandbox is on, but Claude Code ${claudeVersion}'s sandbox cannot run Bash (it works from ${CLAUDE_CODE.sandboxWorksFrom}): every Bash call fails`,
      fix: `upgrade Claude Code with ${UPGRADE_COMMANDS}, or run \`isdlc init --claude-version ${claudeVersion}\`, which leaves the sandbox off for it`,
    });
  } else if (state.sandboxed && !support.ok) {
    findings.push({
      severity: 'fail',
      what: `sandboxed in the settings, but the sandbox cannot run on this machine: ${support.why}; Claude Code refuses to start here ("sandbox required but unavailable")`,
      fix: `${support.install ? `install it: ${support.install}` : 'run Claude Code where its sandbox can start'}; or, ${LOCAL_OPT_OUT}`,
    });
  } else if (state.sandboxed && sandboxGap(claudeVersion)) {
    findings.push({
      severity: 'warn',
      what: `protection: sandboxed, with a gap: ${sandboxGap(claudeVersion)}`,
      fix: `upgrade Claude Code with ${UPGRADE_COMMANDS}`,
    });
  } else if (state.sandboxed) {
    findings.push({ severity: 'ok', what: "protection: sandboxed: the agent's Bash runs in Claude Code's sandbox, where isdlc's files are read-only" });
  } else {
    findings.push({
      severity: 'warn',
      what: `protection: not sandboxed: ${state.why ?? 'unknown'}; the agent's shell can write isdlc's files. ${WITHOUT_SANDBOX}`,
      fix: turnOnFix(root, support, claudeVersion, state),
    });
  }
  if (state.excludedCommands.length > 0) {
    findings.push({
      severity: 'warn',
      what: `sandbox.excludedCommands lets these run outside the sandbox, where they can write isdlc's files: ${state.excludedCommands.join(', ')}`,
      fix: 'take them out of excludedCommands unless you trust every way the agent can call them',
    });
  }
  const denied = new Set(
    files.flatMap((settings) => {
      const deny = recordOrUndefined(settings?.['permissions'])?.['deny'];
      return Array.isArray(deny) ? (deny as unknown[]) : [];
    }),
  );
  const missing = editDenyRules(guarded, root).filter((rule) => !denied.has(rule));
  if (missing.length > 0) {
    findings.push({
      severity: 'warn',
      what: `Claude Code's file tools may write isdlc's files: no deny rule ${missing.join(', ')}`,
      fix: '`isdlc init` adds them to .claude/settings.json',
    });
  }
  return findings;
}
