// Which tool calls write an isdlc state file: `.isdlc/state.json`, or `.isdlc/projects/<id>/state.json`
// in a monorepo, with either path separator. Shell command lines are parsed into words and operators
// (shell-quote), so a path inside an echoed string or a read does not count, and a redirection, an
// in-place edit or a copy onto the file does.
import { parse, type ParseEntry } from 'shell-quote';

const STATE_FILE = /(?:^|[\\/])\.isdlc[\\/](?:projects[\\/][^\\/]+[\\/])?state\.json$/;

export function isStateFilePath(path: unknown): path is string {
  return typeof path === 'string' && STATE_FILE.test(path.trim());
}

export interface ShellStateWrite {
  target: string;
  /** How the command writes it, for the message: "redirection", "sed -i", "cp", ... */
  how: string;
}

const REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>']);
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '(', ')']);
/** Commands whose every file argument is written (or removed). */
const WRITES_EVERY_ARGUMENT = new Set(['tee', 'rm', 'unlink', 'truncate', 'shred', 'touch', 'set-content', 'add-content', 'out-file', 'remove-item', 'new-item', 'clear-content', 'sc', 'ac']);
/** Commands that write their last argument (the destination). */
const WRITES_DESTINATION = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'copy-item', 'move-item', 'cpi', 'mi', 'copy', 'move']);
const IN_PLACE_EDITORS = new Set(['sed', 'perl', 'ruby']);
const INTERPRETERS = new Set(['python', 'node', 'ruby', 'perl', 'deno', 'bun']);
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'pwsh', 'powershell']);
/** An interpreter one-liner that opens a file for writing. */
const SCRIPT_WRITES = /writeFile|write_text|write_bytes|json\.dump|open\s*\([^)]*["'][wa+]|>\s*["']?[^\s"']*state\.json|File\.write|fs\.(?:rename|copyFile|unlink|rm)/;

function commandName(word: string): string {
  return (word.split(/[\\/]/).pop() ?? word).toLowerCase().replace(/\.exe$/, '');
}

function wordsOf(segment: ParseEntry[]): string[] {
  return segment.filter((entry): entry is string => typeof entry === 'string');
}

/** Leading `VAR=value`, `sudo`, `env`, `command`, `exec`: the command that actually runs. */
function withoutPrefixes(words: string[]): string[] {
  let i = 0;
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || ['sudo', 'env', 'command', 'exec', 'nohup', 'time'].includes(words[i]!))) i += 1;
  return words.slice(i);
}

function segmentWrites(segment: ParseEntry[], found: ShellStateWrite[], depth: number): void {
  for (let i = 0; i < segment.length - 1; i += 1) {
    const entry = segment[i];
    const next = segment[i + 1];
    if (typeof entry === 'object' && 'op' in entry && REDIRECTS.has(entry.op) && isStateFilePath(next)) found.push({ target: next, how: `redirection (${entry.op})` });
  }
  // Words after a redirection operator are its target, not the command's arguments.
  const args: string[] = [];
  for (let i = 0; i < segment.length; i += 1) {
    const entry = segment[i];
    if (typeof entry === 'object' && 'op' in entry && REDIRECTS.has(entry.op)) i += 1;
    else if (typeof entry === 'string') args.push(entry);
  }
  const words = withoutPrefixes(args);
  if (words.length === 0) return;
  const name = commandName(words[0]!);
  const rest = words.slice(1);
  const files = rest.filter((word) => !word.startsWith('-'));
  if (WRITES_EVERY_ARGUMENT.has(name)) {
    for (const word of files) if (isStateFilePath(word)) found.push({ target: word, how: name });
  } else if (WRITES_DESTINATION.has(name)) {
    const destination = files[files.length - 1];
    if (files.length >= 2 && isStateFilePath(destination)) found.push({ target: destination, how: name });
  } else if (IN_PLACE_EDITORS.has(name) && rest.some((word) => /^-[a-zA-Z]*i/.test(word) || word.startsWith('--in-place'))) {
    for (const word of files) if (isStateFilePath(word)) found.push({ target: word, how: `${name} -i` });
  } else if (name === 'dd') {
    for (const word of rest) if (word.startsWith('of=') && isStateFilePath(word.slice(3))) found.push({ target: word.slice(3), how: 'dd' });
  } else if (SHELLS.has(name) && depth < 3) {
    const script = rest[rest.findIndex((word) => /^-(?:c|Command)$/i.test(word)) + 1];
    if (rest.some((word) => /^-(?:c|Command)$/i.test(word)) && script) collectWrites(script, found, depth + 1, name.includes('powershell') || name === 'pwsh');
  } else if (INTERPRETERS.has(name.replace(/[\d.]+$/, ''))) {
    for (const word of rest) {
      if (/\.isdlc[\\/](?:projects[\\/][^\\/\s"']+[\\/])?state\.json/.test(word) && SCRIPT_WRITES.test(word)) {
        found.push({ target: (/[^\s"'(]*\.isdlc[\\/][^\s"')]*state\.json/.exec(word) ?? [word])[0], how: `${name} script` });
      }
    }
  }
}

function collectWrites(line: string, found: ShellStateWrite[], depth: number, powershell: boolean): void {
  // PowerShell paths use backslashes, which a POSIX shell would read as escapes.
  const entries = parse(powershell ? line.replace(/\\/g, '/') : line, (name) => `$${name}`);
  let segment: ParseEntry[] = [];
  for (const entry of entries) {
    if (typeof entry === 'object' && 'op' in entry && SEPARATORS.has(entry.op)) {
      segmentWrites(segment, found, depth);
      segment = [];
    } else if (typeof entry === 'object' && 'comment' in entry) break;
    else segment.push(entry);
  }
  segmentWrites(segment, found, depth);
}

/** The state files a shell command line writes, and how. Cheap when the line never names one. */
export function shellStateWrites(line: string, options: { powershell?: boolean } = {}): ShellStateWrite[] {
  if (!line.includes('state.json')) return [];
  const found: ShellStateWrite[] = [];
  try {
    collectWrites(line, found, 0, options.powershell === true);
  } catch {
    return [];
  }
  return found;
}
