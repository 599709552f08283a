// isdlc's part of the files it shares with the person: in Claude Code's settings, what decides whether
// isdlc runs and what runs beside it with the person's rights (every hook, `disableAllHooks`, `env`, which
// reaches the hooks, the `sandbox` block), and the values and list entries init recorded as its own
// (install.json's `settings_owned`); in `.mcp.json`, isdlc's server. Permissions Claude Code adds when the
// person answers "don't ask again" are outside it. A change elsewhere in those files is the person's and
// becomes the new baseline; a change to isdlc's part puts the whole file back as it was last seen whole
// (whoever rewrote isdlc's part may have rewritten the rest too), the changed version kept aside.
import { recordOrUndefined } from '../../util/json.js';
import { holdsEntry, type OwnedRecord } from './owned-settings.js';

type Json = Record<string, unknown>;

function parseObject(text: string | undefined): Json | undefined {
  if (text === undefined) return {};
  try {
    return recordOrUndefined(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function getPath(root: Json, path: string): unknown {
  return path.split('.').reduce<unknown>((here, key) => recordOrUndefined(here)?.[key], root);
}

function settingsPart(settings: Json, owned: OwnedRecord | undefined): unknown {
  const added: Record<string, string[]> = {};
  for (const [path, ours] of Object.entries(owned?.added ?? {})) {
    const list = getPath(settings, path);
    added[path] = Array.isArray(list)
      ? ours
          .filter((entry) => holdsEntry(list, entry))
          .map((entry) => JSON.stringify(entry))
          .sort()
      : [];
  }
  return {
    disableAllHooks: settings['disableAllHooks'] ?? null,
    hooks: settings['hooks'] ?? null,
    env: settings['env'] ?? null,
    sandbox: settings['sandbox'] ?? null,
    set: Object.fromEntries(Object.keys(owned?.set ?? {}).map((path) => [path, getPath(settings, path) ?? null])),
    added,
  };
}

function mcpPart(config: Json): unknown {
  return recordOrUndefined(config['mcpServers'])?.['isdlc'] ?? null;
}

/** isdlc's part of a shared file's text, comparable as a string; undefined when the text is not a JSON object. */
export function isdlcPartOf(view: 'settings' | 'mcp', text: string | undefined, owned: OwnedRecord | undefined): string | undefined {
  const parsed = parseObject(text);
  if (!parsed) return undefined;
  return JSON.stringify(view === 'settings' ? settingsPart(parsed, owned) : mcpPart(parsed));
}
