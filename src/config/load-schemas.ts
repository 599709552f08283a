// Loads the config schemas and their library on first use: only a project file of the config (or the
// testing config) is checked against them, and in every hook bundle they cost about a million
// instructions per call to load, used or not. In a build they are their own file beside the caller
// (dist/schemas.cjs, .isdlc/bin/schemas.cjs) and the import below is left empty (scripts/build.mjs); from
// the sources (the tests, which run this module in-process) it is the module itself.
import * as fromSources from './schemas.js';
import { loadSiblingBundle } from '../util/sibling-bundle.js';

let schemas: typeof fromSources | undefined;

export function loadSchemas(): typeof fromSources {
  schemas ??= loadSiblingBundle<typeof fromSources>('schemas.cjs', () => fromSources);
  return schemas;
}
