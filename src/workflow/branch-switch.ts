// `workflow start --branch X`: the work happens on X, so the workflow starts there, as the original
// framework's orchestrator made it. isdlc makes X from where HEAD is, or switches to it when it exists, with
// the git it runs everywhere (no hooks, no configured programs: src/detect/clean-git.ts); when git cannot
// (not a repository, a change in the way), the workflow does not start and the reason is said.
import { spawnSync } from 'node:child_process';
import { cleanGitArgs, cleanGitEnv, gitProgram } from '../detect/clean-git.js';
import { checkedOutBranch, findGitDirs, isBranchName, readBranchHeads } from '../detect/git-refs.js';
import { WorkflowError } from './start.js';

export type BranchSwitch = { switched: 'already' | 'created' | 'switched' };

export function switchToBranch(root: string, name: string): BranchSwitch {
  if (!isBranchName(name) || name.startsWith('-')) throw new WorkflowError(`"${name}" is not a branch name git accepts`);
  const dirs = findGitDirs(root);
  if (!dirs) throw new WorkflowError(`--branch ${name} needs a git repository, and ${root} is in none: start without --branch, or run \`git init\` first`);
  if (checkedOutBranch(dirs) === name) return { switched: 'already' };
  const exists = Boolean(readBranchHeads(dirs, [name])[name]);
  const run = spawnSync(gitProgram(root), cleanGitArgs(root, exists ? ['switch', '--quiet', name] : ['switch', '--quiet', '--create', name]), {
    env: cleanGitEnv(process.env),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  if (run.status !== 0) {
    const said = (run.stderr || run.error?.message || `git exited ${run.status ?? run.signal}`).trim().split('\n').slice(0, 3).join(' ');
    throw new WorkflowError(`could not ${exists ? 'switch to' : 'create'} branch ${name} (${said}); the workflow did not start`);
  }
  return { switched: exists ? 'switched' : 'created' };
}
