// The hosts the tests run isdlc with: the registered ones, as the hook and the command line use them, and
// a made-up host whose files the trust layer's own tests guard (so they prove the mechanism, not one host).
import { DEFAULT_HOST, GUARDED, hookHostById } from '../../src/hosts/hook-hosts.js';
import { GuardedSet } from '../../src/integrity/guarded-set.js';
import type { HostFiles } from '../../src/integrity/host-files.js';

export { GUARDED };

/** The host whose wire format the payload helpers write (payloads.ts): the one a hook answers by default. */
export const HOOK_HOST = hookHostById(DEFAULT_HOST)!;

/** The registered host's settings file, where isdlc's hooks are registered: a shared file of the guarded set. */
export const HOST_SETTINGS = GUARDED.sharedFiles.find((file) => file.kind === 'settings')!.path;
/** The registered host's list of MCP servers. */
export const HOST_MCP_LIST = GUARDED.sharedFiles.find((file) => file.kind === 'mcp')!.path;

/** The environment in which the registered host names `dir` as the project (its hooks get it so). */
export function projectEnv(dir: string): Record<string, string> {
  return { CLAUDE_PROJECT_DIR: dir };
}

/** An agent host that keeps its settings in `.agent/settings.json` and its MCP servers in `.agent/mcp.json`. */
export const EXAMPLE_HOST_FILES: HostFiles = {
  shared: [
    { path: '.agent/settings.json', kind: 'settings', isdlcPart: (text) => text },
    { path: '.agent/mcp.json', kind: 'mcp', isdlcPart: (text) => text },
  ],
  configFolders: ['.agent/framework-config'],
  runAsCode: ['.agent/skills'],
  outside: () => [],
};

export const EXAMPLE_GUARDED = new GuardedSet([EXAMPLE_HOST_FILES]);
