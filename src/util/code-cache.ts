// Loads a CommonJS bundle through V8's code cache: the compiled code of the last run is kept beside the
// bundle and reused, so a hook call skips most parsing and compiling (about 3 ms, measured). V8 checks
// only the source's length against a cache, so the cache's name carries the bundle's size and
// modification time as well as the Node version: a changed bundle never meets an old cache.
import { isAscii } from 'node:buffer';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Runs the bundle and returns what it exports; `folder` is its `__dirname` when that is not where the file is.
 * `variant` names one of the bundle's caches (a hook bundle keeps one per kind of call: event-family.ts).
 */
export function runWithCodeCache(file: string, requireFn: NodeJS.Require, folder = dirname(file), variant?: string): unknown {
  const stat = statSync(file);
  const prefix = `${basename(file)}.`;
  const key = `${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}`;
  const cacheFile = `${file}.${variant ? `${variant}.` : ''}${key}.cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // first run of this bundle, or the cache could not be written here
  }
  // The bundles are ASCII (scripts/build.mjs checks): read so, the source is a one-byte string copied as
  // it is, where UTF-8 decoding of any non-ASCII character made the whole of it a two-byte string
  // (measured: 2.4 million instructions more for a 160 KB bundle, of a hook call's 30 or so).
  const bytes = readFileSync(file);
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  if (!cachedData || script.cachedDataRejected) {
    // After the run, so that the functions this call compiled are in the cache too.
    process.once('exit', () => {
      try {
        for (const name of readdirSync(dirname(file))) {
          // Every cache made for another version of the bundle (or of Node); the other kinds' of this one stay.
          if (name.startsWith(prefix) && name.endsWith('.cache') && !name.endsWith(`.${key}.cache`)) rmSync(join(dirname(file), name), { force: true });
        }
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // a read-only install: run without a cache
      }
    });
  }
  const module: { exports: unknown } = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, requireFn, module, file, folder);
  return module.exports;
}
