// dist/isdlc.cjs as built. Node compiles the file it starts anew on every call, with no code cache: so
// the executable's own code (src/entry/isdlc.ts: read the payload, pick the bundle, stand in for a
// broken one) is carried here as a string, and compiled through V8's code cache like the bundles
// (src/entry/code-cache.ts), from `isdlc.cjs.<node version>-<arch>-<size>-<mtime>.cache` beside this
// file. Scanning a string costs a fraction of parsing and compiling the same code (measured: 1.9
// million instructions less per hook call). The cache is written by a hook call that found none, so
// that it holds what a hook call runs; without one (a read-only install), the code is compiled as before.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Script } from 'node:vm';

/** The executable's code, as esbuild bundled src/entry/isdlc.ts (scripts/build.mjs puts it here). */
declare const __ISDLC_LAUNCHER__: string;

const args = process.argv.slice(2);
let cacheFile: string | undefined;
let cachedData: Buffer | undefined;
try {
  const stat = statSync(__filename);
  cacheFile = `${__filename}.${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}.cache`;
  cachedData = readFileSync(cacheFile);
} catch {
  // no cache yet, or none can be kept here
}
const script = new Script(`(function (exports, require, module, __filename, __dirname) {${__ISDLC_LAUNCHER__}\n})`, {
  filename: __filename,
  ...(cachedData ? { cachedData } : {}),
});
const hookCall = args[0] === 'hook' && !args.includes('--warm-cache') && !args.includes('--check');
if (cacheFile && hookCall && (!cachedData || script.cachedDataRejected)) {
  const target = cacheFile;
  // After the run, so that what this call compiled is in the cache too.
  process.once('exit', () => {
    try {
      const prefix = `${basename(__filename)}.`;
      for (const name of readdirSync(__dirname)) {
        if (name.startsWith(prefix) && name.endsWith('.cache')) rmSync(join(__dirname, name), { force: true });
      }
      const temp = `${target}.${process.pid}.tmp`;
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, target);
    } catch {
      // a read-only install: run without a cache
    }
  });
}
(script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, __filename, __dirname);
