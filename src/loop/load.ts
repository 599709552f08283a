// Loads the loop bundle on first use. In a build the loop is its own file beside the caller (dist/ or
// .isdlc/bin/loop.cjs), run through V8's code cache like the hook bundles (about 3 ms less at a Stop);
// from the sources (the tests of modules) it is the API itself. So SQLite and the MCP tools cost nothing
// to events that never touch a loop.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runWithCodeCache } from '../entry/code-cache.js';
import type * as LoopApi from './api.js';

let api: typeof LoopApi | undefined;

export function loadLoop(): typeof LoopApi {
  if (api) return api;
  const bundle = typeof __dirname === 'string' ? join(__dirname, 'loop.cjs') : '';
  api = (bundle && existsSync(bundle) ? runWithCodeCache(bundle, require) : require('./api.js')) as typeof LoopApi;
  return api;
}
