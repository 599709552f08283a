// The OS sandbox for commands isdlc runs on the agent's behalf (a loop's `command` rules): the Stop hook
// and the MCP server run outside the agent host's sandbox, so without one of their own a rule the agent wrote
// could rewrite isdlc's state, its loop store or the hook itself, or leave configuration outside the project
// for isdlc's own unsandboxed processes to read. Inside it only the project is writable, less its protected
// paths (the guarded set, src/integrity/guarded-set.ts), and the temp folders are the command's own.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ISDLC_DIR } from '../state/locate.js';
import { bubblewrapArgs, mountsFor, probeBubblewrap, type BubblewrapProbe, type Invocation } from './bubblewrap.js';
import { holdPlaceholders } from './placeholders.js';
import { planProtection, type ProtectedPaths } from './protection-plan.js';
import { keptVisible, worldMounts } from './read-only-world.js';
import { SANDBOX_EXEC, seatbeltInvocation, seatbeltProfile } from './seatbelt.js';

export type { Invocation } from './bubblewrap.js';
export type { ProtectedPaths } from './protection-plan.js';

export type OsSandboxKind = 'bubblewrap' | 'seatbelt';
export type OsSandboxSupport = { ok: true; kind: OsSandboxKind } | { ok: false; why: string; install?: string };

let bubblewrap: BubblewrapProbe | undefined;
let probed: OsSandboxSupport | undefined;

function probeNow(): OsSandboxSupport {
  switch (process.platform) {
    case 'linux': {
      bubblewrap = probeBubblewrap();
      if (bubblewrap.ok) return { ok: true, kind: 'bubblewrap' };
      return { ok: false, why: bubblewrap.why, ...(bubblewrap.install ? { install: bubblewrap.install } : {}) };
    }
    case 'darwin':
      return existsSync(SANDBOX_EXEC) ? { ok: true, kind: 'seatbelt' } : { ok: false, why: `${SANDBOX_EXEC} is missing` };
    case 'win32':
      return { ok: false, why: 'Windows has no OS sandbox isdlc can use (under WSL, bubblewrap works)' };
    default:
      return { ok: false, why: `isdlc knows no OS sandbox on ${process.platform}` };
  }
}

/** Whether commands can run in an OS sandbox on this machine, and if not, why and what to install. Asked once per process. */
export function probeOsSandbox(): OsSandboxSupport {
  probed ??= probeNow();
  return probed;
}

/**
 * Switches the sandbox off for the process that runs rules, for tests of what happens without one. It is
 * read from the environment of the Stop hook or the MCP server, which the agent host starts; an agent can set
 * variables only for its own shell, not for them. And off is the stricter side: without a sandbox the
 * rules an agent set wait for a person's approval, so the switch can hold rules back, never let one out.
 */
export const SANDBOX_SWITCH = 'ISDLC_OS_SANDBOX';

/** The sandbox command rules run in here: probeOsSandbox, unless switched off for this process. */
export function ruleSandbox(env: NodeJS.ProcessEnv = process.env): OsSandboxSupport {
  if (env[SANDBOX_SWITCH] === 'off') return { ok: false, why: `the OS sandbox is switched off for this process (${SANDBOX_SWITCH}=off)` };
  return probeOsSandbox();
}

/**
 * The nearest folder at or above `root` that holds a repository (a `.git` file, or a `.git` folder with a
 * HEAD: an empty one is a sandbox's placeholder): the work tree the project is part of.
 */
function workTreeAbove(root: string): string | undefined {
  for (let folder = root; ; folder = dirname(folder)) {
    const dotGit = join(folder, '.git');
    if (existsSync(join(dotGit, 'HEAD')) || statSync(dotGit, { throwIfNoEntry: false })?.isFile() === true) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

export interface SandboxedInvocation {
  invocation: Invocation;
  /** Call once the command and everything it started have ended. */
  release: () => void;
}

/**
 * `command` as it runs in the sandbox, with `protect` of the project at `root` read-only. Throws when the
 * sandbox cannot be prepared (the project cannot be read, `.isdlc/` cannot be written).
 */
export function sandboxInvocation(kind: OsSandboxKind, command: Invocation, root: string, protect: ProtectedPaths): SandboxedInvocation {
  const plan = planProtection(root, protect);
  if (kind === 'seatbelt') return { invocation: seatbeltInvocation(seatbeltProfile(plan), command), release() {} };
  if (!bubblewrap?.ok) throw new Error('bubblewrap was not found by probeOsSandbox');
  // Before the placeholders: an empty `.git` made for the run is no repository.
  const visible = keptVisible(process.env, dirname(process.execPath), workTreeAbove(plan.root));
  const held = holdPlaceholders(join(plan.root, ISDLC_DIR), plan.root, plan.placeholders);
  try {
    const mounts = worldMounts(mountsFor(plan), plan.root, visible);
    // The way in may be a link in a temp folder, which is the command's own in there.
    const args = bubblewrapArgs(mounts, { ...command, cwd: realpathSync(command.cwd) }, process.getuid?.() === 0);
    return { invocation: { file: bubblewrap.bwrap, args, cwd: command.cwd }, release: () => held.release() };
  } catch (error) {
    held.release();
    throw error;
  }
}
