// The isdlc commands a shell command line runs, read as the commands it runs (shell-words): the program at a
// command's place, or given to another program as a word of its own (`npx isdlc`, `node .isdlc/bin/isdlc.cjs`,
// `timeout 5 isdlc`, `find -exec isdlc`), in `bash -c`, `eval` and `$(...)` too. A sentence that only
// mentions one inside a quoted argument (an echo into notes, a commit message, a grep) runs nothing.
import { splitCommandLine } from './shell-commands.js';
import { commandName, simpleCommands, SHELLS, type SimpleCommand } from './shell-words.js';

/** The names isdlc is started by: the bin, the installed executable, the CLI bundle (`isdlc@1.2` by npx). */
function isIsdlcProgram(word: string): boolean {
  if (/\s/.test(word)) return false;
  const name = commandName(word.replace(/^[`"'(]+/, '')).replace(/@[^@/]*$/, '');
  return name === 'isdlc' || name === 'isdlc.cjs' || name === 'cli.cjs';
}

export interface IsdlcRun {
  /** `isdlc` and the words after it, however it was started: what rules match. */
  run: string;
  /** The command as written (`node .isdlc/bin/isdlc.cjs phase skip`), for messages. */
  command: string;
}

/**
 * A line that runs text it was given as data: a shell reading its commands from a pipe or a heredoc
 * (`echo "..." | sh`, `bash -s`), eval or source, xargs, an alias, or a variable used as the command. In such
 * a line a mention may be run, so every mention counts.
 */
function runsText(commands: SimpleCommand[]): boolean {
  return commands.some((command) => {
    if (['eval', 'source', '.', 'alias'].includes(command.name) || command.word.startsWith('$')) return true;
    if (!SHELLS.has(command.name)) return false;
    // A shell with neither -c nor a script file (or with -s) reads its commands from stdin.
    if (command.args.some((word) => /^-(?:c|Command)$/i.test(word))) return false;
    return command.args.includes('-s') || !command.args.some((word) => !word.startsWith('-'));
  });
}

/**
 * Programs that do nothing with an argument but print, search or store it: a mention of isdlc in their
 * arguments is text. Any other program given such text (`timeout 9 sh -c '…'`, `find -exec`, `python3 -c`,
 * `git -c alias.x='!…'`, `script -c`, `watch`) may run it, so there the mention counts as a run.
 */
const INERT = new Set([
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'cat',
  'head',
  'tail',
  'wc',
  'sort',
  'uniq',
  'less',
  'more',
  'jq',
  'tee',
  'touch',
  'mkdir',
  'ls',
  'true',
  ':',
  'write-output',
  'write-host',
  'select-string',
]);
/** git subcommands that only store or show text (a commit message, a tag, a search). */
const INERT_GIT = new Set(['commit', 'log', 'tag', 'notes', 'show', 'grep', 'diff', 'stash', 'status', 'add']);

/** git's options before the subcommand that only say where or how to show: `-C sub`, `--no-pager`. Never `-c`. */
const GIT_PLACE_OPTIONS = new Set(['-C', '--git-dir', '--work-tree', '--namespace']);
const GIT_FLAG_OPTIONS = new Set(['--no-pager', '-P', '--no-replace-objects', '--bare', '--literal-pathspecs', '--no-optional-locks']);

/** The git subcommand after options that only say where (`git -C sub commit`), or undefined past any other option. */
function gitSubcommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (GIT_PLACE_OPTIONS.has(word)) i += 1;
    else if (GIT_FLAG_OPTIONS.has(word) || /^--(?:git-dir|work-tree|namespace)=/.test(word)) continue;
    // `git -c alias.x='!…' x` runs what its options say, and so may any option not known here.
    else return word.startsWith('-') ? undefined : word;
  }
  return undefined;
}

/** Interpreters and the option that takes a program as text. */
const INLINE_CODE: Readonly<Record<string, readonly string[]>> = {
  python: ['-c'],
  python3: ['-c'],
  python2: ['-c'],
  node: ['-e', '-p', '--eval', '--print'],
  nodejs: ['-e', '-p', '--eval', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
};
/**
 * A program that only prints text: print calls of plain string literals. A literal with `{ } $ @ #`, a
 * backquote or a backslash other than `\n` and `\t` is not plain (f-strings, template literals and Perl's and Ruby's interpolation run code).
 */
const ONLY_PRINTS = /^(?:\s*(?:print|console\.(?:log|error)|puts|say)\s*\(?\s*(?:S(?:\s*,\s*S)*)?\s*\)?\s*;?\s*)+$/;
const PLAIN_LITERAL = /'(?:[^'{}$@#\\`\n]|\\[nt])*'|"(?:[^"{}$@#\\`\n]|\\[nt])*"/g;

/** `python3 -c "print('isdlc phase skip')"`: the text is printed, never run. */
function onlyPrints(command: SimpleCommand): boolean {
  const flags = INLINE_CODE[command.name];
  if (!flags || command.args.length !== 2 || !flags.includes(command.args[0]!)) return false;
  const code = command.args[1]!;
  if (/\bS\b/.test(code)) return false; // the placeholder below must stand for literals only
  return ONLY_PRINTS.test(code.replace(PLAIN_LITERAL, 'S'));
}

function isInert(command: SimpleCommand): boolean {
  if (INERT.has(command.name) || onlyPrints(command)) return true;
  if (command.name !== 'git') return false;
  return INERT_GIT.has(gitSubcommand(command.args) ?? '');
}

/** Where a word holds `isdlc …` (or `….cjs …`) inside its text: the words from there, as a run would read. */
const MENTION = /(?:^|[\s/"'`;&|(=!])(?:isdlc(?:\.cjs)?|cli\.cjs)["']?\s+([\s\S]*)$/;
/** A program word the shell fills in (a variable, a glob): what it runs cannot be read from the text. */
const UNREADABLE = /[$*?[\]`]/;

/** The runs of isdlc a command may make from text it was given rather than from its own place. */
function runsFromText(command: SimpleCommand): IsdlcRun[] {
  if (isInert(command)) return [];
  const runs: IsdlcRun[] = [];
  const words = [command.word, ...command.args];
  for (const word of command.args) {
    const found = MENTION.exec(word);
    if (found && !isIsdlcProgram(word)) runs.push({ run: `isdlc ${found[1]!.replace(/["'`)]+\s*$/, '')}`, command: words.join(' ') });
  }
  // `node $I phase skip`, `node .isdlc/bin/isdlc.cj? phase skip`: the words after an unreadable program word.
  words.forEach((word, at) => {
    if (UNREADABLE.test(word) && at + 1 < words.length) runs.push({ run: `isdlc ${words.slice(at + 1).join(' ')}`, command: words.join(' ') });
  });
  return runs;
}

/** Each isdlc run of the line (`isdlc phase skip --reason x`). */
export function isdlcRunsIn(line: string, options: { powershell?: boolean } = {}): IsdlcRun[] {
  // Cheap first: a line naming neither isdlc nor one of the subcommands the rules look for runs none of them.
  if (
    !/isdlc|cli\.cjs|\b(?:phase\s+(?:skip|review|complete|activate)|escalations?\s+approve|loop\s+(?:cancel|approve)|changes\s+(?:accept|reject)|branch\s+acknowledge|tests\s+accept|workflow\s+finalize)\b/i.test(
      line,
    )
  )
    return [];
  const commands = simpleCommands(line, options);
  // A line the parser cannot read, or one that runs text it was given, is taken as written, a part at a time.
  if (commands.length === 0 || runsText(commands)) {
    // A glob in the name (`isdlc.cj?`) is what made the parser give up: it still names the program.
    const started = /(?:^|[\s/"'])(?:isdlc(?:\.[\w?*[\]]+)?|cli\.cjs)["']?\s+/;
    return splitCommandLine(line)
      .map((part) => part.text)
      .filter((text) => started.test(text))
      .map((text) => ({ run: `isdlc ${text.split(started).slice(1).join(' ')}`, command: text }));
  }
  const runs: IsdlcRun[] = commands.flatMap(runsFromText);
  const fedByXargs = /\b(?:xargs|parallel)\b/.test(line);
  commands.forEach((command, index) => {
    const words = [command.word, ...command.args];
    const at = words.findIndex(isIsdlcProgram);
    if (at < 0) return;
    // `echo phase skip | xargs isdlc`: xargs (read as a prefix) adds the words of what is piped in.
    // printf's and echo -e's escapes become the separators xargs splits on.
    const fed = fedByXargs && index > 0 ? commands[index - 1]!.args.map((word) => word.replace(/\\[ntr]/g, ' ')) : [];
    const strip = (text: string): string => text.replace(/^[`(]+|[`)]+$/g, '');
    runs.push({ run: strip(['isdlc', ...words.slice(at + 1), ...fed].join(' ')), command: strip(words.join(' ')) });
  });
  return runs;
}
