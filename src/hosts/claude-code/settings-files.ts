// Where Claude Code keeps what is not the project's: its per-folder records (trust), the user's settings,
// and the settings an administrator manages. CLAUDE_CONFIG_DIR moves the first two.
import { join } from 'node:path';
import { readTextIfPresent } from '../../util/read-text.js';
import { recordOrUndefined } from '../../util/json.js';

function configDir(env: NodeJS.ProcessEnv): string | undefined {
  return env['CLAUDE_CONFIG_DIR'] || undefined;
}

function home(env: NodeJS.ProcessEnv): string {
  // node:os on first use: a hook call that finds HOME set never loads it.
  return env['HOME'] || process.getBuiltinModule('node:os').homedir();
}

/** `.claude.json`: trust and other records per project folder. */
export function claudeConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env) ?? home(env), '.claude.json');
}

/** The user's own settings, which apply in every project. */
export function claudeUserSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  return dir ? join(dir, 'settings.json') : join(home(env), '.claude', 'settings.json');
}

/** Managed (policy) settings, which win over every other source. */
export function claudeManagedSettingsFile(platform: NodeJS.Platform = process.platform): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode/managed-settings.json';
  if (platform === 'win32') return 'C:\\Program Files\\ClaudeCode\\managed-settings.json';
  return '/etc/claude-code/managed-settings.json';
}

/** A settings file's object, or undefined when it is absent or unreadable (Claude Code then ignores it too). */
export function readSettingsObject(file: string): Record<string, unknown> | undefined {
  try {
    const text = readTextIfPresent(file);
    return text === undefined ? undefined : recordOrUndefined(JSON.parse(text));
  } catch {
    return undefined;
  }
}
