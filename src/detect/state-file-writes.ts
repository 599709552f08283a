// Which tool calls write an isdlc state file: `.isdlc/state.json`, or `.isdlc/projects/<id>/state.json`
// in a monorepo, with either path separator; and which write the loop store (`.isdlc/loop.db` and its
// WAL files), which only isdlc's own commands and tools may change. Shell command lines are read as the commands they run
// (shell-words), so a path inside an echoed string or a read does not count, and a redirection, an
// in-place edit or a copy onto the file does.
import { isAbsolute, posix, resolve } from 'node:path';
import { editsInPlace, sqliteReadsOnly } from './command-switches.js';
import { simpleCommands, type SimpleCommand } from './shell-words.js';

const STATE_FILE = /(?:^|[\\/])\.isdlc[\\/](?:projects[\\/][^\\/]+[\\/])?state\.json$/;
const STATE_FILE_IN_TEXT = /[^\s"'(]*\.isdlc[\\/](?:projects[\\/][^\\/\s"']+[\\/])?state\.json/;

const LOOP_STORE = /(?:^|[\\/])\.isdlc[\\/]loop\.db(?:-wal|-shm|-journal)?$/;
const LOOP_STORE_IN_TEXT = /[^\s"'(]*\.isdlc[\\/]loop\.db(?:-wal|-shm|-journal)?/;
/** A script's own string naming the file bare (`p='state.json'`), which a `cd .isdlc` before it makes the state file. */
const BARE_NAME_IN_TEXT = /(?<=["'])[^\s"'(]*(?:state\.json|loop\.db(?:-wal|-shm|-journal)?)(?=["'])/;

/** `.isdlc//state.json` and `x/../.isdlc/state.json` name the same file as `.isdlc/state.json`. */
function normalised(path: string): string {
  return posix.normalize(path.trim().replace(/\\/g, '/'));
}

export function isStateFilePath(path: unknown): path is string {
  return typeof path === 'string' && STATE_FILE.test(normalised(path));
}

export function isLoopStorePath(path: unknown): path is string {
  return typeof path === 'string' && LOOP_STORE.test(normalised(path));
}

/** A file only isdlc writes: a state file or the loop store. */
function isProtected(path: string): boolean {
  return isStateFilePath(path) || isLoopStorePath(path);
}

/** Where a file a tool names is on this machine: relative to the tool's working folder, backslashes read as `/` off Windows. */
export function toolFilePath(path: string, cwd: string): string {
  const native = process.platform === 'win32' ? path : path.replace(/\\/g, '/');
  return isAbsolute(native) ? native : resolve(cwd, native);
}

export interface ShellStateWrite {
  target: string;
  /** The folder the writing command runs in, as `cd` moved it (SimpleCommand.cd). */
  cd: string[] | null;
  /** How the command writes it, for the message: "redirection", "sed -i", "cp", ... */
  how: string;
}

/** Commands whose every file argument is written (or removed). */
const WRITES_EVERY_ARGUMENT = new Set([
  'tee',
  'rm',
  'unlink',
  'truncate',
  'shred',
  'touch',
  'set-content',
  'add-content',
  'out-file',
  'remove-item',
  'new-item',
  'clear-content',
  'sc',
  'ac',
]);
/** Commands that write their last argument (the destination). */
const WRITES_DESTINATION = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'copy-item', 'move-item', 'cpi', 'mi', 'copy', 'move']);
const IN_PLACE_EDITORS = new Set(['sed', 'perl', 'ruby']);
const INTERPRETERS = new Set(['python', 'node', 'ruby', 'perl', 'deno', 'bun']);
/**
 * An interpreter one-liner that opens a file for writing (or moves, removes or opens a database). `json.dumps`
 * only makes a string; `json.dump` writes one into a file.
 */
