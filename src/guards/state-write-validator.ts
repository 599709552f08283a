// The original's state-write-validator checks, moved to before the write: an agent's Write or Edit of a
// state file is judged on the file it would leave behind, and refused when it is stale (V7), regresses a
// phase (V8), or changes what isdlc's commands and watchers own. A shell command that writes a state
// file cannot be judged that way and is refused outright. The file on disk is never touched here.
// A file tool's path is judged as the file system resolves it (integrity/tool-target.ts), and only this
// project's state files count: a `.isdlc/state.json` among the test fixtures is somebody else's.
import { readTextOrNull, textAfterEdit } from '../detect/file-edits.js';
import { isLoopStorePath, isStateFilePath } from '../detect/state-file-writes.js';
import { defineGuard } from '../engine/guard.js';
import { shellWritesOurs } from '../integrity/guarded-writes.js';
import { hasJournal } from '../integrity/journal.js';
import { toolTarget } from '../integrity/tool-target.js';
import { reviewStateEdit, type EditFinding } from '../state/hand-edit-review.js';
import type { IsdlcState } from '../state/schema.js';
import { toolRef, TRANSITION_TOOLS } from '../config/agent-operations.js';

const PREFIX = 'isdlc state-write-validator:';
const STATUS = toolRef('status');

function parseState(text: string): IsdlcState | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as IsdlcState) : null;
  } catch {
    return null;
  }
}

function describe(findings: EditFinding[]): string {
  return findings
    .map((f, i) => `${i + 1}. ${f.rule === 'V7' || f.rule === 'V8' ? `${f.rule}: ` : ''}${f.field} ${f.detail}. Instead: ${f.instead}.`)
    .join('\n');
}

function loopStoreRefusal(what: string): string {
  return (
    `${PREFIX} Leave the loop store to isdlc: see a loop with ${toolRef('iteration_status')}, and if you cannot go on, end your final message with ` +
    '<promise>BLOCKED</promise> and the reason. ' +
    `This would write ${what}, the iteration loops' store, which only isdlc's commands and MCP tools change, so it is not written; ` +
    'cancelling a loop is for a person (`isdlc loop cancel`, in their own terminal). The same call will be denied again.'
  );
}

