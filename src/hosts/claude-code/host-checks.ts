// What a given Claude Code version makes of the project's settings files. A probe that starts the
// registered command itself proves the command works, not that this Claude Code starts it: these rules
// are what tells a working installation from one whose hooks never run. Shared by `doctor` and by `init`
// (which reports what it cannot change: the user's own values).
import { join } from 'node:path';
import { capabilitiesOf, CLAUDE_CODE, compareVersions, UPGRADE_COMMANDS } from './versions.js';
import { readTextIfPresent } from '../../util/read-text.js';
import { claudeManagedSettingsFile, claudeUserSettingsFile, readSettingsObject } from './settings-files.js';
import { recordOrUndefined } from '../../util/json.js';
import { BASH_EDIT_DIFF_SETTING, findOurHooks, isOurHook, type MatcherEntry, type Settings } from './settings.js';

import type { Finding } from '../../install/host-setup.js';

export type { Finding, Severity } from '../../install/host-setup.js';

/** The project's settings files Claude Code reads, the shared one first; the local one overrides it. */
export const PROJECT_SETTINGS_FILES = ['.claude/settings.json', '.claude/settings.local.json'] as const;

export interface SettingsFileRead {
  rel: string;
  /** Absent when the file does not exist or cannot be read as a JSON object. */
  settings?: Settings;
  problem?: string;
}

export function readProjectSettingsFiles(root: string): SettingsFileRead[] {
  return PROJECT_SETTINGS_FILES.map((rel) => {
    try {
      const text = readTextIfPresent(join(root, rel));
      if (text === undefined) return { rel };
      const parsed = recordOrUndefined(JSON.parse(text));
      return parsed ? { rel, settings: parsed } : { rel, problem: 'it does not hold a JSON object' };
    } catch (error) {
      return { rel, problem: (error as Error).message };
    }
  });
}

/** `run \`isdlc init ...\``: the command that registers isdlc again for the version checked against. */
const run = (reinit: string): string => `run \`${reinit}\``;

/** Our hooks registered as `node` with arguments, on a Claude Code that runs bare `node`. */
export function execFormFindings(settings: Settings, version: string, reinit: string): Finding[] {
  if (capabilitiesOf(version).execFormHooks) return [];
  const exec = findOurHooks(settings).filter(({ hook }) => Array.isArray(hook.args));
  if (exec.length === 0) return [];
  return [
    {
      severity: 'fail',
      what:
        `${exec.length === 1 ? 'an isdlc hook is' : `${exec.length} isdlc hooks are`} registered in exec form (\`node\` with arguments), which needs Claude Code ${CLAUDE_CODE.execFormHooksFrom}: ` +
        `Claude Code ${version} runs \`node\` without its arguments: every isdlc hook fails and the tool call goes through`,
      fix: `${run(reinit)} (it registers one command line per hook for ${version}), or upgrade Claude Code with ${UPGRADE_COMMANDS}`,
    },
  ];
}

/**
 * A `UserPromptExpansion` key, ours or the user's: up to 2.1.100 it silently switches off every hook of its
 * file; from 2.1.101 to 2.1.115 the key is accepted but the event never fires.
 */
export function userPromptExpansionFindings(files: readonly SettingsFileRead[], version: string, reinit: string): Finding[] {
  const capabilities = capabilitiesOf(version);
  const findings: Finding[] = [];
  for (const { rel, settings } of files) {
    const hooks = recordOrUndefined(settings?.['hooks']);
    if (!hooks || !Object.hasOwn(hooks, 'UserPromptExpansion')) continue;
    const entries = Array.isArray(hooks['UserPromptExpansion']) ? (hooks['UserPromptExpansion'] as MatcherEntry[]) : [];
    const all = entries.flatMap((entry) => (Array.isArray(entry?.hooks) ? entry.hooks : []));
    const ours = all.some(isOurHook);
    const onlyOurs = ours && entries.every((entry) => Array.isArray(entry?.hooks) && entry.hooks.length > 0 && entry.hooks.every(isOurHook));
    if (capabilities.userPromptExpansionKeyDropsHooks) {
      findings.push({
        severity: 'fail',
        what: `${rel} has a "UserPromptExpansion" key${ours ? ' (isdlc registered it)' : ''}: Claude Code ${version} drops every hook in this file, yours included, without a word`,
        fix: onlyOurs
          ? `${run(reinit)} (it leaves UserPromptExpansion out for ${version}), or upgrade Claude Code with ${UPGRADE_COMMANDS}`
          : `take the "UserPromptExpansion" key out of ${rel}${ours ? ` (\`${reinit}\` removes isdlc's entry; yours you remove)` : ''}, or upgrade Claude Code with ${UPGRADE_COMMANDS}`,
      });
    } else if (ours && !capabilities.userPromptExpansionFires) {
      findings.push({
        severity: 'warn',
        what: `${rel}: isdlc's UserPromptExpansion hook never fires on Claude Code ${version} (the event fires from ${CLAUDE_CODE.userPromptExpansionFiresFrom}); a typed /isdlc command is seen only through UserPromptSubmit`,
        fix: `${run(reinit)} to leave it out`,
      });
    }
  }
  return findings;
}

