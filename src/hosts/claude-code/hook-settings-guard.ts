// Claude Code stops running hooks, isdlc's with them, the moment a settings file it reads says
// `disableAllHooks`, and it drops the whole of `.claude/settings.json` (isdlc's entries included) when one
// value in it does not fit its schema: `"model": 42` is enough. It picks either up in the middle of a
// session (seen with 2.1.332). The Write and Edit tools run outside any sandbox, so an agent's edit of
// those files is judged before it is made: no change at all to the file that holds isdlc's hooks (no
// content check can tell a safe edit from one that switches isdlc off), and no `disableAllHooks` in the
// other settings files. The shell's route to them is closed by Claude Code's sandbox, which keeps them
// read-only.
import { join, resolve } from 'node:path';
import { readTextOrNull, textAfterEdit } from '../../detect/file-edits.js';
import { defineGuard } from '../../engine/guard.js';
import { claudeManagedSettingsFile, claudeUserSettingsFile } from './settings-files.js';
import { realPathOf } from '../../integrity/guarded-set.js';
import { toolTarget } from '../../integrity/tool-target.js';
import type { Settings } from './settings.js';
import { recordOrUndefined } from '../../util/json.js';

const PREFIX = 'isdlc hook-settings-guard:';
const PROJECT_SETTINGS = '.claude/settings.json';
const PROJECT_LOCAL_SETTINGS = '.claude/settings.local.json';

interface Target {
  /** How the model and the person know the file. */
  label: string;
  file: string;
  /** isdlc's hooks are registered here: the agent does not change it at all. */
  holdsOurs: boolean;
}

/**
 * The path with `.`, `..`, doubled separators and symlinks resolved, as the file system sees it: a
 * symlink the agent made to a settings file, dangling or not, is that settings file.
 */
function canonical(path: string): string {
  const absolute = resolve(path);
  return realPathOf(absolute) ?? absolute;
}

function targetOf(path: string, root: string): Target | undefined {
  const file = canonical(path);
  const candidates: Target[] = [
    { label: PROJECT_SETTINGS, file: join(root, PROJECT_SETTINGS), holdsOurs: true },
    { label: PROJECT_LOCAL_SETTINGS, file: join(root, PROJECT_LOCAL_SETTINGS), holdsOurs: false },
    { label: 'your user settings', file: claudeUserSettingsFile(process.env), holdsOurs: false },
    { label: 'the managed settings', file: claudeManagedSettingsFile(), holdsOurs: false },
  ];
  return candidates.find((candidate) => canonical(candidate.file) === file);
}

function parse(text: string): Settings | undefined {
  try {
    return recordOrUndefined(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** The same settings, whatever the spacing: a reformatted file is not a change. */
function sameSettings(before: string | null, after: string): boolean {
  if (before === null) return false;
  const a = parse(before);
  const b = parse(after);
  return a !== undefined && b !== undefined ? JSON.stringify(a) === JSON.stringify(b) : before === after;
}

const ASK = 'If the hook settings must change, ask the person to change them.';
const AGAIN = 'The same call will be denied again.';

export const hookSettingsGuard = defineGuard({
  id: 'hook-settings-guard',
  description:
    "Denies a Write, Edit or MultiEdit of .claude/settings.json (it holds isdlc's hooks), one that would set disableAllHooks in another Claude Code settings file, and a NotebookEdit of any of them.",
  on: { PreToolUse: ['write', 'edit', 'notebook'] },
  check({ event, location, guarded, deny, log }) {
    const named = toolTarget(event, location.root, guarded);
    const target = named && targetOf(named.file, location.root);
    if (!target) return;
    const tool = event.tool!.name;
    if (event.tool!.kind === 'notebook') {
      // A settings file is no notebook: no honest call edits one as such, and its result cannot be judged.
      log({ file: target.label, outcome: 'notebook' });
      deny(`${PREFIX} Leave ${target.label} as it is: it is Claude Code's settings, not a notebook, and ${tool} cannot change it safely. ${ASK} ${AGAIN}`);
      return;
    }
    const beforeText = readTextOrNull(target.file);
    const afterText = textAfterEdit(event, beforeText ?? '');
    if (afterText === null) return;
    if (target.holdsOurs) {
      if (sameSettings(beforeText, afterText)) return;
      log({ file: target.label, outcome: 'changed' });
      deny(
        `${PREFIX} Leave ${target.label} as it is: put a setting of the project's in ${PROJECT_LOCAL_SETTINGS} instead. ${ASK} ` +
          `${target.label} holds isdlc's hooks, and Claude Code drops the whole file, those hooks with it, when a single value in it does not fit ` +
          `its schema or the file does not parse, so isdlc does not let an agent's ${tool} change it. ${AGAIN}`,
      );
      return;
    }
    const after = parse(afterText);
    const before = beforeText === null ? undefined : parse(beforeText);
    // Any value but false counts: Claude Code may read a truthy one as on, or drop the file over it.
    const disables = (settings: Settings | undefined): boolean =>
      settings !== undefined && Object.hasOwn(settings, 'disableAllHooks') && settings['disableAllHooks'] !== false;
    if (!disables(after) || disables(before)) return;
    log({ file: target.label, outcome: 'disableAllHooks' });
    deny(
      `${PREFIX} Leave disableAllHooks out of ${target.label}. ${ASK} With it Claude Code runs no hook at all from then on: ` +
        `isdlc's checks of this workflow would stop without a word. ${AGAIN}`,
    );
  },
});
