// What an agent that changed one of isdlc's files was probably after, and the way that does it: said to
// the model whenever such a change is found, whichever check found it.
import { toolRef, TRANSITION_TOOLS } from '../config/agent-operations.js';
import type { GuardedKind } from './guarded-set.js';

/** What to use instead of changing a file of this kind, for the model. */
export const INSTEAD: Readonly<Record<GuardedKind, string>> = Object.freeze({
  state: `read it with ${toolRef('status')}; change it only through isdlc's tools (${TRANSITION_TOOLS}, ...)`,
  config: "configuration is the person's to change: ask them (`isdlc config show NAME` shows what is in use)",
  bin: 'only `isdlc init`, run by the person, installs it',
  'loop-store': `see a loop with ${toolRef('iteration_status')}; if you cannot go on, end your final message with <promise>BLOCKED</promise> and the reason`,
  log: "it is isdlc's record of what the hooks decided; leave it as it is",
  settings: "isdlc's hook entries there are installed by `isdlc init`: ask the person to change them",
  mcp: "isdlc's server entry there is installed by `isdlc init`: ask the person to change it",
  constitution: `the constitution is the person's: ask them; record checks against it with ${toolRef('constitution_record')}`,
  other: 'leave it to isdlc',
});
