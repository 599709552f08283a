// The permission profile that keeps Codex's agent off isdlc's files: in the project's `.codex/config.toml`,
// `default_permissions` names a profile that extends Codex's workspace profile with every guarded path
// read-only. The agent's shell and apply_patch then get "Read-only file system" there, whatever the command;
// isdlc's hooks and MCP server run outside Codex's sandbox and still write. The folders above those paths are
// named too (folders-above.ts), so that none can be renamed with a held path in it. The key must come before
// any table, so isdlc's part of the file is two blocks: one at its top, one at its end.
import { join } from 'node:path';
import { readTextIfPresent } from '../../util/read-text.js';
import { CONFIG_FILE, TOML_BEGIN, TOML_END, isdlcBlocksOf } from './files.js';
import { foldersAboveHeld } from './folders-above.js';

export const PROFILE = 'isdlc';
export const DEFAULT_PERMISSIONS_LINE = `default_permissions = "${PROFILE}"`;

/** A TOML basic string (JSON's escapes are TOML's for the characters a path holds). */
export const tomlString = (text: string): string => JSON.stringify(text);

export interface McpServer {
  command: string;
  args: readonly string[];
}

/**
 * isdlc's two blocks of config.toml: the key that must precede every table, and the tables. `readOnly`: the
 * paths held read-only, relative to the project; `aboveProject`: absolute folders above the project held
 * read-only too (folders-above.ts).
 */
export function configBlocks(readOnly: readonly string[], mcp: McpServer, aboveProject: readonly string[] = []): { top: string; end: string } {
  const top = [TOML_BEGIN, DEFAULT_PERMISSIONS_LINE, TOML_END].join('\n');
  const pinned = (path: string): string => `${tomlString(path)} = "write"`;
  const end = [
    TOML_BEGIN,
    `[permissions.${PROFILE}]`,
    'extends = ":workspace"',
    '',
    ...(aboveProject.length > 0 ? [`[permissions.${PROFILE}.filesystem]`, ...aboveProject.map((path) => `${tomlString(path)} = "read"`), ''] : []),
    `[permissions.${PROFILE}.filesystem.":workspace_roots"]`,
    ...readOnly.map((path) => `${tomlString(path)} = "read"`),
    ...foldersAboveHeld(readOnly).map(pinned),
    '',
    `[mcp_servers.${PROFILE}]`,
    `command = ${tomlString(mcp.command)}`,
    `args = [${mcp.args.map(tomlString).join(', ')}]`,
    // Codex's exec mode asks before every MCP tool otherwise, and nobody is there to answer.
    'default_tools_approval_mode = "approve"',
    TOML_END,
  ].join('\n');
  return { top, end };
}

/** `text` with isdlc's blocks taken out, and the blank line withIsdlcBlocks put beside each. */
export function withoutIsdlcBlocks(text: string): string {
  const lines = text.split('\n');
  const kept: string[] = [];
  let inside = false;
  let afterTop = false;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    if (line === TOML_BEGIN) {
      inside = true;
      // The blank line before an end block is isdlc's.
      if (kept.length > 0 && kept.at(-1) === '') kept.pop();
      continue;
    }
    if (inside) {
      if (line === TOML_END) {
        inside = false;
        afterTop = kept.length === 0;
      }
      continue;
    }
    // The blank line after the top block is isdlc's.
    if (afterTop && line === '') {
      afterTop = false;
      continue;
    }
    afterTop = false;
    kept.push(raw);
  }
  return kept.join('\n');
}

/** `text` (the person's config, maybe none) with isdlc's blocks: the top one first, the end one last. */
export function withIsdlcBlocks(text: string | undefined, blocks: { top: string; end: string }): string {
  const own = withoutIsdlcBlocks(text ?? '').replace(/\n+$/, '');
  return own === '' ? `${blocks.top}\n\n${blocks.end}\n` : `${blocks.top}\n\n${own}\n\n${blocks.end}\n`;
}

/** A `default_permissions` the person set themselves (outside isdlc's blocks), which isdlc must not override. */
export function personsDefaultPermissions(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const own = withoutIsdlcBlocks(text);
  return /^\s*default_permissions\s*=\s*"([^"]*)"/m.exec(own)?.[1];
}

/** Whether the project's config holds isdlc's profile as init wrote it (text only: this runs in the hook). */
export function codexProfileHolds(root: string): boolean {
  let text: string | undefined;
  try {
    text = readTextIfPresent(join(root, CONFIG_FILE));
  } catch {
    return false;
  }
  if (text === undefined || personsDefaultPermissions(text) !== undefined) return false;
  const firstContent = text.split('\n').find((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  return firstContent?.trim() === DEFAULT_PERMISSIONS_LINE && (isdlcBlocksOf(text) ?? '').includes('"read"');
}
