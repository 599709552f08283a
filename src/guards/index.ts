// The guard registry, in the one fixed order the engine runs them (docs/guards.md). For each event the
// engine takes the guards below that react to it, top to bottom; the first deny ends the run. The agent
// hosts' own guards take their place among these where host-guards.ts says.
import type { Guard } from '../engine/guard.js';
import { agentRunTracker } from './agent-run-tracker.js';
import { agentWorkTracker } from './agent-work-tracker.js';
import { branchEvidence } from './branch-evidence.js';
import { branchGuard } from './branch-guard.js';
import { constitutionValidator } from './constitution-validator.js';
import { delegationGate } from './delegation-gate.js';
import { discoverMenuGuard } from './discover-menu-guard.js';
import { gateBlocker } from './gate-blocker.js';
import { gateRequirementsInjector } from './gate-requirements-injector.js';
import { humanOnlyCommands } from './human-only-commands.js';
import { isdlcProgramGuard } from './isdlc-program-guard.js';
import { iterationCorridor } from './iteration-corridor.js';
import { iterationLoop } from './iteration-loop.js';
import { logSkillUsage } from './log-skill-usage.js';
import { loopBinder } from './loop-binder.js';
import { menuTracker } from './menu-tracker.js';
import { phaseLoopController } from './phase-loop-controller.js';
import { phaseSequenceGuard } from './phase-sequence-guard.js';
import { planSurfacer } from './plan-surfacer.js';
import { reviewReminder } from './review-reminder.js';
import { sessionContext } from './session-context.js';
import { skillDelegationEnforcer } from './skill-delegation-enforcer.js';
import { skillValidator } from './skill-validator.js';
import { stateWriteValidator } from './state-write-validator.js';
import { testWatcher } from './test-watcher.js';
import { toolCaller } from './tool-caller.js';
import { unexpectedFileChange } from './unexpected-file-change.js';
import { walkthroughTracker } from './walkthrough-tracker.js';
import { workflowCompletionEnforcer } from './workflow-completion-enforcer.js';

export const GUARDS: readonly Guard[] = Object.freeze([
  // PreToolUse on agent and skill calls
  iterationCorridor,
  skillValidator,
  phaseLoopController,
  planSurfacer,
  phaseSequenceGuard,
  gateBlocker,
  constitutionValidator,
  // PreToolUse on shell commands, and on writes to state files
  humanOnlyCommands,
  isdlcProgramGuard,
  branchGuard,
  stateWriteValidator,
  // (the hosts' guards)
  // Last of the shell's PreToolUse guards, so it keeps the heads only for a command that will run; first
  // after a shell command and at the other events, where it compares the heads with its last look.
  branchEvidence,
  // a delegation nothing denied gets its gate requirements
  gateRequirementsInjector,
  // last before a tool: a subagent's first tool call that nothing denied is the evidence its run worked
  agentRunTracker,
  // after a tool, on a prompt, at a stop; first what a command changed that only isdlc should change
  unexpectedFileChange,
  menuTracker,
  walkthroughTracker,
  discoverMenuGuard,
  skillDelegationEnforcer,
  testWatcher,
  reviewReminder,
  workflowCompletionEnforcer,
  loopBinder,
  toolCaller,
  delegationGate,
  iterationLoop,
  // After the Stop guards: a SubagentStop that iteration-loop holds ends the run before this guard, so a
  // subagent its loop keeps working is not marked completed.
  logSkillUsage,
  // what a subagent's tool call did, once its result is in: the evidence its run did the phase's work
  agentWorkTracker,
  sessionContext,
]);
