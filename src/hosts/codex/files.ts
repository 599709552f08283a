// Codex's files in and around a project that the guarded set covers (src/integrity/host-files.ts): the hook
// registrations in `.codex/hooks.json`, isdlc's part of `.codex/config.toml` (the permission profile that
// keeps the agent's shell off isdlc's files, and the MCP server), and the person's Codex home and the
// machine's managed config, which decide whether those hooks run at all.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { somethingAt } from '../../util/read-text.js';
import type { HostFiles } from '../../integrity/host-files.js';
import { parseToml } from '../../util/toml.js';
import { hooksFeatureOf } from './hooks-feature.js';

export const HOOKS_FILE = '.codex/hooks.json';
export const CONFIG_FILE = '.codex/config.toml';
/** isdlc's part of a TOML file lies between these lines; the rest is the person's. */
export const TOML_BEGIN = '# >>> isdlc (managed by `isdlc init`; `isdlc uninstall` removes it)';
export const TOML_END = '# <<< isdlc';

/** The person's Codex home: `CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env['CODEX_HOME'] || join(env['HOME'] || homedir(), '.codex');
}

/** The text of every isdlc block of a TOML file, in order; undefined without a file. */
export function isdlcBlocksOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const blocks: string[] = [];
  let inside: string[] | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line === TOML_BEGIN) inside = [];
    else if (line === TOML_END && inside) {
      blocks.push(inside.join('\n'));
      inside = undefined;
    } else inside?.push(line);
  }
  return blocks.join('\n---\n');
}

/**
 * isdlc's part of `.codex/config.toml`: its blocks, and the hooks feature wherever the file sets it. The
 * rest of the file is the person's, but `[features] hooks = false` there switches every hook off, isdlc's
 * included, so a change to it is undone like a change to isdlc's blocks (a person keeps it with `isdlc
 * changes accept`). A text that is not TOML is no part at all, so it is undone too.
 */
export function isdlcConfigPart(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let config: Record<string, unknown>;
  try {
    config = parseToml(text);
  } catch {
    return undefined;
  }
  return `${isdlcBlocksOf(text)}\n---\n${JSON.stringify(hooksFeatureOf(config))}`;
}

/** isdlc's hook registrations in a hooks.json text: the handlers whose command runs isdlc's hook. */
export function isdlcHooksOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const hooks = (parsed as { hooks?: Record<string, unknown> } | null)?.hooks;
  if (!hooks || typeof hooks !== 'object') return '';
  const ours: [string, unknown][] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    for (const group of Array.isArray(groups) ? groups : []) {
      const handlers = (group as { hooks?: unknown }).hooks;
      for (const handler of Array.isArray(handlers) ? handlers : []) {
        const command = (handler as { command?: unknown }).command;
        if (typeof command === 'string' && command.includes('isdlc.cjs') && command.includes('--host codex'))
          ours.push([event, { matcher: (group as { matcher?: unknown }).matcher, ...(handler as object) }]);
      }
    }
  }
  return JSON.stringify(ours);
}

export const CODEX_FILES: HostFiles = {
  shared: [
    { path: HOOKS_FILE, kind: 'settings', isdlcPart: (text) => isdlcHooksOf(text) },
    { path: CONFIG_FILE, kind: 'settings', isdlcPart: (text) => isdlcConfigPart(text) },
  ],
  configFolders: [],
  // Codex runs what these say with the person's rights: hook commands, and agent roles' instructions.
  runAsCode: ['.codex'],
  outside: codexHostTargets,
};

/** The person's Codex home and the machine's managed config, where they exist. */
export function codexHostTargets(env: NodeJS.ProcessEnv = process.env): string[] {
  return [codexHome(env), '/etc/codex'].filter(somethingAt);
}
