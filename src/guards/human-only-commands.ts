// Some isdlc commands are a person's decision: approving an escalation, overriding a closed gate, letting
// a supervised workflow go on after a review. An agent that tries to run one through its shell tool is
// denied and told that a person must run it.
import { defineGuard } from '../engine/guard.js';
import { isdlcRunsIn } from '../detect/isdlc-commands.js';
import { toolRef } from '../config/agent-operations.js';

/** An isdlc run as isdlc-commands gives it (`isdlc` and its words), however it was started; flags may come first. */
const ISDLC = String.raw`^isdlc\s+(?:--?[\w-]+(?:=\S+)?\s+(?:[^\s-]\S*\s+)?)*`;

const HUMAN_ONLY: { pattern: RegExp; decision: string }[] = [
  { pattern: new RegExp(`${ISDLC}escalations?\\s+approve\\b`), decision: 'approving an escalation' },
  { pattern: new RegExp(`${ISDLC}phase\\s+skip\\b`), decision: "overriding a phase's closed gate" },
  { pattern: new RegExp(`${ISDLC}phase\\s+review\\s+["']?continue\\b`), decision: 'letting a supervised workflow go on after a review' },
  // An agent that cannot go on ends the loop with <promise>BLOCKED</promise>, which a person then sees.
  {
    pattern: new RegExp(`${ISDLC}loop\\s+cancel\\b`),
    decision: 'cancelling an iteration loop (an agent that cannot go on declares <promise>BLOCKED</promise> with the reason)',
  },
  // The rules an agent set run without an OS sandbox only on a person's word.
  { pattern: new RegExp(`${ISDLC}loop\\s+approve\\b`), decision: "letting a loop's command rules run without an OS sandbox" },
  // Changes to isdlc's files made outside isdlc: keeping or discarding them is the person's review.
  { pattern: new RegExp(`${ISDLC}changes\\s+(?:accept|reject)\\b`), decision: "reviewing changes to isdlc's files made outside isdlc" },
  { pattern: new RegExp(`${ISDLC}branch\\s+acknowledge\\b`), decision: 'acknowledging commits that reached a closed branch, which opens the gate again' },
  // A changed test command (`"test": "exit 0"`) counts only once a person has looked at it.
  { pattern: new RegExp(`${ISDLC}tests\\s+accept\\b`), decision: 'accepting a change to what defines the test command, which opens the gate again' },
];

/**
 * The first human-only isdlc command the line runs. Only running one counts (also through `bash -c`, `eval`,
 * `$(...)`, npx or node); a line that mentions one in an argument (an echo, a commit message) runs nothing.
 */
export function humanOnlyCommandIn(line: string, options: { powershell?: boolean } = {}): { command: string; decision: string } | null {
  for (const { run, command } of isdlcRunsIn(line, options)) {
    const found = HUMAN_ONLY.find((entry) => entry.pattern.test(run));
    if (found) return { command, decision: found.decision };
  }
  return null;
}

export const humanOnlyCommands = defineGuard({
  id: 'human-only-commands',
  description:
    "Denies an agent running the isdlc commands that are a person's decision (escalation approve, phase skip, phase review continue, loop cancel, loop approve, branch acknowledge, changes accept/reject, tests accept); in the sandbox, where they cannot write, notes it instead.",
  on: { PreToolUse: ['shell'] },
  check({ event, deny, note, shellSandboxed }) {
    const line = typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
    const found = humanOnlyCommandIn(line, { powershell: event.tool?.name === 'PowerShell' });
    if (!found) return;
    // In the sandbox the command cannot change anything (isdlc's files are read-only there), and a text
    // match may be a mention (an echo, a commit message): say what it is for, and let it run.
    if (shellSandboxed()) {
      note(
        `isdlc human-only-commands: \`${found.command.trim()}\` is a decision for a person (${found.decision}); in the sandbox it changes nothing. Ask the user to run it in their own terminal if they agree.`,
      );
      return;
    }
    deny(
      `isdlc human-only-commands: Do not run \`${found.command.trim()}\`; stop and ask the user to run it in their own terminal if they agree, ` +
        `telling them what needs their decision and why (${toolRef('status')} shows it). ` +
        `It is a decision for a person, not for an agent: ${found.decision}. Retrying it will be denied again.`,
    );
  },
});
