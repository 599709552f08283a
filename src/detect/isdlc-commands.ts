// The isdlc commands a shell command line runs, read as the commands it runs (shell-words): the program at a
// command's place, or given to another program as a word of its own (`npx isdlc`, `node .isdlc/bin/isdlc.cjs`,
// `timeout 5 isdlc`, `find -exec isdlc`), in `bash -c`, `eval` and `$(...)` too. A sentence that only
// mentions one inside a quoted argument (an echo into notes, a commit message, a grep) runs nothing.
import { splitCommandLine } from './shell-commands.js';
import { commandName, simpleCommands } from './shell-words.js';

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

/** Each isdlc run of the line (`isdlc phase skip --reason x`). */
export function isdlcRunsIn(line: string, options: { powershell?: boolean } = {}): IsdlcRun[] {
  if (!/isdlc|cli\.cjs/i.test(line)) return [];
  const commands = simpleCommands(line, options);
  // A line the parser cannot read is taken as written, a part at a time.
  if (commands.length === 0) {
    const started = /(?:^|[\s/"'])(?:isdlc(?:\.cjs)?|cli\.cjs)["']?\s+/;
    return splitCommandLine(line)
      .map((part) => part.text)
      .filter((text) => started.test(text))
      .map((text) => ({ run: `isdlc ${text.split(started).slice(1).join(' ')}`, command: text }));
  }
  const runs: IsdlcRun[] = [];
  for (const command of commands) {
    const words = [command.word, ...command.args];
    const at = words.findIndex(isIsdlcProgram);
    const strip = (text: string): string => text.replace(/^[`(]+|[`)]+$/g, '');
    if (at >= 0) runs.push({ run: strip(['isdlc', ...words.slice(at + 1)].join(' ')), command: strip(words.join(' ')) });
  }
  return runs;
}
