// The registered hosts as the hook bundles need them: which one sent a call, and what every one of them adds
// to the guarded set. A new host is one line in HOOK_HOSTS (and one in index.ts); its guards go in the
// list of each hook bundle whose events they react to (tool-call-guards.ts, tool-result-guards.ts, turn-guards.ts).
import type { HookHost } from '../engine/host.js';
import { configDirsWith } from '../config/project-config.js';
import { GuardedSet } from '../integrity/guarded-set.js';
import { CLAUDE_CODE_HOOK_SIDE } from './claude-code/hook-side.js';
import { CODEX_HOOK_SIDE } from './codex/hook-side.js';
import type { HostHookSide } from './host.js';

export const HOOK_HOSTS: readonly HostHookSide[] = Object.freeze([CLAUDE_CODE_HOOK_SIDE, CODEX_HOOK_SIDE]);

export { DEFAULT_HOST } from './default-host.js';

/** The guarded set of every project: isdlc's files and what each registered host adds (any host's agent is kept off all of them). */
export const GUARDED = new GuardedSet(HOOK_HOSTS.map((host) => host.files));

/** Where config files are looked for: isdlc's folder, then each host's (a framework's config its projects keep). */
export const CONFIG_DIRS: readonly string[] = Object.freeze(configDirsWith(GUARDED.configFolders));

/** The host with this id, or undefined. */
export function hookHostById(id: string): HookHost | undefined {
  return HOOK_HOSTS.find((host) => host.hook.id === id)?.hook;
}

export const HOOK_HOST_IDS: readonly string[] = Object.freeze(HOOK_HOSTS.map((host) => host.hook.id));
