// A bundle loaded on first use from beside the caller's own file (dist/, .isdlc/bin/), through V8's code
// cache like the hook bundles; from the sources (the modules' tests) the module itself. Each caller keeps
// its literal `require('./x.js')` in `fromSources`: the build rewrites that one to the sibling bundle.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runWithCodeCache } from './code-cache.js';

export function loadSiblingBundle<T>(file: string, fromSources: () => unknown): T {
  const bundle = typeof __dirname === 'string' ? join(__dirname, file) : '';
  return (bundle && existsSync(bundle) ? runWithCodeCache(bundle, require) : fromSources()) as T;
}
