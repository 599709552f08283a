// The guard registry, in the one fixed order the engine runs them (seed 002 ADR-004). For each event
// the engine takes the guards below that react to it, top to bottom; the first deny ends the run.
// Guards planned for later issues take their places in this order (see docs/guards.md).
import type { Guard } from '../engine/guard.js';
import { phaseSequenceGuard } from './phase-sequence-guard.js';

export const GUARDS: readonly Guard[] = Object.freeze([phaseSequenceGuard]);
