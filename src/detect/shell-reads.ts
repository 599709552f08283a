// The files a shell line prints for the agent to read: `cat`, `nl`, `head`, `tail`, `less`, `more`, and `sed`
// printing (not editing in place). A host whose agents have no file-reading tool of their own (Codex reads
// with its shell) shows a review this way; what a command only searches or counts (`grep`, `wc`) is no
// reading of the file. Each path is absolute, from the line's folder and the `cd`s before the command; a
// word the shell would still expand (`$F`, `*.js`) names no file yet and is left out.
import { resolve } from 'node:path';
import { editsInPlace } from './command-switches.js';
import { simpleCommands } from './shell-words.js';

const PRINTERS = new Set(['cat', 'nl', 'head', 'tail', 'less', 'more', 'sed']);
/** Switches of head and tail that take the next word as their value (`-n 20`, `-c 100`). */
const VALUE_SWITCHES = new Set(['-n', '-c', '--lines', '--bytes']);
const EXPANDS = /[$`~*?[\]{}]/;

/** The operands of a printer: the words that name files. */
function operands(name: string, args: readonly string[]): string[] {
  const files: string[] = [];
  let scriptGiven = false;
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (word === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (word.startsWith('-') && word !== '-') {
      if ((name === 'head' || name === 'tail') && VALUE_SWITCHES.has(word)) i += 1;
      if (name === 'sed' && (word === '-e' || word === '-f' || word === '--expression' || word === '--file')) {
        scriptGiven = true;
        i += 1;
      }
      continue;
    }
    // sed's first operand is its script, unless -e or -f gave it.
    if (name === 'sed' && !scriptGiven) {
      scriptGiven = true;
      continue;
    }
    files.push(word);
  }
  return files.filter((file) => file !== '-' && !EXPANDS.test(file));
}

/** The files `line`, run in `cwd`, prints whole or in part; [] when it prints none or cannot be read. */
export function shellReads(line: string, cwd: string): string[] {
  const read = new Set<string>();
  for (const command of simpleCommands(line)) {
    if (!PRINTERS.has(command.name) || command.cd === null) continue;
    if (command.name === 'sed' && editsInPlace('sed', command.args)) continue;
    for (const file of operands(command.name, command.args)) read.add(resolve(cwd, ...command.cd, file));
  }
  return [...read];
}
