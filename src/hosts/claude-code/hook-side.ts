// What the hook bundles load of Claude Code (src/hosts/host.ts).
import type { HostHookSide } from '../host.js';
import { CLAUDE_CODE_FILES } from './files.js';
import { CLAUDE_CODE_HOOK } from './hook.js';
import { claudeCodeWarmSamples } from './warm-samples.js';

export const CLAUDE_CODE_HOOK_SIDE: HostHookSide = {
  hook: CLAUDE_CODE_HOOK,
  files: CLAUDE_CODE_FILES,
  warmSamples: claudeCodeWarmSamples,
};
