// What `isdlc init`, `uninstall` and `doctor` ask of an agent host (src/hosts/<host>/setup.ts): register
// isdlc in the host's own files, take it out again, and say whether the host will run what was registered.
// isdlc's own part (`.isdlc/`, the constitution, the journal) is install.ts's; the faces pick the hosts and
// pass them in.
import type { ProjectConfig } from '../config/project-config.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import type { InstallRecord } from '../state/install-record.js';

export type Change = 'created' | 'updated' | 'unchanged' | 'kept' | 'removed' | 'skipped';

export interface ChangeLine {
  path: string;
  change: Change;
  note?: string;
}

export class InstallError extends Error {}

export type Severity = 'ok' | 'warn' | 'fail';

/** One line of `isdlc doctor`: what was found, and for a problem how to fix it. */
export interface Finding {
  severity: Severity;
  what: string;
  fix?: string;
}

export interface HostInitContext {
  root: string;
  /** What the host's sandbox and permission rules must keep from the agent. */
  guarded: GuardedSet;
  /** The record of the last init, if any. */
  previous: InstallRecord | undefined;
  config: ProjectConfig;
}

/** What a host will do in the project, worked out before init changes anything. */
export interface HostInitPlan {
  /** The host's fields of install.json. */
  record: Record<string, unknown>;
  /** Files the host installs (relative path → content): isdlc's while untouched, the person's once edited. */
  files: Record<string, string>;
  /** Writes the host's own files (its settings, its MCP server list); after isdlc's files are in place. */
  write(): ChangeLine[];
  /** What the person should read: what was registered, and for which version of the host. */
  notices(): string[];
}

export interface HostSetup {
  /** Whether the host will run what init registers; throws an InstallError, before any change, when not. */
  checkInit(options: Record<string, unknown>): void;
  /**
   * Reads and merges the host's files and checks that the host will run what is registered; throws an
   * InstallError, before any change, when it cannot. `options` are the host's own command-line options.
   */
  prepareInit(context: HostInitContext, options: Record<string, unknown>): HostInitPlan;
  /** Takes isdlc out of the host's shared files; the files it installed are removed by install.ts. */
  uninstall(root: string, record: InstallRecord | undefined): ChangeLine[];
  /** Whether a file install.json lists is one this host installed (removed on uninstall while untouched). */
  installed(rel: string): boolean;
  /** Folders of the host's installed files, taken away on uninstall when empty (deepest first). */
  folders: readonly string[];
}
