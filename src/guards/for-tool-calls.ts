// The guards that react to PreToolUse, in the registry's order (index.ts; a test keeps them equal).
// Built into their own hook bundle so a tool call loads only what can judge it.
import type { Guard } from '../engine/guard.js';
import { agentRunTracker } from './agent-run-tracker.js';
import { branchEvidence } from './branch-evidence.js';
import { branchGuard } from './branch-guard.js';
import { constitutionValidator } from './constitution-validator.js';
import { gateBlocker } from './gate-blocker.js';
import { gateRequirementsInjector } from './gate-requirements-injector.js';
import { humanOnlyCommands } from './human-only-commands.js';
import { isdlcProgramGuard } from './isdlc-program-guard.js';
import { iterationCorridor } from './iteration-corridor.js';
import { phaseLoopController } from './phase-loop-controller.js';
import { phaseSequenceGuard } from './phase-sequence-guard.js';
import { planSurfacer } from './plan-surfacer.js';
import { skillValidator } from './skill-validator.js';
import { stateWriteValidator } from './state-write-validator.js';

export const TOOL_CALL_GUARDS: readonly Guard[] = Object.freeze([
  iterationCorridor,
  skillValidator,
  phaseLoopController,
  planSurfacer,
  phaseSequenceGuard,
  gateBlocker,
  constitutionValidator,
  humanOnlyCommands,
  isdlcProgramGuard,
  branchGuard,
  stateWriteValidator,
  branchEvidence,
  gateRequirementsInjector,
  agentRunTracker,
]);
