// Loads the gate's evaluation on first use. A hook asks for it only when a call tries to pass a gate; the
// evaluation and what it reads (test runs, the test definition, who checked the constitution) are about a
// quarter of the tool-call bundle, and parsing them cost every PreToolUse about 3 ms. In a build it is its
// own file beside the caller (dist/gate.cjs, .isdlc/bin/gate.cjs); from the sources it is the module itself.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runWithCodeCache } from '../entry/code-cache.js';
import type * as Gate from './evaluate.js';

let gate: typeof Gate | undefined;

export function loadGate(): typeof Gate {
  if (gate) return gate;
  const bundle = typeof __dirname === 'string' ? join(__dirname, 'gate.cjs') : '';
  gate = (bundle && existsSync(bundle) ? runWithCodeCache(bundle, require) : require('./evaluate.js')) as typeof Gate;
  return gate;
}
