// `isdlc hook` as a process: arguments, stdin, stdout, and which host sent the call (`--host`, the default
// host when the registered command names none). The decision itself is made by runHook.
import type { Guard } from '../engine/guard.js';
import type { HookHost } from '../engine/host.js';
import { checkGuards, logInternalError, runHook } from '../engine/run-hook.js';
import { DEFAULT_HOST, GUARDED, HOOK_HOST_IDS, HOOK_HOSTS, hookHostById } from '../hosts/hook-hosts.js';
import { MISSING_BUNDLES, type EventFamily } from './event-family.js';
import { shrinkLargeStrings } from './shrink-payload.js';
import { readHookInput, STDIN_LIMIT_BYTES, writeAllSync, type HookInput } from './stdio.js';
import { warmCache } from './warm-cache.js';

interface HookArgs {
  host?: string;
  eventName?: string;
  only?: string[];
  check: boolean;
  warmCache: boolean;
  /** `--cache-variant family:kind` (with --warm-cache): warm that kind of call only. */
  cacheVariant?: string;
  unknown: string[];
}

function parseHookArgs(args: string[]): HookArgs {
  const parsed: HookArgs = { check: false, warmCache: false, unknown: [] };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    if (flag === '--host') {
      const name = value();
      if (name) parsed.host = name;
    } else if (flag === '--event') {
      const name = value();
      if (name) parsed.eventName = name;
    } else if (flag === '--guards')
      parsed.only = (value() ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
    else if (flag === '--check') parsed.check = true;
    else if (flag === '--warm-cache') parsed.warmCache = true;
    else if (flag === '--cache-variant') {
      const variant = value();
      if (variant) parsed.cacheVariant = variant.slice(variant.indexOf(':') + 1);
    } else parsed.unknown.push(arg);
  }
  return parsed;
}

export interface HookBundle {
  /** The guards this bundle runs, in registry order, the hosts' own among them. */
  guards: readonly Guard[];
  /** The kind of events it answers; the full CLI has none. */
  family?: EventFamily;
}

export type { HookInput };

/** Where a hook call runs: the environment and folder the host started it with. */
export interface HookSurroundings {
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * One hook call answered without touching the process: what to write to stdout and stderr. `isdlc hook`
 * writes them and exits; a caller in its own process (the test suite) reads them.
 */
export function answerHook(args: string[], bundle: HookBundle, input: HookInput, where: HookSurroundings): { stdout: string; stderr: string } {
  const options = parseHookArgs(args);
  let stderr = options.unknown.length > 0 ? `isdlc hook: ignored unknown arguments ${options.unknown.join(' ')}\n` : '';
  let host: HookHost = hookHostById(options.host ?? DEFAULT_HOST) ?? hookHostById(DEFAULT_HOST)!;
  if (options.host && !hookHostById(options.host)) {
    stderr += `isdlc hook: no host named ${options.host} (these are: ${HOOK_HOST_IDS.join(', ')}); answered as ${host.id}\n`;
    host = hookHostById(DEFAULT_HOST)!;
  }
  let payload = '';
  let inputProblem: string | undefined;
  if ('error' in input) inputProblem = input.error;
  else {
    payload = shrinkLargeStrings(input.bytes).toString('utf8');
    if (input.truncated) inputProblem = `payload larger than ${STDIN_LIMIT_BYTES} bytes; allowed without checks`;
  }
  const missing = (globalThis as Record<string, unknown>)[MISSING_BUNDLES];
  let stdout = '';
  try {
    const out = runHook({
      host,
      guarded: GUARDED,
      payload,
      ...(Array.isArray(missing) && missing.length > 0 ? { missingBundles: missing as string[] } : {}),
      env: where.env,
      cwd: where.cwd,
      ...(options.eventName ? { eventName: options.eventName } : {}),
      ...(options.only ? { only: options.only } : {}),
      ...(inputProblem ? { inputProblem } : {}),
      guards: bundle.guards,
    });
    stderr += out.stderr;
    stdout = out.stdout;
  } catch (error) {
    // The last line of defence: whatever failed, the host's action goes ahead.
    stderr += `isdlc hook: internal error, allowed: ${(error as Error).stack ?? String(error)}\n`;
    logInternalError({ host, env: where.env, cwd: where.cwd }, error);
  }
  return { stdout, stderr };
}

export function hookMain(args: string[], bundle: HookBundle): void {
  const options = parseHookArgs(args);
  const guards = bundle.guards;
  if (options.warmCache) {
    if (bundle.family) warmCache(bundle.family, guards, HOOK_HOSTS, GUARDED, options.cacheVariant);
    return;
  }
  if (options.check) {
    // One line per bundle: `isdlc hook --check` runs every bundle the executable has.
    const report = checkGuards(guards);
    writeAllSync(1, `${JSON.stringify({ ...(bundle.family ? { bundle: bundle.family } : {}), ...report })}\n`);
    if (report.problems.length > 0) process.exitCode = 1;
    return;
  }
  // The executable has read stdin already to choose this bundle.
  const given = (globalThis as { __isdlcHookInput?: HookInput }).__isdlcHookInput;
  const { stdout, stderr } = answerHook(args, bundle, given ?? readHookInput(), { env: process.env, cwd: process.cwd() });
  if (stdout) writeAllSync(1, stdout);
  if (stderr) writeAllSync(2, stderr);
  // Everything is written synchronously; exiting now skips the idle-time garbage collection a
  // short-lived process would otherwise wait for (measured: about 0.6 ms).
  process.exit(0);
}
