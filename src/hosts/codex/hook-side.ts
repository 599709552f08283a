// What the hook bundles load of Codex (src/hosts/host.ts).
import type { HostHookSide } from '../host.js';
import { CODEX_FILES } from './files.js';
import { CODEX_HOOK } from './hook.js';
import { codexWarmSamples } from './warm-samples.js';

export const CODEX_HOOK_SIDE: HostHookSide = {
  hook: CODEX_HOOK,
  files: CODEX_FILES,
  warmSamples: codexWarmSamples,
};
