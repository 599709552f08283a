// The `isdlc` executable, kept tiny because it is compiled on every hook call. `isdlc hook` runs
// hook.cjs (through V8's code cache); every other command lives in cli.cjs, loaded only when asked for.
import { join } from 'node:path';
import { runWithCodeCache } from './code-cache.js';

const args = process.argv.slice(2);
if (args[0] === 'hook' && !args.includes('--help') && !args.includes('-h')) {
  runWithCodeCache(join(__dirname, 'hook.cjs'), require);
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
