// A shell command changed one of isdlc's guarded files (src/integrity/guarded-set.ts), by a route no text
// rule saw (`cd .isdlc && python3 ...`, a script the agent wrote). A host may report the files a command
// changed (ToolOutcome.fileChanges); when a guarded one is among them the model hears which, that isdlc did
// not make the change and what to use instead, the person hears it too, and the activity log records it.
//
// A courtesy signal for projects without a journal of isdlc's writes (set up by an older isdlc): elsewhere
// the tamper check (src/integrity/tamper-check.ts), which runs before every guard, has already found,
// undone and reported such a change, whatever route made it; a host's report of changed files is blind to
// what it leaves out (Claude Code's leaves out files git ignores, and failed commands).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ACTIVITY_LOG } from '../state/activity-log.js';
import { ISDLC_DIR } from '../state/locate.js';
import type { FileChange } from '../events/hook-event.js';
import { defineGuard } from '../engine/guard.js';
import { simpleCommands, type SimpleCommand } from '../detect/shell-words.js';
import { GUARDED_KIND_LABELS, relativeToRoot, type GuardedKind } from '../integrity/guarded-set.js';
import { INSTEAD } from '../integrity/instead.js';
import { hasJournal } from '../integrity/journal.js';

/** Shell words that only print: harmless beside an isdlc command. */
const NEUTRAL_COMMANDS = new Set(['echo', 'printf', 'true']);

/**
 * `node <project>/.isdlc/bin/isdlc.cjs ...`, the form isdlc's agent files use: the project's own copy,
 * found from the project root or from the folder a `cd` before it names. A bare `isdlc`, `npx isdlc` or
 * any other `isdlc.cjs` could be a script the agent wrote under that name, so they do not count.
 */
function runsProjectIsdlc(command: SimpleCommand, folder: string, bin: string): boolean {
  if (command.name !== 'node') return false;
  const script = command.args.find((word) => !word.startsWith('-'));
  return script !== undefined && resolve(folder, script) === bin;
}

