// Claude Code stops running hooks, isdlc's with them, the moment a settings file it reads says
// `disableAllHooks: true`, or once isdlc's entries leave `.claude/settings.json` (or the file stops
// parsing); it picks the change up in the middle of a session (seen with 2.1.332). The Write and Edit
// tools run outside any sandbox, so an agent's edit of those files is judged on the file it would leave.
// The shell's route to them is closed by Claude Code's sandbox, which keeps them read-only.
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readTextOrNull, textAfterEdit } from '../detect/file-edits.js';
import { toolFilePath } from '../detect/state-file-writes.js';
import { defineGuard } from '../engine/guard.js';
import { claudeUserSettingsFile } from '../install/claude-files.js';
import { findOurHooks, type Settings } from '../install/settings.js';
import { recordOrUndefined } from '../util/json.js';

const PREFIX = 'isdlc hook-settings-guard:';
const PROJECT_SETTINGS = '.claude/settings.json';
const PROJECT_LOCAL_SETTINGS = '.claude/settings.local.json';

interface Target {
  /** How the model and the person know the file. */
  label: string;
  file: string;
  /** isdlc's hooks are registered here: they must survive the edit. */
  holdsOurs: boolean;
}

/** The path with `.`, `..`, doubled separators and a symlinked folder resolved, as the file system sees it. */
function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute));
  } catch {
    return absolute;
  }
}

function targetOf(path: unknown, cwd: string, root: string): Target | undefined {
  if (typeof path !== 'string' || path === '') return undefined;
  const file = canonical(toolFilePath(path, cwd));
  const candidates: Target[] = [
    { label: PROJECT_SETTINGS, file: join(root, PROJECT_SETTINGS), holdsOurs: true },
    { label: PROJECT_LOCAL_SETTINGS, file: join(root, PROJECT_LOCAL_SETTINGS), holdsOurs: false },
    { label: 'your user settings', file: claudeUserSettingsFile(process.env), holdsOurs: false },
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

/** isdlc's registrations, one key each, so that a removed or rewritten one shows. */
function ourRegistrations(settings: Settings | undefined): Set<string> {
  return new Set(findOurHooks(settings ?? {}).map(({ event, matcher, hook }) => `${event} [${matcher ?? ''}] ${JSON.stringify(hook)}`));
}

const ASK = 'Leave the hook settings as they are; if they must change, ask the person to change them.';
const AGAIN = 'The same call will be denied again.';

export const hookSettingsGuard = defineGuard({
  id: 'hook-settings-guard',
  description: "Denies a Write or Edit of Claude Code's settings that would switch hooks off (disableAllHooks) or take isdlc's hooks out of .claude/settings.json.",
  on: { PreToolUse: ['write', 'edit'] },
  check({ event, location, deny, log }) {
    const input = event.tool!.input;
    const target = targetOf(input['file_path'] ?? input['path'], event.cwd ?? location.root, location.root);
    if (!target) return;
    const beforeText = readTextOrNull(target.file);
    const afterText = textAfterEdit(event, beforeText ?? '');
    if (afterText === null) return;
    const before = beforeText === null ? undefined : parse(beforeText);
    const after = parse(afterText);
    const tool = event.tool!.name;
    if (!after) {
      // Claude Code ignores a settings file it cannot parse: only the one holding isdlc's hooks matters here.
      if (target.holdsOurs && ourRegistrations(before).size > 0) {
        log({ file: target.label, outcome: 'unparsable' });
        deny(`${PREFIX} ${ASK} After this ${tool}, ${target.label} would not be a JSON object; Claude Code would ignore the whole file, and with it every isdlc hook. ${AGAIN}`);
      }
      return;
    }
    if (after['disableAllHooks'] === true && before?.['disableAllHooks'] !== true) {
      log({ file: target.label, outcome: 'disableAllHooks' });
      deny(
        `${PREFIX} ${ASK} This ${tool} would set disableAllHooks in ${target.label}, which makes Claude Code run no hook at all from then on: ` +
          `isdlc's checks of this workflow would stop without a word. ${AGAIN}`,
      );
      return;
    }
    if (!target.holdsOurs) return;
    const kept = ourRegistrations(after);
    const lost = [...ourRegistrations(before)].filter((key) => !kept.has(key));
    if (lost.length === 0) return;
    log({ file: target.label, outcome: 'isdlc-hooks-removed', lost: lost.length });
    deny(
      `${PREFIX} ${ASK} This ${tool} would remove or change ${lost.length} of isdlc's hook registrations in ${target.label} ` +
        `(${lost.map((key) => key.split(' {')[0]).join(', ')}); Claude Code would stop calling isdlc for them. Other changes to the file are fine ` +
        `when isdlc's entries stay as \`isdlc init\` wrote them. ${AGAIN}`,
    );
  },
});
