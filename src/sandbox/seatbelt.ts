// macOS: a command under sandbox-exec with a Seatbelt profile that refuses writes outside the project and
// the temp folders, and to the guarded set inside the project. Unlike bubblewrap's, the temp folders are
// the machine's, shared with other processes (and the toolchains' caches with them).
// Seatbelt matches path names, not mounts, so a guarded path that does not exist yet is refused by name and
// needs no stand-in. What it must still be told: the folders on the way to a guarded path may not be
// removed or renamed (unlink) nor made anew (create), else a command could move a host's settings folder
// aside and put a forged settings file where the old one was. Writing inside those folders stays allowed.
//
// Written from Apple's profile language as other sandboxes use it; never run on the machine this was
// built on (Linux), so only the profile's text is tested.
import type { Invocation } from './bubblewrap.js';
import type { ProtectionPlan } from './protection-plan.js';
import { SANDBOX_VARIABLES } from './read-only-world.js';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** A path as a profile string literal. */
const quoted = (path: string): string => JSON.stringify(path);

/** Where a command may write besides the project: macOS's temp folders and the devices a shell writes to. */
const WRITABLE_OUTSIDE = ['(subpath "/private/tmp")', '(subpath "/private/var/folders")', '(subpath "/dev")'];

export function seatbeltProfile(plan: Pick<ProtectionPlan, 'root' | 'targets' | 'readOnly' | 'pinned'>): string {
  const guarded = [...new Set([...plan.targets, ...plan.readOnly])];
  const pinned = [...new Set(plan.pinned)].filter((path) => !guarded.includes(path));
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write*',
    `  (subpath ${quoted(plan.root)})`,
    ...WRITABLE_OUTSIDE.map((rule) => `  ${rule}`),
    ')',
  ];
  if (guarded.length > 0) lines.push('(deny file-write*', ...guarded.map((path) => `  (subpath ${quoted(path)})`), ')');
  for (const operation of ['file-write-unlink', 'file-write-create']) {
    if (pinned.length > 0) lines.push(`(deny ${operation}`, ...pinned.map((path) => `  (literal ${quoted(path)})`), ')');
  }
  return `${lines.join('\n')}\n`;
}

export function seatbeltInvocation(profile: string, command: Invocation): Invocation {
  const variables = Object.entries(SANDBOX_VARIABLES).map(([name, value]) => `${name}=${value}`);
  return { file: SANDBOX_EXEC, args: ['-p', profile, '/usr/bin/env', ...variables, command.file, ...command.args], cwd: command.cwd };
}
