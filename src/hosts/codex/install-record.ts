// Codex's fields of `.isdlc/install.json` (src/state/install-record.ts): which version init went by, whether
// that version holds isdlc's files read-only, and which of its files init created.
import type { InstallRecord } from '../../state/install-record.js';
import { recordOrUndefined } from '../../util/json.js';

export interface CodexInstallFields {
  codex: { version: string; from: 'flag' | 'installed' | 'assumed'; wall: boolean };
  codex_hooks_file_created?: boolean;
  codex_config_file_created?: boolean;
  /** Whether init created the project's AGENTS.md (for isdlc's section) rather than adding to the person's. */
  codex_agents_file_created?: boolean;
}

/** Codex's fields of a record, when init set isdlc up for Codex. */
export function codexFieldsOf(record: InstallRecord | undefined): CodexInstallFields | undefined {
  const codex = recordOrUndefined(record?.['codex']);
  return codex && typeof codex['version'] === 'string' ? (record as unknown as CodexInstallFields) : undefined;
}
