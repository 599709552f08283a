// A shell command line as the commands it runs: each simple command's words (quotes resolved, leading
// `VAR=value`, `sudo`, `env` and the like dropped) and the files it redirects into, including the
// commands inside `bash -c "..."`. Parsed with shell-quote, so text inside a quoted argument is an
// argument, never a command.
import type * as ShellQuote from 'shell-quote';
import type { ParseEntry } from 'shell-quote';

export interface SimpleCommand {
  /** The command name as written, lowercased, without a path or `.exe`. */
  name: string;
  /** The command word exactly as written (`./run-tests.sh`, `/usr/bin/npm`). */
  word: string;
  /** The command's words after its name. */
  args: string[];
  /** Files written by redirections (`>`, `>>`, `>|`, `&>`, `&>>`), with the operator. */
  redirects: { op: string; target: string }[];
}

const REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>']);
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '(', ')']);
const PREFIX_COMMANDS = new Set(['sudo', 'env', 'command', 'exec', 'nohup', 'time', 'xargs']);
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'pwsh', 'powershell']);
const MAX_DEPTH = 3;

export function commandName(word: string): string {
  return (word.split(/[\\/]/).pop() ?? word).toLowerCase().replace(/\.exe$/, '');
}

function simpleCommand(segment: ParseEntry[]): SimpleCommand | null {
  const words: string[] = [];
  const redirects: SimpleCommand['redirects'] = [];
  for (let i = 0; i < segment.length; i += 1) {
    const entry = segment[i];
    if (typeof entry === 'string') words.push(entry);
    else if (entry && typeof entry === 'object' && 'op' in entry && REDIRECTS.has(entry.op)) {
      const target = segment[i + 1];
      if (typeof target === 'string') redirects.push({ op: entry.op, target });
      i += 1;
    }
  }
  let start = 0;
  while (start < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!) || PREFIX_COMMANDS.has(words[start]!))) start += 1;
  if (start >= words.length) return redirects.length > 0 ? { name: '', word: '', args: [], redirects } : null;
  return { name: commandName(words[start]!), word: words[start]!, args: words.slice(start + 1), redirects };
}

let shellQuote: typeof ShellQuote | undefined;

/** The parser ships as its own file, loaded on first use: most command lines never need it. */
function parse(line: string, env: (name: string) => string): ParseEntry[] {
  shellQuote ??= require('shell-quote') as typeof ShellQuote;
  return shellQuote.parse(line, env);
}

function collect(line: string, found: SimpleCommand[], depth: number, powershell: boolean): void {
  // PowerShell paths use backslashes, which a POSIX shell would read as escapes.
  const entries = parse(powershell ? line.replace(/\\/g, '/') : line, (name) => `$${name}`);
  let segment: ParseEntry[] = [];
  const flush = (): void => {
    const command = simpleCommand(segment);
    segment = [];
    if (!command) return;
    found.push(command);
    const flag = command.args.findIndex((word) => /^-(?:c|Command)$/i.test(word));
    const script = flag >= 0 ? command.args[flag + 1] : undefined;
    if (SHELLS.has(command.name) && script && depth < MAX_DEPTH) collect(script, found, depth + 1, command.name.includes('powershell') || command.name === 'pwsh');
  };
  for (const entry of entries) {
    if (typeof entry === 'object' && 'op' in entry && SEPARATORS.has(entry.op)) flush();
    else if (typeof entry === 'object' && 'comment' in entry) break;
    else segment.push(entry);
  }
  flush();
}

/** The simple commands of a command line, nested shells included; [] when it cannot be parsed. */
export function simpleCommands(line: string, options: { powershell?: boolean } = {}): SimpleCommand[] {
  const found: SimpleCommand[] = [];
  try {
    collect(line, found, 0, options.powershell === true);
  } catch {
    return [];
  }
  return found;
}
