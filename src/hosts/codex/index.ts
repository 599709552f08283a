// The OpenAI Codex CLI as isdlc's faces see it (src/hosts/host.ts): everything isdlc knows about it is in
// this folder.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Host } from '../host.js';
import { readInstallRecord } from '../../state/install-record.js';
import { codexDoctor } from './doctor.js';
import { CODEX_HOOK_SIDE } from './hook-side.js';
import { codexFieldsOf } from './install-record.js';
import { codexProfileHolds } from './profile.js';
import { CODEX_SETUP } from './setup.js';
import { isCodexVersion } from './versions.js';

export const CODEX: Host = {
  ...CODEX_HOOK_SIDE,
  guards: [],
  setup: CODEX_SETUP,
  options: [
    {
      flags: '--codex-version <version>',
      description: 'the Codex version to go by (default: what `codex --version` prints)',
      parse(value) {
        if (!isCodexVersion(value)) throw new Error(`--codex-version takes a version like 0.171.0, not ${JSON.stringify(value)}`);
        return value.trim();
      },
      commands: ['init'],
    },
  ],
  agentDefinitions: [],
  // No variable of Codex's shell is known to say so on every platform; its sandbox keeps isdlc's files read-only instead.
  shellMarkers: [],
  doctor: (root) => codexDoctor(root),
  installedIn: (record) => codexFieldsOf(record) !== undefined,
  usedIn: (root) => existsSync(join(root, '.codex')),
  protection(root) {
    const record = codexFieldsOf(readInstallRecord(root));
    if (!record) return { sandboxed: false, why: 'not set up for Codex', everyCommand: false };
    const holds = record.codex.wall && codexProfileHolds(root);
    return holds
      ? { sandboxed: true, everyCommand: true }
      : {
          sandboxed: false,
          why: record.codex.wall ? "isdlc's permission profile is missing from .codex/config.toml" : `Codex ${record.codex.version} has no permission profiles`,
          everyCommand: false,
        };
  },
};