export const stateWriteValidator = defineGuard({
  id: 'state-write-validator',
  description:
    "Denies an agent's write to a state file that is stale (V7), regresses a phase (V8), or changes fields isdlc's commands own; notes V1-V3 and V9.",
  on: { PreToolUse: ['write', 'edit', 'notebook', 'patch', 'shell'] },
  check({ event, location, guarded, deny, note, log, shellSandboxed }) {
    const tool = event.tool!;
    if (tool.kind === 'shell') {
      const command = typeof tool.input['command'] === 'string' ? tool.input['command'] : '';
      // Cheap first: a line that never names either file cannot write one (a `cd` leaves the names bare).
      if (!command.includes('state.json') && !command.includes('loop.db')) return;
      const looksGuarded = (word: string): boolean => isStateFilePath(word) || isLoopStorePath(word);
      const place = { cwd: event.cwd ?? location.root, root: location.root, guarded, looksGuarded, kinds: ['state', 'loop-store'] as const };
      const writes = shellWritesOurs(command, place, { powershell: tool.name === 'PowerShell' });
      if (writes.length === 0) return;
      // Inside the sandbox the file system refuses the write whatever the command looks like; a text
      // rule would only add false refusals (a read that looks like a write), so it says its piece and lets go.
      if (shellSandboxed()) {
        note(
          `${PREFIX} this command looks like it writes ${writes.map((w) => w.target).join(', ')}; isdlc's files are read-only in the sandbox, so such a write fails. Change the workflow through the isdlc MCP tools.`,
        );
        return;
      }
      if (writes.some((write) => /(?:^|[\\/])loop\.db(?:-\w+)?$/.test(write.target))) {
        deny(loopStoreRefusal(writes.map((w) => `${w.target} (${w.how})`).join(', ')));
        return;
      }
      deny(
        `${PREFIX} Use isdlc's tools instead: read the state with ${STATUS}; change it with ${TRANSITION_TOOLS}. ` +
          `This command would write ${writes.map((w) => `${w.target} (${w.how})`).join(', ')}, which holds the workflow's state; ` +
          'isdlc changes it only through its own commands, so the command is not run. The same command will be denied again.',
      );
      return;
    }
    const target = toolTarget(event, location.root, guarded);
    const kind = target?.guarded?.kind;
    if (!target || (kind !== 'state' && kind !== 'loop-store')) return;
    const path = target.named;
    if (kind === 'loop-store') {
      deny(loopStoreRefusal(path));
      return;
    }
    const file = target.file;
    if (tool.kind === 'patch') {
      deny(
        `${PREFIX} Use isdlc's tools to change state (${STATUS} names the next one), not a patch: ${path} is the workflow's state, ` +
          'and isdlc changes it only through its own commands, so this patch is not applied. Leave that file out of the patch; the same patch will be denied again.',
      );
      return;
    }
    if (tool.kind === 'notebook') {
      deny(
        `${PREFIX} Use isdlc's tools to change state (${STATUS} names the next one), not ${tool.name}: ${path} is the workflow's state, not a notebook, ` +
          'and isdlc changes it only through its own commands, so this call is not made. The same call will be denied again.',
      );
      return;
    }
    const diskText = readTextOrNull(file);
    if (diskText === null) {
      if (tool.kind === 'write') {
        deny(
          `${PREFIX} Do not create ${path} by hand: \`isdlc init\` (or ${toolRef('workflow_start')}) creates state files, and isdlc's tools change them. ` +
            'The file does not exist, so this Write is not made. The same call will be denied again.',
        );
      }
      return;
    }
    const disk = parseState(diskText);
    if (!disk) {
      note(`${PREFIX} ${path} was not valid JSON before this change, so the change could not be checked; \`isdlc doctor\` reports on it.`);
      return;
    }
    const after = textAfterEdit(event, diskText);
    if (after === null) return;
    const incoming = parseState(after);
    if (!incoming) {
      deny(
        `${PREFIX} Use isdlc's tools to change state (${STATUS} names the next one) instead of this ${tool.name}: ` +
          `after it ${path} would not be a valid JSON object, and every guard and command would lose the workflow's state. The file is unchanged.`,
      );
      return;
    }
    const review = reviewStateEdit(disk, incoming);
    const journaled = hasJournal(location.root);
    log({ file, refusals: review.refusals.map((r) => `${r.rule} ${r.field}`), notes: review.notes.length, ...(journaled ? { journaled } : {}) });
    if (journaled) {
      // The tamper check judges the state file whole: any change isdlc did not make is undone at the next hook
      // call and counted as an incident. Letting the edit through would only trade a clear answer for that.
      deny(
        `${PREFIX} Use isdlc's tools to change state (${STATUS} names the next one) instead of this ${tool.name}; keep notes and descriptions in a file of your own. ` +
          `${path} is isdlc's record in this project: a change isdlc did not make is undone at the next hook call and counted as an incident (the third closes the phase gate), ` +
          `so the ${tool.name} is refused before it happens and the file is unchanged.` +
          (review.refusals.length > 0 ? `\nWhat it would have changed, and the way to do each:\n${describe(review.refusals)}` : '') +
          ' The same edit will be denied again.',
      );
      return;
    }
    if (review.refusals.length > 0) {
      deny(
        `${PREFIX} Leave the fields below to isdlc: do what each line says instead of this ${tool.name} of ${path} (${STATUS} shows where the workflow stands). ` +
          `The ${tool.name} is refused before it happens, and the file is unchanged:\n${describe(review.refusals)}\n` +
          "These fields belong to isdlc's commands and watchers, so a hand edit would make the record say something isdlc never observed. " +
          'The same edit will be denied again.',
      );
      return;
    }
    if (review.notes.length > 0) note(`${PREFIX} the state after this ${tool.name} has records that do not add up:\n${review.notes.join('\n')}`);
  },
});
