// The file a file tool (Write, Edit, MultiEdit, NotebookEdit) is about to change, as the file system will
// find it, and whether it is one of this project's guarded files. Guards judge this rather than the text of
// the path: `.isdlc/./state.json`, `.isdlc//state.json`, `x/../.isdlc/state.json`, a path relative to the
// agent's working folder, a symlink into `.isdlc/` and a linked folder all reach the state file, and a
// rule reading the text would miss each of them.
import type { HookEvent } from '../events/hook-event.js';
import { toolFilePath } from '../detect/state-file-writes.js';
import type { GuardedKind, GuardedSet } from './guarded-set.js';

/** Where the file tools name their file: Write/Edit/MultiEdit `file_path`, NotebookEdit `notebook_path`. */
const PATH_FIELDS = ['file_path', 'notebook_path', 'path'] as const;

export interface ToolTarget {
  /** The path as the call names it, for messages. */
  named: string;
  /** Absolute, relative paths taken from the payload's cwd (the agent's working folder, not the hook's). */
  file: string;
  /** Set when the file is one of this project's guarded files. */
  guarded?: { kind: GuardedKind; relative: string };
}

/** The path a file tool call names, or undefined for any other call (and for a patch, which names several). */
export function toolPathOf(event: HookEvent): string | undefined {
  const tool = event.tool;
  if (!tool || (tool.kind !== 'write' && tool.kind !== 'edit' && tool.kind !== 'notebook')) return undefined;
  for (const field of PATH_FIELDS) {
    const value = tool.input[field];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

/** Every path a file-changing call names: the file tool's one, or each file of a patch. */
export function toolPathsOf(event: HookEvent): string[] {
  if (event.tool?.kind === 'patch') return (event.tool.paths ?? []).filter((path) => path.trim() !== '');
  const one = toolPathOf(event);
  return one === undefined ? [] : [one];
}

function targetOf(named: string, event: HookEvent, root: string, guarded: GuardedSet): ToolTarget {
  const file = toolFilePath(named, event.cwd ?? root);
  const kind = guarded.fileOnDisk(root, file);
  return kind ? { named, file, guarded: kind } : { named, file };
}

/** Every file a file-changing call would change; `root` is the project's root (a monorepo's, with its projects). */
export function toolTargets(event: HookEvent, root: string, guarded: GuardedSet): ToolTarget[] {
  return toolPathsOf(event).map((named) => targetOf(named, event, root, guarded));
}

/** The file a call would change, and for a patch the first of its files that is guarded (else its first). */
export function toolTarget(event: HookEvent, root: string, guarded: GuardedSet): ToolTarget | undefined {
  const targets = toolTargets(event, root, guarded);
  return targets.find((target) => target.guarded) ?? targets[0];
}
