// What an agent host adds to the files isdlc guards in a project. The host keeps isdlc's registration in
// files of its own (its settings, its MCP server list), runs definitions from the project as code, and reads
// files outside the project that decide whether isdlc runs at all. Each host adapter describes them here
// (src/hosts/<host>/), and the faces pass every registered host's description down: nothing in the trust
// layer names a host.
import type { InstallRecord } from '../state/install-record.js';

/** A file isdlc shares with the person: only isdlc's part of it is guarded, the rest is the person's. */
export interface SharedFile {
  /** Relative to the project root, `/`-separated. */
  path: string;
  /** `settings`: where the host's hooks are registered; `mcp`: where MCP servers are registered. */
  kind: 'settings' | 'mcp';
  /**
   * isdlc's part of the file's text (undefined text: no file), comparable as a string; undefined when the
   * text is not one the host would read. `install` is the install record, whose host fields may name
   * values isdlc set in the file.
   */
  isdlcPart(text: string | undefined, install: InstallRecord | undefined): string | undefined;
}

export interface HostFiles {
  /** The host's files in the project that hold isdlc's registration. */
  shared: readonly SharedFile[];
  /** Folders in the project guarded whole, as configuration isdlc reads (a framework's config folder). */
  configFolders: readonly string[];
  /**
   * Folders of what the host runs as code with the person's rights (agent, skill and command definitions):
   * not isdlc's files, but a command run for the agent must not change them either.
   */
  runAsCode: readonly string[];
  /** The host's files outside the project that decide which hooks run; only those that exist. */
  outside(env: NodeJS.ProcessEnv): string[];
}
