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

/** Each isdlc run of the line (`isdlc phase skip --reason x`). */
export function isdlcRunsIn(line: string, options: { powershell?: boolean } = {}): IsdlcRun[] {
  if (!/isdlc|cli\.cjs/i.test(line)) return [];
  const commands = simpleCommands(line, options);
  // A line the parser cannot read, or one that runs text it was given, is taken as written, a part at a time.
  if (commands.length === 0 || runsText(commands)) {
    const started = /(?:^|[\s/"'])(?:isdlc(?:\.cjs)?|cli\.cjs)["']?\s+/;
    return splitCommandLine(line)
      .map((part) => part.text)
      .filter((text) => started.test(text))
      .map((text) => ({ run: `isdlc ${text.split(started).slice(1).join(' ')}`, command: text }));
  }
  const runs: IsdlcRun[] = [];
  const fedByXargs = /\b(?:xargs|parallel)\b/.test(line);
  commands.forEach((command, index) => {
    const words = [command.word, ...command.args];
    const at = words.findIndex(isIsdlcProgram);
    if (at < 0) return;
    // `echo phase skip | xargs isdlc`: xargs (read as a prefix) adds the words of what is piped in.
    const fed = fedByXargs && index > 0 ? commands[index - 1]!.args : [];
    const strip = (text: string): string => text.replace(/^[`(]+|[`)]+$/g, '');
    runs.push({ run: strip(['isdlc', ...words.slice(at + 1), ...fed].join(' ')), command: strip(words.join(' ')) });
  });
  return runs;
}
