// The `isdlc` executable, kept small because it is compiled on every hook call. `isdlc hook` reads the
// payload, picks the bundle for its kind of event (hook-tool-call.cjs, hook-tool-result.cjs,
// hook-turn.cjs) and runs it through V8's code cache; every other command lives in cli.cjs, loaded
// only when asked for. A bundle that is missing or will not run is stood in for (runHookBundle).
import { join } from 'node:path';
import { runHookBundle } from './bundle-fallback.js';
import { runWithCodeCache } from '../util/code-cache.js';
import { bundleFile, FAMILIES, familyOf, peekEventName } from './event-family.js';
import { readHookInput } from './stdio.js';
import { DEFAULT_HOST } from '../hosts/default-host.js';

const args = process.argv.slice(2);
const isHook = args[0] === 'hook' && !args.includes('--help') && !args.includes('-h');

if (isHook && (args.includes('--warm-cache') || args.includes('--check'))) {
  // Every bundle in turn: each warms its own cache on its own sample calls, or reports its guards.
  for (const family of FAMILIES) runWithCodeCache(join(__dirname, bundleFile(family)), require);
} else if (isHook) {
  const input = readHookInput();
  (globalThis as { __isdlcHookInput?: unknown }).__isdlcHookInput = input;
  const argument = (flag: string): string | undefined => args.find((_, i) => args[i - 1] === flag) ?? args.find((arg) => arg.startsWith(`${flag}=`))?.slice(flag.length + 1);
  const eventArg = argument('--event');
  const family = familyOf(eventArg ?? ('bytes' in input ? peekEventName(input.bytes) : undefined));
  runHookBundle({ dir: __dirname, family, hostId: argument('--host') ?? DEFAULT_HOST, input, args: args.slice(1), requireFn: require });
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
