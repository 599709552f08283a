// The guards that react to PostToolUse and PostToolUseFailure, in the registry's order (index.ts; a test
// keeps them equal). Built into their own hook bundle.
import type { Guard } from '../engine/guard.js';
import { agentWorkTracker } from './agent-work-tracker.js';
import { branchEvidence } from './branch-evidence.js';
import { discoverMenuGuard } from './discover-menu-guard.js';
import { logSkillUsage } from './log-skill-usage.js';
import { loopBinder } from './loop-binder.js';
import { menuTracker } from './menu-tracker.js';
import { reviewReminder } from './review-reminder.js';
import { skillDelegationEnforcer } from './skill-delegation-enforcer.js';
import { testWatcher } from './test-watcher.js';
import { toolCaller } from './tool-caller.js';
import { unexpectedFileChange } from './unexpected-file-change.js';
import { walkthroughTracker } from './walkthrough-tracker.js';
import { workflowCompletionEnforcer } from './workflow-completion-enforcer.js';

export const TOOL_RESULT_GUARDS: readonly Guard[] = Object.freeze([
  branchEvidence,
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
  logSkillUsage,
  agentWorkTracker,
]);
