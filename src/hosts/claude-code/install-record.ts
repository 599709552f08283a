// Claude Code's fields of `.isdlc/install.json` (src/state/install-record.ts), under the names earlier
// versions wrote them.
import type { InstallRecord } from '../../state/install-record.js';
import type { HookForm } from './settings.js';
import type { VersionSource } from './hook-plan.js';
import type { OwnedRecord } from './owned-settings.js';

export interface ClaudeCodeInstallFields {
  /** Containers in settings.json that did not exist before init. */
  settings_created: string[];
  settings_file_created: boolean;
  /** `.mcp.json` did not exist before init. */
  mcp_file_created?: boolean;
  /** `.mcp.json` had no `mcpServers` before init. */
  mcp_servers_created?: boolean;
  /** The Claude Code init registered the hooks for, where its version came from, and the hook form used. */
  claude_code?: { version: string; from: VersionSource; hook_form: HookForm };
  /** Values init set and list entries it added in settings.json (the sandbox, the deny rules), to give back. */
  settings_owned?: OwnedRecord;
  /** Whether init turned Claude Code's sandbox on, and why not. */
  sandbox?: { on: boolean; why?: string };
  /** The `node` the registered hooks started when init ran (the first on PATH), for doctor to compare. */
  hook_node?: string;
}

/** Claude Code's fields of a record, as far as it has them. */
export function claudeCodeFieldsOf(record: InstallRecord | undefined): Partial<ClaudeCodeInstallFields> | undefined {
  return record as Partial<ClaudeCodeInstallFields> | undefined;
}
