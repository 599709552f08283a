// The guards that react to the other events (Stop, SubagentStop, UserPromptSubmit, ...), in the
// registry's order (index.ts; a test keeps them equal). Built into their own hook bundle.
import type { Guard } from '../engine/guard.js';
import { menuTracker } from './menu-tracker.js';

export const TURN_GUARDS: readonly Guard[] = Object.freeze([menuTracker]);
