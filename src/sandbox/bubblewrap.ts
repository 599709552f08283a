// Linux: a command inside bubblewrap with the machine read-only, private temp folders, the project writable
// and its guarded set read-only again (read-only-world.ts); the network as it was, so test suites and builds
// keep working.
//   - `--unshare-pid` with `--die-with-parent`: when the command ends, or whoever started it dies, the
//     sandbox's own init goes and the kernel kills every process left in it, even one that left the process
//     group (setsid); and nothing outside is visible, so `/proc/<pid>/root` cannot lead back to the host's
//     files. No `--new-session`: the command stays in the caller's process group, which command.ts signals
//     as a whole on a timeout (the caller already starts it without a terminal).
//   - `--cap-drop ALL`: run as root, bubblewrap would otherwise leave the command able to unmount the
//     read-only binds. Otherwise a user namespace is made, and `--disable-userns` forbids nesting another.
//   - a fresh /dev and /proc, and /sys read-only: no raw disks, no kernel knobs writable by root.
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { delimiter, isAbsolute, join, sep } from 'node:path';
import type { Invocation } from '../util/process-group.js';
import type { ProtectionPlan } from './protection-plan.js';
import { PRIVATE_TEMP, SANDBOX_VARIABLES, type Mount } from './read-only-world.js';

export type { Invocation };

export type { Mount };

/** The sandbox makes these itself (fresh or read-only); binding them from the host would undo that. */
const OWN_MOUNTS = new Set(['/dev', '/proc', '/sys']);

const inside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
const depth = (path: string): number => path.split(sep).filter(Boolean).length;

/** The entries of a folder that can be mounted on: a symbolic link cannot (the mount would follow it). */
function mountableEntries(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !entry.isSymbolicLink())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** The mounts that carry out a plan, parents before children (a later mount covers an earlier one). */
export function mountsFor(plan: ProtectionPlan, entriesOf: (folder: string) => string[] = mountableEntries): Mount[] {
  const modes = new Map<string, Mount['mode']>();
  for (const path of plan.pinned) modes.set(path, 'rw');
  for (const folder of plan.sealed) {
    modes.set(folder, 'ro');
    for (const name of entriesOf(folder)) {
      const path = join(folder, name);
      if (!modes.has(path)) modes.set(path, 'rw');
    }
  }
  for (const path of plan.readOnly) modes.set(path, 'ro');
  // Nothing inside a guarded folder is bound back writable.
  const guarded = plan.readOnly;
  return [...modes]
    .filter(([path, mode]) => !OWN_MOUNTS.has(path) && !(mode === 'rw' && guarded.some((folder) => path !== folder && inside(path, folder))))
    .map(([path, mode]) => ({ path, mode }))
    .sort((a, b) => depth(a.path) - depth(b.path));
}

/**
 * Options every bubblewrap run here shares, the probe's included: the machine read-only (read-only-world.ts)
 * with fresh temp folders of its own.
 */
export function baseArgs(asRoot: boolean): string[] {
  return [
    '--die-with-parent',
    '--unshare-pid',
    ...(asRoot ? [] : ['--unshare-user', '--disable-userns']),
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--ro-bind',
    '/sys',
    '/sys',
    ...PRIVATE_TEMP.flatMap((folder) => ['--tmpfs', folder]),
  ];
}

export function bubblewrapArgs(mounts: readonly Mount[], command: Invocation, asRoot: boolean): string[] {
  return [
    ...baseArgs(asRoot),
    ...mounts.flatMap((mount) => [mount.mode === 'ro' ? '--ro-bind' : '--bind', mount.path, mount.path]),
    ...Object.entries(SANDBOX_VARIABLES).flatMap(([name, value]) => ['--setenv', name, value]),
    '--chdir',
    command.cwd,
    '--',
    command.file,
    ...command.args,
  ];
}

/**
 * Where bwrap is: the system's folders first, then PATH's absolute entries. A PATH that names a folder the
 * agent can write (a project's node_modules/.bin) must not hand it the program that is to confine it.
 */
export function findBubblewrap(path = process.env['PATH'] ?? ''): string | undefined {
  const folders = ['/usr/bin', '/bin', '/usr/local/bin', ...path.split(delimiter).filter((folder) => isAbsolute(folder))];
  for (const folder of folders) {
    const candidate = join(folder, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The package manager's command that installs bubblewrap on this distribution, when it is known. */
export function installHint(osRelease: string | undefined): string {
  const family = /^(?:ID|ID_LIKE)=["']?([^"'\n]*)/gm;
  for (const match of (osRelease ?? '').matchAll(family)) {
    if (/\b(?:debian|ubuntu)\b/.test(match[1]!)) return 'apt-get install bubblewrap';
  }
  return 'install bubblewrap (bwrap) from your distribution';
}

function readOsRelease(): string | undefined {
  try {
    return readFileSync('/etc/os-release', 'utf8');
  } catch {
    return undefined;
  }
}

export type BubblewrapProbe = { ok: true; bwrap: string } | { ok: false; why: string; install?: string };

/** Whether bubblewrap is here and can start a sandbox like the ones rules run in (containers often forbid it). */
export function probeBubblewrap(): BubblewrapProbe {
  const bwrap = findBubblewrap();
  if (!bwrap) return { ok: false, why: 'bubblewrap (bwrap) is not installed', install: installHint(readOsRelease()) };
  const asRoot = process.getuid?.() === 0;
  // Loaded here, not on import: the loop bundle loads this module at every Stop of a project with loops.
  const run = process
    .getBuiltinModule('node:child_process')
    .spawnSync(bwrap, [...baseArgs(asRoot), '--', 'true'], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status === 0) return { ok: true, bwrap };
  const said = (run.stderr ?? '').trim().split('\n')[0] || (run.error ? run.error.message : `exit ${run.status ?? run.signal}`);
  const namespaces = /namespace|uid map|setting up|Operation not permitted|Permission denied/i.test(said)
    ? ' (user namespaces may be switched off here: in a container, or by sysctl kernel.unprivileged_userns_clone / AppArmor)'
    : '';
  return { ok: false, why: `${bwrap} cannot start a sandbox here: ${said}${namespaces}` };
}
