// The hosts' own guards that react to the other events, for the turn hook bundle (see tool-call.ts).
import type { Guard } from '../engine/guard.js';

export const HOST_TURN_GUARDS: readonly Guard[] = Object.freeze([]);
