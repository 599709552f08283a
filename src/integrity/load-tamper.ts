// Loads the tamper check's judging on first use: a hook call needs it only when the first look found a
// watched file whose stat moved (suspects.ts), and it is a tenth of a hook bundle. In a build it is its own
// file beside the caller (dist/tamper.cjs, .isdlc/bin/tamper.cjs) and the import below is left empty
// (scripts/build.mjs); from the sources it is the module itself.
import * as fromSources from './tamper-report.js';
import { loadSiblingBundle } from '../util/sibling-bundle.js';

let judging: typeof fromSources | undefined;

export function loadTamper(): typeof fromSources {
  judging ??= loadSiblingBundle<typeof fromSources>('tamper.cjs', () => fromSources);
  return judging;
}
