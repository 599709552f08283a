// Codex as the engine sees it (src/engine/host.ts): its wire format; the project comes from the payload's
// `cwd` (Codex sets no variable naming it); whether its permission profile holds the agent's shell.
import type { HookHost } from '../../engine/host.js';
import { codexProfileHolds } from './profile.js';
import { codexDecision, parseCodexPayload, renderCodexVerdict } from './wire.js';

export const CODEX_HOOK: HookHost = {
  id: 'codex',
  name: 'Codex',
  projectDir: () => undefined,
  parse: parseCodexPayload,
  decision: codexDecision,
  render: renderCodexVerdict,
  shellSandboxed: (root) => codexProfileHolds(root),
};
