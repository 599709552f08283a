// Claude Code's files in and around a project that the guarded set must cover (src/integrity/host-files.ts):
// the settings where isdlc's hooks are registered, `.mcp.json` where its MCP server is, the JavaScript
// iSDLC framework's config folder (that framework ran as Claude Code hooks), the agent, skill and command
// definitions Claude Code runs, and its settings outside the project.
import { dirname } from 'node:path';
import { somethingAt } from '../../util/read-text.js';
import type { HostFiles, SharedFile } from '../../integrity/host-files.js';
import { claudeCodeFieldsOf } from './install-record.js';
import { isdlcPartOf } from './isdlc-part.js';
import { claudeConfigFile, claudeManagedSettingsFile, claudeUserSettingsFile } from './settings-files.js';

export const SETTINGS_FILE = '.claude/settings.json';
export const LOCAL_SETTINGS_FILE = '.claude/settings.local.json';
export const MCP_FILE = '.mcp.json';

const settingsFile = (path: string): SharedFile => ({
  path,
  kind: 'settings',
  isdlcPart: (text, install) => isdlcPartOf('settings', text, claudeCodeFieldsOf(install)?.settings_owned),
});

export const CLAUDE_CODE_FILES: HostFiles = {
  shared: [
    settingsFile(SETTINGS_FILE),
    settingsFile(LOCAL_SETTINGS_FILE),
    { path: MCP_FILE, kind: 'mcp', isdlcPart: (text) => isdlcPartOf('mcp', text, undefined) },
  ],
  configFolders: ['.claude/hooks/config'],
  // The `hooks:` in a definition's frontmatter run outside the sandbox from the next session on.
  runAsCode: ['.claude/agents', '.claude/skills', '.claude/commands'],
  outside: claudeHostTargets,
};

/**
 * Claude Code's settings outside the project, which decide which hooks run and whether the sandbox is on:
 * the user's configuration folder and record file, and the managed settings' folder. A rule that wrote them
 * would switch isdlc off, or run its own hook outside every sandbox, from the next session on. Only those
 * that exist: sealing a home folder that has none yet would refuse every new file in it (a cache, say).
 */
export function claudeHostTargets(env: NodeJS.ProcessEnv = process.env): string[] {
  const candidates = [dirname(claudeUserSettingsFile(env)), claudeConfigFile(env), dirname(claudeManagedSettingsFile())];
  return candidates.filter(somethingAt);
}
