// How isdlc runs git outside every sandbox (its hooks, the MCP server, init). git reads configuration from
// the system, the person's home and the repository, and some of it names programs git then runs: a
// signature checker for `git log` (log.showSignature + gpg.program), a file-system monitor, hooks, a pager,
// an external diff. An agent's code can write the home's config (a test during a run, a loop rule) and the
// repository's, so a `git log` of isdlc's would run the agent's program with the person's rights. isdlc's
// git reads no system or global config, takes none from the environment, and is told to run none of those
// programs whatever the repository's config says; it also ignores replacement objects, which could show a
// history that is not there. And the git it runs is the system's, not the first one on PATH (a folder of
// the project's on PATH could hold a `git` of the agent's).
import { trustedProgram } from '../util/program-path.js';

let found: { root: string; program: string } | undefined;

/** The git isdlc runs for the project at `root`: from the system's folders, else a PATH folder no agent can fill. */
export function gitProgram(root: string): string {
  if (found?.root !== root) found = { root, program: trustedProgram('git', root) ?? 'git' };
  return found.program;
}

/** Overrides for every setting that makes the commands isdlc runs start a program of the config's choosing. */
const NO_PROGRAMS = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'log.showSignature=false',
  'gpg.program=false',
  'gpg.ssh.program=false',
  'gpg.x509.program=false',
  'diff.external=',
  // Only the command line may say this: a repository another user owns is still read (its programs are not run).
  'safe.directory=*',
];

/** git's arguments for `args` in `dir`, with the overrides in front. */
export function cleanGitArgs(dir: string, args: readonly string[]): string[] {
  return ['--no-replace-objects', '--no-pager', ...NO_PROGRAMS.flatMap((setting) => ['-c', setting]), '-C', dir, ...args];
}

/** The environment for isdlc's git: the caller's without git's own variables, and no system or global config. */
export function cleanGitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (!/^GIT_/i.test(key) && key !== 'PAGER') out[key] = value;
  out['GIT_CONFIG_NOSYSTEM'] = '1';
  out['GIT_CONFIG_GLOBAL'] = '/dev/null';
  out['GIT_TERMINAL_PROMPT'] = '0';
  // Reading commands must not take the index lock or write it back (the agent's git may be running).
  out['GIT_OPTIONAL_LOCKS'] = '0';
  return out;
}
