// Whether a tool call is about to write one of this project's guarded files: a file tool whose resolved
// target is one (tool-target.ts), or a shell command that, read as the commands it runs, writes one. A
// shell word is resolved like a file tool's path when it is a plain path; one the shell still has to
// expand (`$DIR/state.json`, `~`, a glob) or that climbs with `..` (a `cd` earlier in the line may have
// moved it anywhere) is taken at its word, so such a command stays ours.
import type { HookEvent } from '../engine/event.js';
import { shellWritesTo, toolFilePath } from '../detect/state-file-writes.js';
import { guardedFileOnDisk, type GuardedKind } from './guarded-set.js';
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

/**
 * Whether a path a shell command names is one of this project's guarded files, as far as the hook can tell:
 * a plain path is resolved against the command's working folder; any other is ours when it `looksGuarded`.
 */
export function shellPathIsOurs(word: string, cwd: string, root: string, looksGuarded: (word: string) => boolean): boolean {
  if (!isPlainPath(word)) return looksGuarded(word);
  return guardedFileOnDisk(root, toolFilePath(word, cwd)) !== undefined;
}

/** isdlc's guarded set by the text of a path, for words the hook cannot resolve. */
const GUARDED_TEXT = /\.isdlc(?:[\\/]|$)|\.claude[\\/]settings(?:\.local)?\.json|\.mcp\.json|constitution\.md|\.claude[\\/]hooks[\\/]config/;

/** The guarded file a PreToolUse call would write, or undefined (a read, another file, another event). */
export function guardedWriteOf(event: HookEvent, root: string): GuardedWrite | undefined {
  const tool = event.tool;
  if (event.name !== 'PreToolUse' || !tool) return undefined;
  if (tool.kind === 'shell') {
    const command = typeof tool.input['command'] === 'string' ? tool.input['command'] : '';
    const cwd = event.cwd ?? root;
    const looksGuarded = (word: string): boolean => GUARDED_TEXT.test(word);
    const writes = shellWritesTo(command, (word) => shellPathIsOurs(word, cwd, root, looksGuarded), { powershell: tool.name === 'PowerShell' });
    return writes[0] ? { named: writes[0].target } : undefined;
  }
  const target = toolTarget(event, root);
  return target?.guarded ? { named: target.named, kind: target.guarded.kind } : undefined;
}
