// The registry of agent hosts isdlc speaks to. Each is an adapter in its own folder, beside the core; the
// faces (the command line, the MCP server, the hook entry) pick from here, and nothing below them names a
// host. Adding a host is adding its folder and one line here and in hook-hosts.ts.
import type { Guard } from '../engine/guard.js';
import { withHostGuards } from '../guards/host-guards.js';
import { CLAUDE_CODE } from './claude-code/index.js';
import { CODEX } from './codex/index.js';
import { readInstallRecord } from '../state/install-record.js';
import type { RunIsolation } from '../verify/gate-run.js';
import { GUARDED } from './hook-hosts.js';
import type { Host, HostProtection } from './host.js';

export const HOSTS: readonly Host[] = Object.freeze([CLAUDE_CODE, CODEX]);

export const HOST_IDS: readonly string[] = Object.freeze(HOSTS.map((host) => host.hook.id));

/**
 * The hosts a project is set up for, or to set up: those `ids` name (`isdlc init --host`), else the ones its
 * install record names, else Claude Code and every other host whose folder the project has.
 */
export function hostsFor(root: string, ids?: readonly string[]): Host[] {
  if (ids && ids.length > 0) return HOSTS.filter((host) => ids.includes(host.hook.id));
  const record = readInstallRecord(root);
  const installed = HOSTS.filter((host) => host.installedIn(record));
  if (installed.length > 0) return installed;
  return HOSTS.filter((host) => host === CLAUDE_CODE || host.usedIn(root));
}

/** The project folder a host names in this process's environment (its hooks, its agent's shell), if any. */
export function projectDirFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  for (const host of HOSTS) {
    const dir = host.hook.projectDir(env);
    if (dir) return dir;
  }
  return undefined;
}

/** `core` (the whole registry of guards) with every host's own in their place. */
export function guardsWithHosts(core: readonly Guard[]): readonly Guard[] {
  return withHostGuards(
    core,
    HOSTS.flatMap((host) => host.guards),
  );
}

/** Every host's folders of agent definitions. */
export const AGENT_DEFINITION_DIRS: readonly string[] = Object.freeze(HOSTS.flatMap((host) => host.agentDefinitions));

/** What keeps the agent's shell from isdlc's files in a project, as a whole and host by host. */
export interface ProjectProtection extends HostProtection {
  /** Each host the project is set up for, by the name people call it. */
  hosts: (HostProtection & { host: string })[];
}

/**
 * What keeps the agent's shell from isdlc's files in this project. With two hosts the agent may work in
 * either, so the project is sandboxed only when each host holds its shell, and a command that wrote
 * isdlc's files can have come from neither shell only when both let no command out.
 */
export function protectionOf(root: string): ProjectProtection {
  const hosts = hostsFor(root).map((host) => ({ host: host.hook.name, ...host.protection(root) }));
  if (hosts.length === 1) {
    const { host: _host, ...only } = hosts[0]!;
    return { ...only, hosts };
  }
  const open = hosts.filter((each) => !each.sandboxed);
  const gaps = hosts.filter((each) => each.gap);
  return {
    sandboxed: open.length === 0,
    ...(open.length > 0 ? { why: open.map((each) => `${each.host}: ${each.why ?? 'unknown'}`).join('; ') } : {}),
    ...(gaps.length > 0 ? { gap: gaps.map((each) => `${each.host}: ${each.gap}`).join('; ') } : {}),
    everyCommand: hosts.every((each) => each.everyCommand),
    hosts,
  };
}

/** The host whose agent's shell this process runs in, if any. */
export function agentShellHost(env: NodeJS.ProcessEnv): Host | undefined {
  return HOSTS.find((host) => host.shellMarkers.some((name) => env[name] === '1'));
}

/** What the gate's own test run is kept apart from the agent with: every host's files read-only, no host's marker. */
export function gateIsolation(): RunIsolation {
  return { protect: GUARDED.protectedPaths(), hostMarkers: HOSTS.flatMap((host) => host.shellMarkers) };
}
