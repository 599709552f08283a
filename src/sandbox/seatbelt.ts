// macOS: a command under sandbox-exec with a Seatbelt profile that refuses writes to the guarded set.
// Seatbelt matches path names, not mounts, so a guarded path that does not exist yet is refused by name and
// needs no stand-in. What it must still be told: the folders on the way to a guarded path may not be
// removed or renamed (unlink) nor made anew (create), else a command could move a host's settings folder
// aside and put a forged settings file where the old one was. Writing inside those folders stays allowed.
//
// Written from Apple's profile language as other sandboxes use it; never run on the machine this was
// built on (Linux), so only the profile's text is tested.
import type { Invocation } from './bubblewrap.js';
import type { ProtectionPlan } from './protection-plan.js';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** A path as a profile string literal. */
const quoted = (path: string): string => JSON.stringify(path);

export function seatbeltProfile(plan: Pick<ProtectionPlan, 'targets' | 'readOnly' | 'pinned'>): string {
  const guarded = [...new Set([...plan.targets, ...plan.readOnly])];
  const pinned = [...new Set(plan.pinned)].filter((path) => !guarded.includes(path));
  const lines = ['(version 1)', '(allow default)'];
  if (guarded.length > 0) lines.push('(deny file-write*', ...guarded.map((path) => `  (subpath ${quoted(path)})`), ')');
  for (const operation of ['file-write-unlink', 'file-write-create']) {
    if (pinned.length > 0) lines.push(`(deny ${operation}`, ...pinned.map((path) => `  (literal ${quoted(path)})`), ')');
  }
  return `${lines.join('\n')}\n`;
}

export function seatbeltInvocation(profile: string, command: Invocation): Invocation {
  return { file: SANDBOX_EXEC, args: ['-p', profile, command.file, ...command.args], cwd: command.cwd };
}
