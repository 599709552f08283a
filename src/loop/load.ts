// Loads the loop bundle on first use. In a build the loop is its own file beside the caller (dist/ or
// .isdlc/bin/loop.cjs), run through V8's code cache like the hook bundles (about 3 ms less at a Stop);
// from the sources (the tests of modules) it is the API itself. So SQLite and the MCP tools cost nothing
// to events that never touch a loop.
import { loadSiblingBundle } from '../util/sibling-bundle.js';
import type * as LoopApi from './api.js';

let api: typeof LoopApi | undefined;

export function loadLoop(): typeof LoopApi {
  if (api) return api;
  api = loadSiblingBundle<typeof LoopApi>('loop.cjs', () => require('./api.js'));
  return api;
}
