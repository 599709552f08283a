// Loads the loop bundle on first use. In a build this `require` becomes `./loop.cjs` beside the caller
// (scripts/build.mjs), so SQLite and the MCP tools cost nothing to events that never touch a loop.
import type * as LoopApi from './api.js';

let api: typeof LoopApi | undefined;

export function loadLoop(): typeof LoopApi {
  api ??= require('./api.js') as typeof LoopApi;
  return api;
}