/** A settings source outside the project that Claude Code reads `bashEditDiffEnabled` from. */
export interface HostSettingsSource {
  /** How a person finds it: `~/.claude/settings.json`, the managed settings file. */
  label: string;
  settings?: Settings;
}

/** The user's and the managed settings, as Claude Code would read them for this environment. */
export function hostSettingsSources(env: NodeJS.ProcessEnv = process.env): { managed: HostSettingsSource; user: HostSettingsSource } {
  const managed = claudeManagedSettingsFile();
  const user = claudeUserSettingsFile(env);
  return {
    managed: { label: managed, settings: readSettingsObject(managed) },
    user: { label: user, settings: readSettingsObject(user) },
  };
}

/**
 * Whether Claude Code tells isdlc which files a shell command changed, in every permission mode. Claude
 * Code 2.1.332 takes `bashEditDiffEnabled: true` only from managed, `--settings` and user settings; in
 * the project's settings only a `false` counts (it turns the diff off). Without it the diff comes in
 * bypass and auto modes only.
 */
export function bashEditDiffFinding(
  files: readonly SettingsFileRead[],
  host: { managed: HostSettingsSource; user: HostSettingsSource },
  version: string,
): Finding {
  const has = (settings: Settings | undefined): boolean => settings !== undefined && Object.hasOwn(settings, BASH_EDIT_DIFF_SETTING);
  const blind = 'isdlc sees which files a shell command changed only in bypass and auto permission modes';
  const fix = `add \`"${BASH_EDIT_DIFF_SETTING}": true\` to ${host.user.label} (a setting of yours for every project; Claude Code ignores it in project settings), or start Claude Code with CLAUDE_CODE_BASH_EDIT_DIFF=1`;
  // The project's files override the user's: a `false` there turns the diff off whatever the user says.
  const off = [...files].reverse().find(({ settings }) => has(settings) && settings![BASH_EDIT_DIFF_SETTING] === false);
  const honoured = [host.managed, host.user].find(({ settings }) => has(settings));
  if (honoured && honoured.settings![BASH_EDIT_DIFF_SETTING] !== true) {
    return {
      severity: 'warn',
      what: `${honoured.label} sets ${BASH_EDIT_DIFF_SETTING} to ${JSON.stringify(honoured.settings![BASH_EDIT_DIFF_SETTING])}: ${blind}`,
      fix,
    };
  }
  if (honoured && off) {
    return {
      severity: 'warn',
      what: `${off.rel} sets ${BASH_EDIT_DIFF_SETTING} to false, which turns off the true in ${honoured.label}: ${blind}`,
      fix: `take it out of ${off.rel}`,
    };
  }
  if (!honoured) {
    const ignored = files.find(({ settings }) => has(settings) && settings![BASH_EDIT_DIFF_SETTING] === true);
    return {
      severity: 'warn',
      what: `${BASH_EDIT_DIFF_SETTING} is not on${ignored ? ` (the true in ${ignored.rel} is ignored: Claude Code reads it only from user or managed settings)` : ''}: ${blind}`,
      fix,
    };
  }
  const predates = compareVersions(version, CLAUDE_CODE.bashEditDiffAbsentIn) <= 0;
  return {
    severity: 'ok',
    what: predates
      ? `${BASH_EDIT_DIFF_SETTING} is on in ${honoured.label}; Claude Code ${version} predates the setting (it is in ${CLAUDE_CODE.bashEditDiffSeenIn}), so it takes effect after an upgrade`
      : `${BASH_EDIT_DIFF_SETTING} is on in ${honoured.label}: Claude Code reports the files a shell command changes, in every permission mode`,
  };
}