/** The command line is the project's isdlc commands and nothing else that could write: its changes are isdlc's. */
function onlyIsdlcCommands(line: string, powershell: boolean, root: string): boolean {
  let commands: SimpleCommand[];
  try {
    commands = simpleCommands(line, { powershell });
  } catch {
    return false; // a line the parser cannot read is not known to be isdlc's own
  }
  const bin = join(root, ISDLC_DIR, 'bin', 'isdlc.cjs');
  let folder = root;
  let ranIsdlc = false;
  for (const command of commands) {
    if (command.redirects.length > 0) return false;
    if (command.name === 'cd') {
      // Only a plain `cd DIR` is followed; anything else (`cd -`, `cd` alone, a variable) leaves the folder unknown.
      const [target, ...rest] = command.args;
      if (target === undefined || rest.length > 0 || target === '-' || /[$`~]/.test(target)) return false;
      folder = resolve(folder, target);
    } else if (runsProjectIsdlc(command, folder, bin)) ranIsdlc = true;
    else if (!NEUTRAL_COMMANDS.has(command.name)) return false;
  }
  return ranIsdlc;
}

/** The highest `state_version` on the diff's lines of one side (`-` before, `+` after). */
function stateVersionOn(lines: readonly string[], sign: '-' | '+'): number | undefined {
  const versions = lines
    .filter((line) => line.startsWith(sign))
    .flatMap((line) => {
      const match = /"state_version"\s*:\s*(\d+)/.exec(line);
      return match ? [Number(match[1])] : [];
    });
  return versions.length > 0 ? Math.max(...versions) : undefined;
}

/** How much of the activity log's end is read: far more than the hook calls one command can overlap. */
const LOG_TAIL_BYTES = 256 * 1024;

function logTail(file: string): string {
  try {
    const size = statSync(file).size;
    const fd = openSync(file, 'r');
    try {
      const length = Math.min(size, LOG_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, size - length);
      return buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

/**
 * A state diff is a write of isdlc's store (a hook of a subagent running beside the command, say) when the
 * version rose and an isdlc hook logged writing exactly that version. A raised `state_version` alone
 * proves nothing: a forger can raise it too.
 */
function writtenByIsdlcHook(isdlcDir: string, lines: readonly string[]): boolean {
  const before = stateVersionOn(lines, '-');
  const after = stateVersionOn(lines, '+');
  if (before === undefined || after === undefined || after <= before) return false;
  const logged = `"state_version":${after}`;
  return [ACTIVITY_LOG, `${ACTIVITY_LOG}.1`].some((name) => logTail(join(isdlcDir, name)).includes(logged));
}

const changedLines = (file: FileChange): string[] => (file.lines ?? []).filter((line) => /^[+-]/.test(line));

/** Whether this change of a guarded file is worth reporting, given what the diff shows. */
function reportable(kind: GuardedKind, file: FileChange, isdlcDir: string): boolean {
  if (file.deleted) return true;
  // A state write by isdlc elsewhere (a hook of a subagent running beside this command) shows up here too.
  if (kind === 'state') return !writtenByIsdlcHook(isdlcDir, file.lines ?? []);
  // Only isdlc's own entries in those files are guarded; the rest is the person's or the host's.
  if (kind === 'settings' || kind === 'mcp') return changedLines(file).some((line) => /isdlc/i.test(line));
  // isdlc only appends to its log; appended lines are its hooks writing while the command ran.
  if (kind === 'log') return changedLines(file).some((line) => line.startsWith('-'));
  return true;
}

function changeOf(file: FileChange): 'created' | 'deleted' | 'modified' {
  return file.deleted ? 'deleted' : file.created ? 'created' : 'modified';
}

export const unexpectedFileChange = defineGuard({
  id: 'unexpected-file-change',
  description:
    "After a shell command, in a project without a journal of isdlc's writes, reports isdlc's guarded files that the host lists as changed by it (to the model, the person and the log).",
  on: { PostToolUse: ['shell'] },
  check({ event, location, guarded: guardedSet, note, tellUser, log }) {
    const changes = event.outcome?.fileChanges;
    if (!changes || changes.files.length === 0 || hasJournal(location.root)) return;
    const guarded = changes.files.flatMap((file) => {
      const kind = guardedSet.fileKindOnDisk(location.root, file.path);
      return kind ? [{ file, kind, path: relativeToRoot(location.root, file.path) ?? file.path }] : [];
    });
    if (guarded.length === 0) return;
    const command = typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
    if (onlyIsdlcCommands(command, event.tool?.name === 'PowerShell', location.root)) {
      log({ outcome: 'isdlc-command', files: guarded.map((item) => item.path) });
      return;
    }
    const reported = guarded.filter((item) => reportable(item.kind, item.file, location.isdlcDir));
    if (reported.length === 0) {
      log({ outcome: 'not-reported', files: guarded.map((item) => item.path) });
      return;
    }
    log({ guarded_files: reported.map((item) => ({ file: item.path, kind: item.kind, change: changeOf(item.file) })) });
    const names = reported.map((item) => item.path).join(', ');
    const lines = reported.map((item) => `- ${item.path} (${GUARDED_KIND_LABELS[item.kind]}, ${changeOf(item.file)}): ${INSTEAD[item.kind]}.`);
    note(
      `isdlc unexpected-file-change: Use isdlc's commands, not shell commands, to change isdlc's files. Your last command changed ` +
        `${reported.length === 1 ? 'a file' : 'files'} only isdlc should change:\n${lines.join('\n')}\n` +
        'isdlc did not make this change and has not reverted it yet. The person has been told.',
    );
    tellUser(
      `isdlc: the agent's shell command changed ${names} (${[...new Set(reported.map((item) => GUARDED_KIND_LABELS[item.kind]))].join('; ')}) ` +
        "outside isdlc's commands. isdlc did not make this change and has not reverted it: review it (for example `git diff -- " +
        `${reported.map((item) => item.path).join(' ')}\`).`,
    );
  },
});
