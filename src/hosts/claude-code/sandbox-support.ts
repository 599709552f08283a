// Whether Claude Code's sandbox can run on this machine, and what to install when it cannot. Claude Code
// refuses to start when the project asks for the sandbox with `failIfUnavailable` and it cannot run, so
// init turns it on only where it can, and doctor says when a machine lost what it needs.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { probeBubblewrap } from '../../sandbox/bubblewrap.js';

export type SandboxSupport =
  | { ok: true; mechanism: 'bubblewrap' | 'seatbelt' }
  | { ok: false; why: string; install?: string; /** No sandbox can work on this platform at all. */ never?: boolean };

/** Debian and Ubuntu name the packages so; other distributions say bubblewrap and socat too. */
export const LINUX_INSTALL = 'sudo apt-get install bubblewrap socat (Debian, Ubuntu; other distributions: install bubblewrap and socat)';

export function onPath(command: string, env: NodeJS.ProcessEnv = process.env): boolean {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

export interface SupportOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Whether bubblewrap can start a sandbox here (a container may forbid the namespaces it needs). */
  bubblewrapStarts?: () => { ok: true } | { ok: false; why: string };
}

/** What Claude Code's sandbox needs on this platform, checked. */
export function claudeSandboxSupport(options: SupportOptions = {}): SandboxSupport {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  if (platform === 'darwin') return { ok: true, mechanism: 'seatbelt' };
  if (platform === 'win32') {
    return { ok: false, never: true, why: "Claude Code's sandbox does not run on Windows itself (it runs under WSL 2)" };
  }
  if (platform !== 'linux') return { ok: false, never: true, why: `Claude Code's sandbox does not run on ${platform}` };
  const missing = ['bwrap', 'socat'].filter((command) => !onPath(command, env));
  if (missing.length > 0) {
    return { ok: false, why: `${missing.map((m) => `\`${m}\``).join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not on PATH`, install: LINUX_INSTALL };
  }
  const starts = (options.bubblewrapStarts ?? bubblewrapStarts)();
  if (!starts.ok) return { ok: false, why: `bubblewrap is installed but cannot start a sandbox here: ${starts.why}` };
  return { ok: true, mechanism: 'bubblewrap' };
}

/** Whether bubblewrap starts a sandbox here: the probe isdlc's own rule sandbox uses. */
function bubblewrapStarts(): { ok: true } | { ok: false; why: string } {
  const probe = probeBubblewrap();
  return probe.ok ? { ok: true } : { ok: false, why: probe.why };
}
