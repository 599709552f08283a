// `git commit` in a shell command line, wherever it runs: chained, piped, in a subshell, inside
// `bash -c`, after `cd` or `git -C dir`. Not `git commit-tree`, not the words inside an echoed string.
import { simpleCommands } from './shell-words.js';

export interface GitCommit {
  /** The folder git was pointed at with `-C`, when it was. */
  dir?: string;
  amend: boolean;
}

/** Global options that take a value as the next word. */
const OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

export function gitCommitsIn(line: string, options: { powershell?: boolean } = {}): GitCommit[] {
  if (!/\bcommit\b/.test(line)) return [];
  const found: GitCommit[] = [];
  for (const command of simpleCommands(line, options)) {
    if (command.name !== 'git') continue;
    let dir: string | undefined;
    let i = 0;
    while (i < command.args.length && command.args[i]!.startsWith('-')) {
      const option = command.args[i]!;
      if (option === '-C') dir = command.args[i + 1];
      i += OPTIONS_WITH_VALUE.has(option) ? 2 : 1;
    }
    if (command.args[i] !== 'commit') continue;
    found.push({ ...(dir ? { dir } : {}), amend: command.args.slice(i + 1).includes('--amend') });
  }
  return found;
}
