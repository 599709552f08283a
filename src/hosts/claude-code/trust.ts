// Whether Claude Code trusts the project folder. Until a person accepts its trust dialog there, Claude
// Code ignores the `permissions.allow` rules of the project's settings (isdlc's included) and asks before
// each isdlc command and MCP tool; hooks run either way. Trust is recorded per exact folder path in
// `.claude.json` (a trusted parent folder does not count).
import { realpathSync } from 'node:fs';
import { readTextIfPresent } from '../../util/read-text.js';
import { recordOrUndefined } from '../../util/json.js';
import { claudeConfigFile } from './settings-files.js';

export type ProjectTrust = { trusted: true; file: string } | { trusted: false; file: string; why: string };

export function projectTrust(root: string, env: NodeJS.ProcessEnv = process.env): ProjectTrust {
  const file = claudeConfigFile(env);
  let text: string | undefined;
  try {
    text = readTextIfPresent(file);
  } catch (error) {
    return { trusted: false, file, why: `${file} cannot be read: ${(error as Error).message}` };
  }
  if (text === undefined) return { trusted: false, file, why: `${file} does not exist` };
  let projects: Record<string, unknown> | undefined;
  try {
    projects = recordOrUndefined(recordOrUndefined(JSON.parse(text))?.['projects']);
  } catch (error) {
    return { trusted: false, file, why: `${file} is not valid JSON (${(error as Error).message})` };
  }
  // The folder as given, or as the file system resolves it (a symlinked temp folder, say).
  const keys = new Set([root]);
  try {
    keys.add(realpathSync(root));
  } catch {
    // A folder that cannot be resolved is looked up as given.
  }
  const entries = [...keys].map((key) => recordOrUndefined(projects?.[key])).filter((entry) => entry !== undefined);
  if (entries.some((entry) => entry['hasTrustDialogAccepted'] === true)) return { trusted: true, file };
  return {
    trusted: false,
    file,
    why: entries.length > 0 ? `${file} does not mark it hasTrustDialogAccepted` : `${file} has no entry for this folder`,
  };
}
