// Claude Code as isdlc's faces see it (src/hosts/host.ts): everything isdlc knows about it is in this folder.
import type { Host } from '../host.js';
import { AGENT_DIR } from './agent-files.js';
import { claudeCodeDoctor } from './doctor.js';
import { CLAUDE_CODE_HOOK_SIDE } from './hook-side.js';
import { hookSettingsGuard } from './hook-settings-guard.js';
import { claudeCodeFieldsOf } from './install-record.js';
import { projectSandboxState, sandboxGap } from './protection-level.js';
import { readInstallRecord } from '../../state/install-record.js';
import { CLAUDE_CODE_SETUP } from './setup.js';
import { isVersion } from './versions.js';

export const CLAUDE_CODE: Host = {
  ...CLAUDE_CODE_HOOK_SIDE,
  guards: [hookSettingsGuard],
  setup: CLAUDE_CODE_SETUP,
  options: [
    {
      flags: '--claude-version <version>',
      description: 'the Claude Code version to go by (default: what `claude --version` prints)',
      parse(value) {
        if (!isVersion(value))
          throw new Error(`--claude-version takes a version like 2.1.332 (what \`claude --version\` prints), not ${JSON.stringify(value)}`);
        return value.trim();
      },
      commands: ['init', 'doctor'],
    },
    {
      flags: '--hook-form <form>',
      description:
        'how the hook is registered: exec (node with arguments, no shell; Claude Code 2.1.139 and later) or shell (one command line); default: what the Claude Code version runs',
      choices: ['exec', 'shell'],
      commands: ['init'],
    },
    {
      flags: '--no-sandbox',
      description: "leave Claude Code's sandbox off (by default init turns it on where it can run, so the agent's shell cannot write isdlc's files)",
      commands: ['init'],
    },
  ],
  agentDefinitions: [AGENT_DIR],
  // Set to 1 in the environment of its shell tool.
  shellMarkers: ['CLAUDECODE'],
  doctor: (root, guarded, options) =>
    claudeCodeDoctor(root, guarded, typeof options['claudeVersion'] === 'string' ? { claudeVersion: options['claudeVersion'] } : {}),
  installedIn: (record) => record?.['claude_code'] !== undefined,
  usedIn: () => true,
  protection(root) {
    const state = projectSandboxState(root);
    // The version init registered for: doctor asks the installed one, status does not spawn it.
    const gap = state.sandboxed ? sandboxGap(claudeCodeFieldsOf(readInstallRecord(root))?.claude_code?.version) : undefined;
    return {
      sandboxed: state.sandboxed,
      ...(state.why ? { why: state.why } : {}),
      ...(gap ? { gap } : {}),
      everyCommand: state.sandboxed && state.excludedCommands.length === 0,
    };
  },
};
