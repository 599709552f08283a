// Loads a CommonJS bundle through V8's code cache: the compiled code of the last run is kept beside the
// bundle and reused, so a hook call skips most parsing and compiling (about 3 ms of a 9 ms overhead,
// measured). A cache from another Node version, or a damaged one, is rejected by V8 and rebuilt.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

export function runWithCodeCache(file: string, requireFn: NodeJS.Require): void {
  const cacheFile = `${file}.${process.version}-${process.arch}.cache`;
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // first run, or the cache could not be written here
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (!cachedData || script.cachedDataRejected) {
    // After the run, so that the functions this call compiled are in the cache too.
    process.once('exit', () => {
      try {
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // a read-only install: run without a cache
      }
    });
  }
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, requireFn, module, file, dirname(file));
}
