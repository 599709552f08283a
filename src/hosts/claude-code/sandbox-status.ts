// Whether the agent's shell runs inside Claude Code's sandbox with isdlc's files read-only, judged from
// the settings as Claude Code merges them: for a single value the managed file wins, then the project's
// local file, then the project's shared file, then the user's; `denyWrite` lists add up across all.
// Only the combination that cannot fail open counts as sandboxed: on, no command allowed out, no silent
// fallback when the sandbox cannot start, and `.isdlc` in the list.
import { join } from 'node:path';
import { claudeManagedSettingsFile, claudeUserSettingsFile, readSettingsObject } from './settings-files.js';
import { recordOrUndefined } from '../../util/json.js';

type Settings = Record<string, unknown>;

/** Settings files from the highest precedence to the lowest: managed, local, project, user. */
export type SettingsByPrecedence = readonly (Settings | undefined)[];

/** The files of SettingsByPrecedence, in its order. */
export const SETTINGS_SOURCES = ['managed', 'local', 'project', 'user'] as const;
export type SettingsSource = (typeof SETTINGS_SOURCES)[number];

export interface SandboxState {
  sandboxed: boolean;
  /** Why not, in a few words a person can act on. */
  why?: string;
  /** The file whose value made it not sandboxed (none: no file sets it). */
  decidedBy?: SettingsSource;
  /** Commands the settings let run outside the sandbox. */
  excludedCommands: string[];
}

function sandboxOf(settings: Settings | undefined): Settings | undefined {
  return recordOrUndefined(settings?.['sandbox']);
}

/** The first value any file sets for `key` of the sandbox section, and which file that is. */
function effective(files: SettingsByPrecedence, read: (sandbox: Settings) => unknown): { value: unknown; from?: SettingsSource } {
  for (const [index, settings] of files.entries()) {
    const sandbox = sandboxOf(settings);
    if (!sandbox) continue;
    const value = read(sandbox);
    if (value !== undefined) return { value, ...(SETTINGS_SOURCES[index] ? { from: SETTINGS_SOURCES[index] } : {}) };
  }
  return { value: undefined };
}

/** A denyWrite entry that covers the whole `.isdlc` folder of the project (the forms seen to work). */
export function coversIsdlc(entry: unknown, root: string): boolean {
  if (typeof entry !== 'string') return false;
  const trimmed = entry.replace(/\/\*\*$/, '').replace(/\/+$/, '');
  return trimmed === '.isdlc' || trimmed === './.isdlc' || trimmed === `${root.replace(/\/+$/, '')}/.isdlc`;
}

export function sandboxState(files: SettingsByPrecedence, root: string): SandboxState {
  const excludedCommands = files.flatMap((settings) => {
    const list = sandboxOf(settings)?.['excludedCommands'];
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  });
  const state = (why?: string, decidedBy?: SettingsSource): SandboxState => ({
    sandboxed: why === undefined,
    ...(why ? { why } : {}),
    ...(decidedBy ? { decidedBy } : {}),
    excludedCommands,
  });
  const enabled = effective(files, (s) => s['enabled']);
  if (enabled.value !== true) return state('the sandbox is off (`sandbox.enabled` is not true)', enabled.from);
  const letOut = effective(files, (s) => s['allowUnsandboxedCommands']);
  if (letOut.value !== false) {
    return state('a command may ask to run outside the sandbox (`sandbox.allowUnsandboxedCommands` is not false)', letOut.from);
  }
  const strict = effective(files, (s) => s['failIfUnavailable']);
  if (strict.value !== true) {
    return state('where the sandbox cannot start, Claude Code runs commands without it (`sandbox.failIfUnavailable` is not true)', strict.from);
  }
  const denied = files.flatMap((settings) => {
    const list = recordOrUndefined(sandboxOf(settings)?.['filesystem'])?.['denyWrite'];
    return Array.isArray(list) ? (list as unknown[]) : [];
  });
  // An `Edit(...)` deny rule for the folder makes it read-only inside the sandbox as well.
  const editDenied = files.some((settings) => {
    const deny = recordOrUndefined(settings?.['permissions'])?.['deny'];
    return Array.isArray(deny) && deny.some((rule) => rule === 'Edit(/.isdlc/**)');
  });
  if (!editDenied && !denied.some((entry) => coversIsdlc(entry, root))) return state('`.isdlc` is not in `sandbox.filesystem.denyWrite`');
  return state();
}

/** The settings files of a project as Claude Code merges them, read from disk (managed, local, project, user). */
export function settingsByPrecedence(root: string, env: NodeJS.ProcessEnv = process.env): SettingsByPrecedence {
  return [
    readSettingsObject(claudeManagedSettingsFile()),
    readSettingsObject(join(root, '.claude', 'settings.local.json')),
    readSettingsObject(join(root, '.claude', 'settings.json')),
    readSettingsObject(claudeUserSettingsFile(env)),
  ];
}
