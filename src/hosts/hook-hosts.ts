// The registered hosts as the hook bundles need them: which one sent a call, what every one of them adds
// to the guarded set, and their guards. A new host is one line in HOOK_HOSTS (and one in index.ts).
import type { Guard } from '../engine/guard.js';
import type { HookHost } from '../engine/host.js';
import { withHostGuards } from '../guards/host-guards.js';
import { configDirsWith } from '../config/project-config.js';
import { GuardedSet } from '../integrity/guarded-set.js';
import { CLAUDE_CODE_HOOK_SIDE } from './claude-code/hook-side.js';
import type { HostHookSide } from './host.js';

export const HOOK_HOSTS: readonly HostHookSide[] = Object.freeze([CLAUDE_CODE_HOOK_SIDE]);

export { DEFAULT_HOST } from './default-host.js';

/** The guarded set of every project: isdlc's files and what each registered host adds (any host's agent is kept off all of them). */
export const GUARDED = new GuardedSet(HOOK_HOSTS.map((host) => host.files));

/** Where config files are looked for: isdlc's folder, then each host's (a framework's config its projects keep). */
export const CONFIG_DIRS: readonly string[] = Object.freeze(configDirsWith(GUARDED.configFolders));

/** Every host's own guards. */
export const HOST_GUARDS: readonly Guard[] = Object.freeze(HOOK_HOSTS.flatMap((host) => host.guards));

/** `core` (a hook bundle's guards, or the whole registry) with the hosts' guards that `keep` admits, in their place. */
export function guardsWithHosts(core: readonly Guard[], keep: (guard: Guard) => boolean = () => true): readonly Guard[] {
  return withHostGuards(core, HOST_GUARDS.filter(keep));
}

/** The host with this id, or undefined. */
export function hookHostById(id: string): HookHost | undefined {
  return HOOK_HOSTS.find((host) => host.hook.id === id)?.hook;
}

export const HOOK_HOST_IDS: readonly string[] = Object.freeze(HOOK_HOSTS.map((host) => host.hook.id));
