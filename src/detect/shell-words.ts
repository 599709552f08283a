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
  /**
   * The `cd` (or `pushd`) targets in force when the command runs, in order, from the line's own working
   * folder ([] when none); null when the hook cannot know the folder (a `cd $DIR`, a `cd` that may have
   * failed before a `;` or `||`, an `eval`).
   */
  cd: string[] | null;
}

const REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>']);
const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&', '(', ')']);
// Shell keywords and grouping words come before a command as prefixes do: `{ cd x && ...; }`, `if cd x; then ...`.
const PREFIX_COMMANDS = new Set([
  'sudo',
  'env',
  'command',
  'builtin',
  'exec',
  'nohup',
  'time',
  'xargs',
  '{',
  '!',
  'if',
  'then',
  'else',
  'elif',
  'do',
  'while',
  'until',
]);
/** Commands that run their arguments as shell code in the current shell. */
const EVALUATORS = new Set(['eval', 'source', '.']);
export const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'pwsh', 'powershell']);
const MAX_DEPTH = 3;

export function commandName(word: string): string {
  return (word.split(/[\\/]/).pop() ?? word).toLowerCase().replace(/\.exe$/, '');
}

function simpleCommand(segment: ParseEntry[], cd: string[] | null): SimpleCommand | null {
  const words: string[] = [];
  const redirects: SimpleCommand['redirects'] = [];
  for (let i = 0; i < segment.length; i += 1) {
    const entry = segment[i];
    if (typeof entry === 'string') words.push(entry);
    // A word with a glob (`isdlc.cj?`) comes as its pattern: kept as written, for rules that must not miss it.
    else if (entry && typeof entry === 'object' && 'op' in entry && entry.op === 'glob' && 'pattern' in entry) words.push(String(entry.pattern));
    else if (entry && typeof entry === 'object' && 'op' in entry && (entry.op === '>&' || entry.op === '<&')) {
      // `2>&1`: one descriptor made a copy of another; no file is named, and neither number is an argument.
      // `>& file` (bash: both outputs into the file) names one.
      const before = segment[i - 1];
      if (typeof before === 'string' && /^\d$/.test(before) && words[words.length - 1] === before) words.pop();
      const target = segment[i + 1];
      if (typeof target === 'string' && !/^(?:\d|-)$/.test(target) && entry.op === '>&') redirects.push({ op: entry.op, target });
      if (typeof target === 'string') i += 1;
    } else if (entry && typeof entry === 'object' && 'op' in entry && REDIRECTS.has(entry.op)) {
      // `2>/dev/null` comes as the word `2` and then the operator: a descriptor, not an argument.
      const before = segment[i - 1];
      if (typeof before === 'string' && /^\d$/.test(before) && words[words.length - 1] === before) words.pop();
      const target = segment[i + 1];
      if (typeof target === 'string') redirects.push({ op: entry.op, target });
      i += 1;
    }
  }
  let start = 0;
  while (start < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!) || PREFIX_COMMANDS.has(words[start]!))) start += 1;
  if (start >= words.length) return redirects.length > 0 ? { name: '', word: '', args: [], redirects, cd } : null;
  return { name: commandName(words[start]!), word: words[start]!, args: words.slice(start + 1), redirects, cd };
}

let shellQuote: typeof ShellQuote | undefined;

/** The parser ships as its own file, loaded on first use: most command lines never need it. */
function parse(line: string, env: (name: string) => string): ParseEntry[] {
  shellQuote ??= require('shell-quote') as typeof ShellQuote;
  return shellQuote.parse(line, env);
}

/** A word the shell still expands: it is not yet the folder it names. */
const EXPANDS = /[$`~*?[\]{}]/;

/** Where `cd ARGS` (or `pushd`) goes from `dirs`, or null when the hook cannot tell. */
function cdTarget(args: string[], dirs: string[] | null): string[] | null {
  const operands = args.filter((word) => word !== '-L' && word !== '--');
  if (operands.length !== 1) return null; // `cd` alone goes home; options like -P read the links
  const target = operands[0]!;
  if (target === '-' || target.startsWith('-') || EXPANDS.test(target)) return null;
  if (target.startsWith('/') || /^[A-Za-z]:[\\/]/.test(target)) return [target];
  return dirs === null ? null : [...dirs, target];
}

/** Command substitutions `$(...)` and `` `...` `` anywhere in the line, quoted or not: their commands run too. */
const SUBSTITUTION = /\$\(((?:[^()]|\([^()]*\))*)\)|`([^`]*)`/g;

function collect(line: string, found: SimpleCommand[], depth: number, powershell: boolean, start: string[] | null): void {
  // PowerShell paths use backslashes, which a POSIX shell would read as escapes.
  const entries = parse(powershell ? line.replace(/\\/g, '/') : line, (name) => `$${name}`);
  let dirs = start;
  // Whether a `cd` since the last `;` moved the folder: if it failed, what follows `;` or `||` runs where the line began.
  let moved = false;
  let afterPipe = false;
  const groups: { dirs: string[] | null; moved: boolean }[] = [];
  let segment: ParseEntry[] = [];
  const flush = (op: string | undefined): void => {
    const command = simpleCommand(segment, dirs);
    segment = [];
    const pipedFrom = afterPipe;
    afterPipe = op === '|' || op === '|&';
    if (command) {
      found.push(command);
      const flag = command.args.findIndex((word) => /^-(?:c|Command)$/i.test(word));
      const script = flag >= 0 ? command.args[flag + 1] : undefined;
      if (SHELLS.has(command.name) && script && depth < MAX_DEPTH)
        collect(script, found, depth + 1, command.name.includes('powershell') || command.name === 'pwsh', command.cd);
      if (EVALUATORS.has(command.name)) {
        if (command.name === 'eval' && depth < MAX_DEPTH) collect(command.args.join(' '), found, depth + 1, powershell, command.cd);
        dirs = null; // what it ran may have changed the folder
      } else if ((command.name === 'cd' || command.name === 'pushd' || command.name === 'popd') && !pipedFrom && !afterPipe && op !== '&') {
        // Only a `cd` whose failure stops what follows (`cd x && ...`) says where the next command runs.
        dirs = op === '&&' && command.name !== 'popd' ? cdTarget(command.args, dirs) : null;
        moved = true;
      }
    }
    if (op === '(') groups.push({ dirs, moved });
    else if (op === ')') ({ dirs, moved } = groups.pop() ?? { dirs: null, moved: true });
    else if (op !== undefined && op !== '&&' && op !== '|' && op !== '|&' && moved) {
      dirs = null;
      moved = false;
    }
  };
  for (const entry of entries) {
    if (typeof entry === 'object' && 'op' in entry && SEPARATORS.has(entry.op)) flush(entry.op);
    else if (typeof entry === 'object' && 'comment' in entry) break;
    else segment.push(entry);
  }
  flush(undefined);
  if (depth < MAX_DEPTH) {
    for (const match of line.matchAll(SUBSTITUTION)) {
      const inner = match[1] ?? match[2] ?? '';
      if (inner.trim() !== '') collect(inner, found, depth + 1, powershell, start);
    }
  }
}

/** The simple commands of a command line, nested shells included; [] when it cannot be parsed. */
export function simpleCommands(line: string, options: { powershell?: boolean } = {}): SimpleCommand[] {
  const found: SimpleCommand[] = [];
  try {
    collect(line, found, 0, options.powershell === true, []);
  } catch {
    return [];
  }
  return found;
}
