// The hosts' own guards that react to a tool's result, for the tool-result hook bundle (see tool-call.ts).
import type { Guard } from '../engine/guard.js';

export const HOST_TOOL_RESULT_GUARDS: readonly Guard[] = Object.freeze([]);
