// The guards that react to the other events (Stop, SubagentStop, UserPromptSubmit, UserPromptExpansion,
// ...), in the registry's order (index.ts; a test keeps them equal). Built into their own hook bundle.
import type { Guard } from '../engine/guard.js';
import { branchEvidence } from './branch-evidence.js';
import { delegationGate } from './delegation-gate.js';
import { iterationLoop } from './iteration-loop.js';
import { logSkillUsage } from './log-skill-usage.js';
import { menuTracker } from './menu-tracker.js';
import { sessionContext } from './session-context.js';
import { skillDelegationEnforcer } from './skill-delegation-enforcer.js';

export const TURN_GUARDS: readonly Guard[] = Object.freeze([
  branchEvidence,
  menuTracker,
  skillDelegationEnforcer,
  delegationGate,
  iterationLoop,
  logSkillUsage,
  sessionContext,
]);