const SCRIPT_WRITES =
  /writeFile|appendFile|createWriteStream|write_text|write_bytes|json\.dump(?!s)|open\s*\([^)]*["'][wa+]|["'][rb]*\+["']|>\s*["']?[^\s"']*state\.json|File\.write|fs\.(?:rename|copyFile|unlink|rm|truncate)|os\.(?:rename|replace|remove|unlink|truncate)|shutil\.|\.unlink\(|sqlite3?\.connect|better-sqlite3|node:sqlite|Database(?:Sync)?\(/;

/** Whether a word of `command` names a file the caller is looking for (the command says where it runs). */
export type ShellTarget = (path: string, command: SimpleCommand) => boolean;

/** Write calls whose file is a string literal: `open('/tmp/x', 'w')`, `writeFileSync("out.json", ...)`, `Path('x').write_text(...)`. */
const LITERAL_WRITES = [
  /\bopen(?:Sync)?\s*\(\s*(["'])([^"'\n]*)\1\s*,\s*(?:mode\s*=\s*)?["'][rbt]*[wax+][rbt+]*["']\s*\)/g,
  /\b(?:writeFile|appendFile|createWriteStream)(?:Sync)?\s*\(\s*(["'])([^"'\n]*)\1/g,
  /\bPath\s*\(\s*(["'])([^"'\n]*)\1\s*\)\s*\.\s*(?:write_text|write_bytes)\b/g,
];

/**
 * Whether an interpreter one-liner writes `isProtected` files. A script that reads the state and writes a
 * summary somewhere else (`open('/tmp/phase.txt', 'w')`) is a read: write calls whose file is a literal are
 * judged by that file; any other way of writing, in a script that names the file, counts as writing it.
 */
function scriptWrites(script: string, isProtected: (path: string) => boolean): boolean {
  let rest = script;
  for (const pattern of LITERAL_WRITES) {
    for (const match of script.matchAll(pattern)) {
      if (isProtected(match[2]!)) return true;
      rest = rest.replace(match[0], ' ');
    }
  }
  return SCRIPT_WRITES.test(rest);
}

function writesOf(command: SimpleCommand, isTarget: ShellTarget): ShellStateWrite[] {
  const isProtected = (path: string): boolean => isTarget(path, command);
  const found: Omit<ShellStateWrite, 'cd'>[] = command.redirects
    .filter((r) => isProtected(r.target))
    .map((r) => ({ target: r.target, how: `redirection (${r.op})` }));
  const { name, args } = command;
  const files = args.filter((word) => !word.startsWith('-'));
  if (name === 'sqlite3') {
    if (sqliteReadsOnly(args)) return [];
    // A URI filename (`file:.isdlc/loop.db?mode=rw`) names the same file.
    const plain = (word: string): string => word.replace(/^file:(?:\/\/localhost(?=\/))?/, '').replace(/\?.*$/, '');
    for (const word of files) if (isProtected(plain(word))) found.push({ target: plain(word), how: name });
    // ATTACH or `.open` of the file inside the statements
    for (const word of files) {
      const path = LOOP_STORE_IN_TEXT.exec(word) ?? STATE_FILE_IN_TEXT.exec(word);
      if (path && path[0] !== word && isProtected(path[0])) found.push({ target: path[0], how: `${name} statement` });
    }
  } else if (WRITES_EVERY_ARGUMENT.has(name)) {
    for (const word of files) if (isProtected(word)) found.push({ target: word, how: name });
  } else if (WRITES_DESTINATION.has(name)) {
    const destination = files[files.length - 1];
    if (files.length >= 2 && destination !== undefined && isProtected(destination)) found.push({ target: destination, how: name });
  } else if (IN_PLACE_EDITORS.has(name) && editsInPlace(name, args)) {
    for (const word of files) if (isProtected(word)) found.push({ target: word, how: `${name} -i` });
  } else if (name === 'dd') {
    for (const word of args) if (word.startsWith('of=') && isProtected(word.slice(3))) found.push({ target: word.slice(3), how: 'dd' });
  } else if (INTERPRETERS.has(name.replace(/[\d.]+$/, ''))) {
    for (const word of args) {
      const path = STATE_FILE_IN_TEXT.exec(word) ?? LOOP_STORE_IN_TEXT.exec(word) ?? BARE_NAME_IN_TEXT.exec(word);
      if (path && isProtected(path[0]) && scriptWrites(word, isProtected)) found.push({ target: path[0], how: `${name} script` });
    }
  }
  return found.map((write) => ({ ...write, cd: command.cd }));
}

/** The state files (and loop store files) a shell command line writes, and how. Cheap when the line never names one. */
export function shellStateWrites(line: string, options: { powershell?: boolean } = {}): ShellStateWrite[] {
  if (!line.includes('state.json') && !line.includes('loop.db')) return [];
  return simpleCommands(line, options).flatMap((command) => writesOf(command, (path) => isProtected(path)));
}

/**
 * The files a shell command line writes that `isTarget` picks, by the same reading of the line: redirections,
 * the files of commands that write their arguments or their destination, in-place edits. Interpreter
 * one-liners count only when they name a state file or the loop store.
 */
export function shellWritesTo(line: string, isTarget: ShellTarget, options: { powershell?: boolean } = {}): ShellStateWrite[] {
  return simpleCommands(line, options).flatMap((command) => writesOf(command, isTarget));
}
