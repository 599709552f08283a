// Whether a tool call is about to write one of this project's guarded files: a file tool whose resolved
// target is one (tool-target.ts), or a shell command that, read as the commands it runs, writes one. A
// shell word is resolved as the shell and the file system will resolve it: from the folder the command runs
// in (the payload's cwd, moved by each `cd x &&` before it), `..` through the links it passes. Only this
// project's own files count: a fixture's `.isdlc/state.json` or another project's is not isdlc's. A word
// the hook cannot resolve (`$DIR/state.json`, `~`, a glob, a folder a failed `cd` may not have left, a link
// the same line makes) is taken at its word, so such a command stays ours.
import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { HookEvent } from '../events/hook-event.js';
import { shellWritesTo, toolFilePath } from '../detect/state-file-writes.js';
import { simpleCommands, type SimpleCommand } from '../detect/shell-words.js';
import { realPathOf, type GuardedKind, type GuardedSet } from './guarded-set.js';
import { toolTarget } from './tool-target.js';

export interface GuardedWrite {
  /** The path as the call names it. */
  named: string;
  /** What the call writes, when known (a guarded file of the project); unknown for a shell word not resolved. */
  kind?: GuardedKind;
}

/** Characters a shell expands or reads specially: a word holding one is not yet the path it will be. */
const UNRESOLVED = /[$`~*?[\]{}]/;

/** A plain path the hook can resolve as the shell will: nothing to expand, no `..` to climb. */
export function isPlainPath(word: string): boolean {
  return !UNRESOLVED.test(word) && !word.split(/[\\/]/).includes('..');
}

/** What a shell line is read against: where it starts, the project, and how to judge a word it cannot resolve. */
export interface ShellPlace {
  /** The payload's cwd: where the line starts. */
  cwd: string;
  root: string;
  guarded: GuardedSet;
  /** For a word that cannot be resolved: does its text name a guarded file? */
  looksGuarded: (word: string) => boolean;
  /** The kinds of guarded file asked about (all when unset). */
  kinds?: readonly GuardedKind[];
}

/** File names of isdlc's own that a `cd` into `.isdlc/` makes bare (`cd .isdlc && echo > state.json`). */
const ISDLC_FILE_NAME = /^(?:state\.json|loop\.db(?:-wal|-shm|-journal)?|hook-activity\.log|install\.json|monorepo\.json|isdlc\.cjs|.*\.json)$/;

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** Commands that make links: a link made earlier in the line is not on disk yet for the hook to follow. */
function makesLinks(command: SimpleCommand): boolean {
  if (['ln', 'link', 'mklink'].includes(command.name)) return true;
  if (command.name === 'cp') return command.args.some((word) => /^-[a-zA-Z]*s|^--symbolic-link/.test(word));
  return command.name === 'new-item' && command.args.some((word) => /link|junction/i.test(word));
}

/** The folder a command runs in, when every `cd` before it went into a folder that is there. */
function commandFolder(cwd: string, cd: string[] | null): string | undefined {
  if (cd === null) return undefined;
  let folder = cwd;
  for (const step of cd) {
    folder = resolve(folder, step); // `cd` reads `..` in the path as written (bash's default, -L)
    if (!isFolder(folder)) return undefined;
  }
  return folder;
}

/**
 * Where `word` lands when a command in `folder` writes it: `..` is taken through the links it passes, as
 * the file system does (`link/..` is the link target's parent, not `folder`). Undefined when the hook
 * cannot tell: a word the shell expands, or a missing part when the line makes links (it may become one).
 */
function landing(word: string, folder: string, linksMade: boolean): string | undefined {
  if (UNRESOLVED.test(word)) return undefined;
  const native = toolFilePath(word, folder);
  if (!linksMade && !word.split(/[\\/]/).includes('..')) return native;
  const parts = (process.platform === 'win32' ? word : word.replace(/\\/g, '/')).split(/[\\/]/);
  let at = isAbsolute(native) && isAbsolute(word) ? (process.platform === 'win32' ? parts.shift()! + '\\' : '/') : folder;
  at = realPathOf(at) ?? at;
  let missing = false;
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      at = dirname(at);
      continue;
    }
    const next = join(at, part);
    let there: boolean;
    try {
      lstatSync(next);
      there = true;
    } catch {
      there = false;
    }
    if (there && !missing) at = realPathOf(next) ?? next;
    else {
      if (linksMade) return undefined;
      missing = true;
      at = next;
    }
  }
  return at;
}

/**
 * Whether a path a shell command names is one of this project's guarded files, as far as the hook can tell:
 * resolved from the folder the command runs in when it can be; otherwise ours when it `looksGuarded`, or when
 * it is a bare name of isdlc's files in a line that goes into `.isdlc` somehow.
 */
export function shellPathIsOurs(word: string, command: SimpleCommand, place: ShellPlace, line: string, linksMade: boolean): boolean {
  // A `cd` is followed only when nothing in the line can change where it leads: no link made on the way,
  // no CDPATH sending a relative `cd` elsewhere.
  const folder = command.cd !== null && command.cd.length > 0 && (linksMade || line.includes('CDPATH')) ? undefined : commandFolder(place.cwd, command.cd);
  const path =
    folder === undefined
      ? isAbsolute(word) && !UNRESOLVED.test(word) && !linksMade
        ? landing(word, place.cwd, false)
        : undefined
      : landing(word, folder, linksMade);
  if (path !== undefined) {
    const kind = place.guarded.fileKindOnDisk(place.root, path);
    return kind !== undefined && (place.kinds === undefined || place.kinds.includes(kind));
  }
  return place.looksGuarded(word) || (line.includes('.isdlc') && ISDLC_FILE_NAME.test(basename(word.replace(/\\/g, '/'))));
}

/** The writes of a shell line to this project's files that `looksGuarded` names (text) or that resolve into the guarded set. */
export function shellWritesOurs(line: string, place: ShellPlace, options: { powershell?: boolean } = {}): ReturnType<typeof shellWritesTo> {
  const linksMade = simpleCommands(line, options).some(makesLinks);
  return shellWritesTo(line, (word, command) => shellPathIsOurs(word, command, place, line, linksMade), options);
}

/** The guarded file a PreToolUse call would write, or undefined (a read, another file, another event). */
export function guardedWriteOf(event: HookEvent, root: string, guarded: GuardedSet): GuardedWrite | undefined {
  const tool = event.tool;
  if (event.name !== 'PreToolUse' || !tool) return undefined;
  if (tool.kind === 'shell') {
    const command = typeof tool.input['command'] === 'string' ? tool.input['command'] : '';
    const place: ShellPlace = { cwd: event.cwd ?? root, root, guarded, looksGuarded: (word) => guarded.namedIn(word) };
    const writes = shellWritesOurs(command, place, { powershell: tool.name === 'PowerShell' });
    return writes[0] ? { named: writes[0].target } : undefined;
  }
  const target = toolTarget(event, root, guarded);
  return target?.guarded ? { named: target.named, kind: target.guarded.kind } : undefined;
}
