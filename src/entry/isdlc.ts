// The `isdlc` executable's code, carried by dist/isdlc.cjs and compiled through V8's code cache there
// (src/entry/launcher.ts); kept small all the same, as a call without a cache compiles it. `isdlc hook` reads the
// payload, picks the bundle for its kind of event (hook-tool-call.cjs, hook-tool-result.cjs,
// hook-turn.cjs) and runs it through V8's code cache; every other command lives in cli.cjs, loaded
// only when asked for. A bundle that is missing or will not run is stood in for (runHookBundle).
import { join } from 'node:path';
import { runHookBundle } from './bundle-fallback.js';
import { DEFAULT_HOST } from '../hosts/default-host.js';
import { EXECUTABLE_HOSTS } from '../hosts/executable.js';
import { runWithCodeCache } from '../util/code-cache.js';
import { bundleFile, CACHE_VARIANTS, cacheVariant, FAMILIES, familyOf, peekEventName, type EventFamily } from './event-family.js';
import { readHookInput } from './stdio.js';

const args = process.argv.slice(2);
const isHook = args[0] === 'hook' && !args.includes('--help') && !args.includes('-h');

const cacheArg = args.find((arg) => arg.startsWith('--cache-variant='))?.slice(16);
if (isHook && args.includes('--warm-cache') && cacheArg) {
  // One bundle, one kind of call: its own process, so that the cache holds that kind's code only.
  const [family, variant] = cacheArg.split(':') as [EventFamily, string];
  if (FAMILIES.includes(family) && CACHE_VARIANTS[family].includes(variant)) runWithCodeCache(join(__dirname, bundleFile(family)), require, __dirname, variant);
} else if (isHook && args.includes('--warm-cache')) {
  // Every bundle and every kind of call in turn, each warming its own cache on its own sample calls.
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  for (const family of FAMILIES) {
    for (const variant of CACHE_VARIANTS[family]) {
      spawnSync(process.execPath, [__filename, 'hook', '--warm-cache', `--cache-variant=${family}:${variant}`], { stdio: 'ignore', timeout: 10_000 });
    }
  }
} else if (isHook && args.includes('--check')) {
  // Every bundle in turn reports its guards.
  for (const family of FAMILIES) runWithCodeCache(join(__dirname, bundleFile(family)), require);
} else if (isHook) {
  const input = readHookInput();
  (globalThis as { __isdlcHookInput?: unknown }).__isdlcHookInput = input;
  const argument = (flag: string): string | undefined =>
    args.find((_, i) => args[i - 1] === flag) ?? args.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
  const hostId = argument('--host') ?? DEFAULT_HOST;
  const eventName = argument('--event') ?? ('bytes' in input ? peekEventName(input.bytes) : undefined);
  const family = familyOf(eventName);
  const toolKind = 'bytes' in input ? EXECUTABLE_HOSTS[hostId]?.toolKindIn(input.bytes) : undefined;
  runHookBundle({ dir: __dirname, family, hostId, input, args: args.slice(1), requireFn: require, variant: cacheVariant(family, eventName, toolKind) });
} else {
  const cli = require('./cli.cjs') as { main(argv: string[]): Promise<number> };
  cli.main(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`isdlc: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
