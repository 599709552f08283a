// Where a program comes from. isdlc's hooks start `node` by name and isdlc starts git, outside every
// sandbox with the person's rights: a program an agent's code put into a folder it can write (the project's
// node_modules/.bin on PATH, a temp folder) would run as the person. These say which file a name resolves
// to and whether its folder is one an agent could have filled.
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';

/** The first executable `name` on `path` (a PATH value), as a shell would find it, or undefined. */
export function firstOnPath(name: string, path: string | undefined): string | undefined {
  for (const folder of (path ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The temp folders of this machine and of `env`. */
export function tempFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  return [tmpdir(), env['TMPDIR'], '/tmp', '/var/tmp'].filter((dir): dir is string => typeof dir === 'string' && dir !== '');
}

/** A folder the agent could have filled: relative (it follows the working folder), inside the project, or in a temp folder. */
export function agentWritableFolder(folder: string, root: string, temps: readonly string[]): boolean {
  if (!isAbsolute(folder)) return true;
  const inside = (base: string) => {
    const rel = relative(resolve(base), resolve(folder));
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
  };
  return inside(root) || temps.some(inside);
}

/** The system's own folders for programs, searched before PATH where isdlc picks a program itself. */
export const SYSTEM_FOLDERS: readonly string[] = ['/usr/bin', '/bin', '/usr/local/bin', '/opt/homebrew/bin'];

/** `name` from the system's folders, else from PATH's absolute folders an agent could not have filled. */
export function trustedProgram(name: string, root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const temps = tempFolders(env);
  const folders = [...SYSTEM_FOLDERS, ...(env['PATH'] ?? '').split(delimiter).filter((folder) => folder !== '' && !agentWritableFolder(folder, root, temps))];
  return firstOnPath(name, folders.join(delimiter));
}
