// The one change the journal of isdlc's writes cannot undo: removing or replacing the program every hook
// command runs (`.isdlc/bin/isdlc.cjs`, or the folders holding it). After it, nothing of isdlc runs the next
// check (docs/tamper-evidence.md), so a plain command that would do it is refused before it runs. A text
// rule, and so only the courteous first line: the OS sandbox is what keeps a rephrased command out.
import { isAbsolute, join, resolve } from 'node:path';
import { defineGuard } from '../engine/guard.js';
import { simpleCommands, type SimpleCommand } from '../detect/shell-words.js';
import { ISDLC_DIR } from '../state/locate.js';

/** Commands that remove, or write over, every file argument; and those that move or write over their destination. */
const REMOVES = new Set(['rm', 'unlink', 'shred', 'truncate', 'rmdir', 'remove-item', 'ri', 'del', 'erase', 'rd']);
const MOVES = new Set(['mv', 'move-item', 'mi', 'move', 'rename-item', 'ren']);
const OVERWRITES = new Set(['cp', 'install', 'ln', 'rsync', 'copy-item', 'cpi', 'tee', 'dd']);

/** The paths whose removal or replacement leaves no isdlc to run: `.isdlc`, `.isdlc/bin`, the executable. */
function vitalPaths(root: string): string[] {
  return [join(root, ISDLC_DIR), join(root, ISDLC_DIR, 'bin'), join(root, ISDLC_DIR, 'bin', 'isdlc.cjs')];
}

function resolveWord(word: string, cwd: string): string | undefined {
  if (/[$`~*?[\]{}]/.test(word)) return undefined;
  const path = word.replace(/[\\/]+$/, '');
  return path === '' ? undefined : isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** What the command would remove or write over, of the vital paths. */
function hits(command: SimpleCommand, cwd: string, vital: string[]): string[] {
  const files = command.args.filter((word) => !word.startsWith('-'));
  const name = command.name.toLowerCase();
  let targets: string[] = [];
  if (REMOVES.has(name)) targets = files;
  else if (MOVES.has(name))
    targets = files; // the sources go, the destination is written over
  else if (OVERWRITES.has(name))
    targets = name === 'tee' ? files : name === 'dd' ? command.args.filter((w) => w.startsWith('of=')).map((w) => w.slice(3)) : files.slice(-1);
  targets.push(...command.redirects.filter((redirect) => /^>|^>>|^&>/.test(redirect.op) || redirect.op === '>|').map((redirect) => redirect.target));
  return targets.filter((word) => {
    const path = resolveWord(word, cwd);
    return path !== undefined && vital.includes(path);
  });
}

export const isdlcProgramGuard = defineGuard({
  id: 'isdlc-program-guard',
  description:
    "Denies a shell command that plainly removes or replaces isdlc's executable or the folders holding it (.isdlc, .isdlc/bin): the one change the next hook call could not undo; in the sandbox, notes it instead.",
  on: { PreToolUse: ['shell'] },
  check({ event, location, deny, note, shellSandboxed }) {
    const line = typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
    const cwd = event.cwd ?? location.root;
    if (!line.includes(ISDLC_DIR) && !resolve(cwd).startsWith(join(location.root, ISDLC_DIR))) return;
    let commands: SimpleCommand[];
    try {
      commands = simpleCommands(line, { powershell: event.tool?.name === 'PowerShell' });
    } catch {
      return;
    }
    const vital = vitalPaths(location.root);
    // Each command from the folder its `cd`s moved it to, and from where the line began: a `cd` can be made to
    // do nothing (a function or alias named cd, a DEBUG trap), and this removal is the one nothing undoes.
    const found = [
      ...new Set(
        commands.flatMap((command) => [...hits(command, resolve(cwd, ...(command.cd ?? [])), vital), ...(command.cd?.length ? hits(command, cwd, vital) : [])]),
      ),
    ];
    if (found.length === 0) return;
    const what = `\`${found.join('`, `')}\``;
    if (shellSandboxed()) {
      note(
        `isdlc isdlc-program-guard: this command would remove or replace ${what}, isdlc's own program; in the sandbox it cannot. Leave isdlc's files to isdlc.`,
      );
      return;
    }
    deny(
      `isdlc isdlc-program-guard: Do not remove or replace ${what}: it is the program every isdlc hook runs, and without it nothing checks or undoes what changes next. ` +
        'If isdlc is in the way, tell the user what you need; a person uninstalls it with `isdlc uninstall`. Retrying the same command will be denied again.',
    );
  },
});