/**
 * Settings that make Claude Code run no project hook at all, whatever isdlc registered (seen with
 * 2.1.332: `disableAllHooks: true` in the project's, the local or the user's settings stops every hook,
 * and Claude Code applies it mid-session). Managed settings can also allow only managed hooks.
 */
export function hooksSwitchedOffFindings(files: readonly SettingsFileRead[], host: { managed: HostSettingsSource; user: HostSettingsSource }): Finding[] {
  const findings: Finding[] = [];
  const sources = [...files.map(({ rel, settings }) => ({ label: rel, settings })), host.user, host.managed];
  for (const { label, settings } of sources) {
    if (settings?.['disableAllHooks'] !== true) continue;
    findings.push({
      severity: 'fail',
      what: `${label} sets disableAllHooks: Claude Code runs no hook at all, so none of isdlc's checks happen`,
      fix:
        label === host.managed.label
          ? 'ask whoever manages Claude Code on this machine; isdlc cannot work while it is set'
          : `take \`"disableAllHooks": true\` out of ${label}`,
    });
  }
  if (host.managed.settings?.['allowManagedHooksOnly'] === true) {
    findings.push({
      severity: 'fail',
      what: `${host.managed.label} sets allowManagedHooksOnly: Claude Code runs only hooks from managed settings, so isdlc's project hooks never run`,
      fix: 'ask whoever manages Claude Code on this machine to register isdlc in the managed settings or to lift allowManagedHooksOnly',
    });
  }
  return findings;
}

/** Below the minimum the one fix is a newer Claude Code, after which init registers for it. */
export function minimumVersionFinding(version: string, root: string): Finding | undefined {
  if (capabilitiesOf(version).supported) return undefined;
  return {
    severity: 'fail',
    what: `Claude Code ${version} is older than ${CLAUDE_CODE.minimumSupported}, the oldest isdlc supports: hooks isdlc relies on are dropped or never fire`,
    fix: `upgrade Claude Code with ${UPGRADE_COMMANDS}, then ${run(`isdlc init ${root}`)}`,
  };
}

/** A hook command of the JavaScript iSDLC framework: its hooks live in `.claude/hooks/*.cjs`. */
const ORIGINAL_HOOK = /\.claude[\\/]hooks[\\/][\w.-]+\.cjs\b/;

/**
 * The original framework's hooks left registered beside isdlc's. init merges with the person's settings and
 * removes only its own entries, so these stay; both would then run on every call, and each state write the
 * original's hooks make is a change isdlc did not make, which the tamper check undoes and counts.
 */
export function originalHooksFindings(files: readonly SettingsFileRead[]): Finding[] {
  const findings: Finding[] = [];
  for (const { rel, settings } of files) {
    const commands = new Set<string>();
    for (const entries of Object.values(recordOrUndefined(settings?.hooks) ?? {})) {
      if (!Array.isArray(entries)) continue;
      for (const entry of entries as MatcherEntry[]) {
        for (const hook of Array.isArray(entry?.hooks) ? entry.hooks : []) {
          const text = [hook?.command, ...(Array.isArray(hook?.args) ? hook.args : [])].filter((part) => typeof part === 'string').join(' ');
          const found = ORIGINAL_HOOK.exec(text);
          if (found) commands.add(found[0]);
        }
      }
    }
    if (commands.size === 0) continue;
    const names = [...commands];
    findings.push({
      severity: 'warn',
      what: `${rel} still registers ${names.length} hook(s) of the JavaScript iSDLC framework (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''}): they run beside isdlc's on every call, their blocks stop the agent, and their writes to .isdlc/state.json are undone by isdlc and counted`,
      fix: `remove from ${rel} every hook whose command names .claude/hooks/ (docs/compatibility.md, entry 2)`,
    });
  }
  return findings;
}
