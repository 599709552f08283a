// Some isdlc commands are a person's decision: approving an escalation. An agent that tries to run one
// through its shell tool is denied and told that a person must run it.
import { defineGuard } from '../engine/guard.js';
import { splitCommandLine } from '../detect/shell-commands.js';

/** `isdlc escalation approve`, however isdlc is started (npx, node .isdlc/bin/isdlc.cjs, the bin name). */
const HUMAN_ONLY = /(?:^|[\s/"'])(?:isdlc(?:\.cjs)?|cli\.cjs)["']?\s+escalations?\s+approve\b/;

export function humanOnlyCommandIn(line: string): string | null {
  // Quoted too: `bash -c "isdlc escalation approve"` runs it just the same.
  for (const part of splitCommandLine(line)) {
    if (HUMAN_ONLY.test(part.text)) return part.text;
  }
  return null;
}

export const humanOnlyCommands = defineGuard({
  id: 'human-only-commands',
  description: 'Denies an agent running `isdlc escalation approve`: approving an escalation is a person\'s decision.',
  on: { PreToolUse: ['shell'] },
  check({ event, deny }) {
    const line = typeof event.tool?.input['command'] === 'string' ? (event.tool.input['command'] as string) : '';
    const found = humanOnlyCommandIn(line);
    if (!found) return;
    deny(
      'isdlc human-only-commands: approving an escalation is a decision for a person, not for an agent, so this command is not run. ' +
        'Stop here: tell the user what was escalated and why (`isdlc status` shows it), and ask them to review it and, if they agree, ' +
        'run `isdlc escalation approve` themselves in their own terminal. Retrying it will be denied again.',
    );
  },
});
