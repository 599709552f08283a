// Whether Codex will run isdlc's hooks in a project, read from the files Codex itself reads, before any
// session: the person's config (CODEX_HOME/config.toml) holds a `trusted_hash` per hook they trusted in
// `/hooks`, at the hook's positional key, and may switch a hook off (`enabled = false`) or all of them
// (`[features] hooks = false`); the project's `.codex/config.toml` may switch them all off too.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { recordOrUndefined } from '../../util/json.js';
import { readTextIfPresent } from '../../util/read-text.js';
import { parseToml } from '../../util/toml.js';
import { codexHome, HOOKS_FILE } from './files.js';
import { isOurCommand } from './hooks-json.js';
import { eventKeyName, hookStateKey, hookTrustHash, type CodexCommandHandler } from './hook-trust.js';

/**
 * `trusted`: Codex runs it. `untrusted`: nobody trusted it. `modified`: something else was trusted at its
 * key (the hook changed since, or another hook sat there). `moved`: trusted as it is, but at another place
 * in its event's list (a group put before isdlc's moved it, and Codex keys a hook by its place).
 */
export type HookTrust = 'trusted' | 'untrusted' | 'modified' | 'moved';

export interface OurHookTrust {
  event: string;
  key: string;
  hash: string;
  trust: HookTrust;
  /** `[hooks.state."<key>"] enabled = false` in the person's config: skipped even when trusted. */
  disabled: boolean;
}

/** A TOML config file of Codex's: parsed, absent (an empty config), or the parser's complaint. */
export interface CodexConfigFile {
  path: string;
  config: Record<string, unknown>;
  error?: string;
}

export function readCodexConfig(path: string): CodexConfigFile {
  let text: string | undefined;
  try {
    text = readTextIfPresent(path);
  } catch (error) {
    return { path, config: {}, error: (error as Error).message };
  }
  if (text === undefined) return { path, config: {} };
  try {
    return { path, config: parseToml(text) };
  } catch (error) {
    return { path, config: {}, error: (error as Error).message.split('\n')[0]! };
  }
}

/** The person's Codex config: CODEX_HOME/config.toml. */
export function personCodexConfig(env: NodeJS.ProcessEnv = process.env): CodexConfigFile {
  return readCodexConfig(join(codexHome(env), 'config.toml'));
}

/** The project folder as Codex names it in keys: its real path (Codex resolves links). */
export function codexPathOf(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
}

/**
 * Each of isdlc's handlers in the project's hooks.json with its trust as the person's config says; an
 * empty list when none is registered, undefined when the file is not a JSON object.
 */
export function ourHooksTrust(root: string, person: Record<string, unknown>): OurHookTrust[] | undefined {
  const file = join(codexPathOf(root), HOOKS_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readTextIfPresent(file) ?? '{}');
  } catch {
    return undefined;
  }
  const hooks = recordOrUndefined(recordOrUndefined(parsed)?.['hooks']) ?? {};
  const state = recordOrUndefined(recordOrUndefined(person['hooks'])?.['state']) ?? {};
  const stored = (key: string): Record<string, unknown> | undefined => recordOrUndefined(state[key]);
  const ours: OurHookTrust[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const sameEvent = `${file}:${eventKeyName(event)}:`;
    groups.forEach((group: unknown, g) => {
      const handlers = recordOrUndefined(group)?.['hooks'];
      if (!Array.isArray(handlers)) return;
      handlers.forEach((handler: unknown, h) => {
        const fields = recordOrUndefined(handler) as CodexCommandHandler | undefined;
        if (!fields || !isOurCommand(fields.command)) return;
        const key = hookStateKey(file, event, g, h);
        const hash = hookTrustHash(event, recordOrUndefined(group)?.['matcher'], fields);
        const here = stored(key)?.['trusted_hash'];
        const elsewhere = Object.entries(state).some(
          ([other, entry]) => other !== key && other.startsWith(sameEvent) && recordOrUndefined(entry)?.['trusted_hash'] === hash,
        );
        const trust: HookTrust = here === hash ? 'trusted' : elsewhere ? 'moved' : here !== undefined ? 'modified' : 'untrusted';
        ours.push({ event, key, hash, trust, disabled: stored(key)?.['enabled'] === false });
      });
    });
  }
  return ours;
}
