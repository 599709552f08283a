// What the command modules share: output, errors, and finding the project a command works on.
import { Option } from 'commander';
import { resolve } from 'node:path';
import { CONFIG_DIRS } from '../hosts/hook-hosts.js';
import { agentShellHost, projectDirFromEnv } from '../hosts/index.js';
import { findProjectRoot, locateState, type StateLocation } from '../state/locate.js';

/** Bad usage or context: printed without a stack, exit 2. */
export class UsageError extends Error {}

export const io = {
  out: (text: string): void => void process.stdout.write(text),
  err: (text: string): void => void process.stderr.write(text),
};

export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export interface LocationOptions {
  dir?: string;
  project?: string;
}

/** The project a command works on: --dir, else the host's project dir, else the nearest `.isdlc/` above. */
export function projectLocation(options: LocationOptions): StateLocation {
  const env = { ...process.env, ...(options.project ? { ISDLC_PROJECT: options.project } : {}) };
  const root = options.dir ? resolve(options.dir) : findProjectRoot({ hostProjectDir: projectDirFromEnv(env), cwd: process.cwd() });
  if (!root) throw new UsageError('not inside an isdlc project (no .isdlc/ here or above): run `isdlc init` or pass --dir');
  const location = locateState(root, { env, cwd: options.dir ? root : process.cwd(), configDirs: CONFIG_DIRS });
  if (location.warning) io.err(`isdlc: ${location.warning}\n`);
  return location;
}

/**
 * The folder of a command that also takes it as an argument (`init`, `uninstall`, `doctor`): the argument
 * or `--dir`, the current folder without either, and a usage error when both name different folders.
 */
export function folderArgument(argument: string | undefined, dir: string | undefined): string {
  if (argument !== undefined && dir !== undefined && resolve(argument) !== resolve(dir))
    throw new UsageError(`the project directory is given twice, as ${argument} and as --dir ${dir}: give one`);
  return resolve(dir ?? argument ?? '.');
}

/** `--dir` for a command whose folder is also its argument, and the current folder by default. */
export const folderOption = (): Option => new Option('-d, --dir <dir>', 'project directory, the same as the [dir] argument (default: the current one)');

export const dirOption = (): Option => new Option('-d, --dir <dir>', 'project directory (default: the nearest one with .isdlc/)');
export const projectOption = (): Option => new Option('-p, --project <id>', 'monorepo project id (default: ISDLC_PROJECT, then the current directory)');

/**
 * Some decisions belong to a person. Inside an agent host's shell tool the host says so in the environment
 * (Host.shellMarkers): that is an agent, or a person typing through the agent, and either way
 * not a decision taken outside it.
 */
export function refuseInsideAgent(what: string): void {
  if (agentShellHost(process.env)) {
    throw new UsageError(`${what} is a decision for a person: run it in your own terminal, not through the agent`);
  }
}

/** Who reads this command's words: the agent, when it runs in an agent host's shell, else a person. */
export function readerHere(): 'agent' | 'person' {
  return agentShellHost(process.env) ? 'agent' : 'person';
}
