// What the project's files hold, as one digest: every file git tracks or would add (the ignored ones left
// out), by path and content. Two test runs with the same digest ran on the same files. isdlc's own folder is
// left out: the hooks write it at every call.
//
// git only lists the files here; isdlc reads and hashes them itself. `git add` or `git status` would run the
// clean filters that the repository's config and attributes name (`filter.<name>.clean`), which an agent can
// write, and this runs in a hook, outside every sandbox. Listing runs no filter.
import type * as ChildProcess from 'node:child_process';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { cleanGitArgs, cleanGitEnv, gitProgram } from './clean-git.js';

const TIMEOUT_MS = 10_000;
/** Past this the digest is not worth its time on a hook call: no digest, and the check it serves says nothing. */
const MAX_FILES = 20_000;

function childProcess(): typeof ChildProcess {
  return process.getBuiltinModule('node:child_process');
}

/** The paths git lists under `root`, tracked or not ignored, isdlc's own folder left out; undefined where git cannot say (no repository, no git). */
export function listedFiles(root: string): string[] | undefined {
  const result = childProcess().spawnSync(
    gitProgram(root),
    cleanGitArgs(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.', ':(exclude).isdlc']),
    {
      encoding: 'utf8',
      env: cleanGitEnv(process.env),
      timeout: TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'ignore'],
      windowsHide: true,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (result.status !== 0) return undefined;
  // A path both tracked and changed is listed once per stage; once is enough.
  return [...new Set(result.stdout.split('\0').filter(Boolean))].sort();
}

/** The digest of the files under `root`, or undefined where git cannot list them. */
export function worktreeDigest(root: string): string | undefined {
  const files = listedFiles(root);
  if (!files || files.length > MAX_FILES) return undefined;
  // Loaded here, not at the top: the hook bundle that holds this module serves every tool result.
  const digest = process.getBuiltinModule('node:crypto').createHash('sha256');
  for (const path of files) {
    const full = join(root, path);
    let kind: string;
    let content: Buffer | string;
    try {
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) [kind, content] = ['link', readlinkSync(full)];
      else if (stat.isFile()) [kind, content] = [stat.mode & 0o111 ? 'exec' : 'file', readFileSync(full)];
      else continue; // a submodule's folder: its own repository
    } catch {
      [kind, content] = ['gone', ''];
    }
    digest.update(`${path}\0${kind}\0${Buffer.byteLength(content)}\0`);
    digest.update(content);
  }
  return digest.digest('hex');
}
