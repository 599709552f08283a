// An agent host as isdlc's faces see it: the parts each layer asks a host for, in one place. Each host
// implements it in its own folder (src/hosts/<host>/), beside the core; the registry (index.ts) lists them.
// The interfaces themselves live with the layer that uses them, so nothing below the faces names a host:
//   HookHost (src/engine/host.ts)      its wire format, the project it names, its sandbox's hold
//   HostFiles (src/integrity/host-files.ts)   its files the guarded set covers
//   HostSetup (src/install/host-setup.ts)     what `isdlc init`, `uninstall` and `doctor` do in its files
import type { Guard } from '../engine/guard.js';
import type { ToolKind } from '../events/hook-event.js';
import type { HookHost } from '../engine/host.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import type { HostFiles } from '../integrity/host-files.js';
import type { Finding, HostSetup } from '../install/host-setup.js';
import type { InstallRecord } from '../state/install-record.js';

/**
 * What the executable says for a host when none of isdlc's hook bundles can run: `say` in the host's wire
 * format, `say.deny` when the call would move the workflow on.
 */
export type LastResort = (payload: Record<string, unknown>, say: { person: string; note: string; deny(advance: string): string }) => string;

/** What the executable knows of a host (src/hosts/executable.ts). */
export interface HostInExecutable {
  /** The canonical kind of the tool a payload names, read from its bytes without parsing them; undefined when none. */
  toolKindIn(bytes: Buffer): ToolKind | undefined;
  lastResort: LastResort;
}

/** What the hook bundles load of a host: kept small, since it is compiled on every hook call. */
export interface HostHookSide {
  hook: HookHost;
  files: HostFiles;
  /** Sample calls of every kind the host sends, for warming the hook bundles' code cache. */
  warmSamples(project: string): Record<string, unknown>[];
}

/** A command-line option a host adds to `isdlc init` or `isdlc doctor`. */
export interface HostOption {
  /** As commander takes them: `--x-version <version>`, `--no-sandbox`. */
  flags: string;
  description: string;
  /** The values it takes, when they are a fixed set. */
  choices?: readonly string[];
  /** Checks a value and gives it back as it is used; throws an Error that says what is wrong. */
  parse?: (value: string) => string;
  commands: readonly ('init' | 'doctor')[];
}

export interface HostDoctorReport {
  /** The command that sets isdlc up again for the host as it was checked. */
  reinit: string;
  /** Which version of the host the checks go by, and whether isdlc supports it. */
  version: Finding[];
  /** Everything else about the host: its settings, the registered hooks, its sandbox. */
  findings: Finding[];
}

/** What keeps the agent's shell from changing isdlc's files in a project, as the host's settings say. */
export interface HostProtection {
  sandboxed: boolean;
  /** Why not, when not. */
  why?: string;
  /** A way around the sandbox that this version of the host leaves open. */
  gap?: string;
  /** No command is let out of the sandbox: a write to isdlc's files cannot have come from the agent's shell. */
  everyCommand: boolean;
}

/** An agent host as the faces (the command line, the MCP server) see it. */
export interface Host extends HostHookSide {
  /**
   * Rules only this host's files need, run with the core's where src/guards/host-guards.ts puts them; the
   * hook bundles take them from src/hosts/tool-call-guards.ts and its siblings (a test keeps them equal).
   */
  guards: readonly Guard[];
  setup: HostSetup;
  options: readonly HostOption[];
  /** Folders of the project where the host keeps agent definitions (`<folder>/<agent>.md`). */
  agentDefinitions: readonly string[];
  /** The variables the host sets in its agent's shell: one of them set says this process runs there. */
  shellMarkers: readonly string[];
  doctor(root: string, guarded: GuardedSet, options: Record<string, unknown>): HostDoctorReport;
  /** Whether init set isdlc up for this host in a project, as its install record says. */
  installedIn(record: InstallRecord | undefined): boolean;
  /** Whether a project not yet set up for the host shows signs of using it (its config folder). */
  usedIn(root: string): boolean;
  protection(root: string): HostProtection;
}
