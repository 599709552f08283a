// Loads the gate's evaluation on first use. A hook asks for it only when a call tries to pass a gate; the
// evaluation and what it reads (test runs, the test definition, who checked the constitution) are about a
// quarter of the tool-call bundle, and parsing them cost every PreToolUse about 3 ms. In a build it is its
// own file beside the caller (dist/gate.cjs, .isdlc/bin/gate.cjs); from the sources it is the module itself.
import { loadSiblingBundle } from '../util/sibling-bundle.js';
import type * as Gate from './evaluate.js';

let gate: typeof Gate | undefined;

export function loadGate(): typeof Gate {
  if (gate) return gate;
  gate = loadSiblingBundle<typeof Gate>('gate.cjs', () => require('./evaluate.js'));
  return gate;
}
