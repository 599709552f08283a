// The folders above what the Codex profile holds, which the profile names too. A path it holds read-only is a
// mount in Codex's sandbox, and a mount cannot be renamed, but the folders above it can: renamed aside (`mv
// docs docs-aside`), they take the held file with them, and a new folder in their place holds whatever the
// agent writes there (a constitution of its own). The same goes for the folders above the project when it
// lies inside a temp folder Codex lets the agent write (`/tmp`, `$TMPDIR`): its parent renamed aside and a
// copy of the project put at the old path, every guarded file of the copy is the agent's, and Codex, its
// hooks and isdlc go on at the old path.
//
// Inside the project such a folder is the agents' work (`docs/`, and `.git/` but for its config and hooks): it is pinned, named writable although it
// is writable already, which makes it a mount of its own that keeps its place, everything in it as writable
// as it was. Above the project the topmost parent inside the temp folder is held read-only, as everything
// above a project elsewhere is: the project stays writable as Codex's workspace root, and a session started
// in a subfolder cannot reach the project's files through the temp folder either. Codex removes the mount
// points it makes when a command ends (not those of a command still running when the session ends).
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/**
 * Folders Codex holds read-only itself in every writable root: named writable, they would open. `.git` is
 * not among them here: named writable (pinned), with its config and hooks held, it lets the agent commit as
 * it does under Claude Code, where Codex's workspace profile alone refuses every commit.
 */
const CODEX_HELD = new Set(['.codex', '.agents']);

/**
 * The folders (relative to the project, `/`-separated) above the paths the profile holds read-only, to pin:
 * all but those held themselves, those inside a held one, and Codex's own.
 */
export function foldersAboveHeld(readOnly: readonly string[]): string[] {
  const held = (path: string): boolean => readOnly.some((point) => path === point || path.startsWith(`${point}/`));
  const pinned = new Set<string>();
  for (const point of readOnly) {
    const parts = point.split('/');
    if (CODEX_HELD.has(parts[0]!)) continue;
    for (let end = 1; end < parts.length; end += 1) {
      const folder = parts.slice(0, end).join('/');
      if (!held(folder)) pinned.add(folder);
    }
  }
  return [...pinned].sort();
}

/** For each temp folder that holds the project deeper than directly, the project's topmost parent inside it. */
export function parentsAboveProject(root: string, tempFolders: readonly string[]): string[] {
  const held = new Set<string>();
  for (const temp of tempFolders) {
    const rel = relative(temp, root);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    const parts = rel.split(sep);
    // Directly inside the temp folder the project is a mount of its own (the workspace root): nothing above to rename.
    if (parts.length < 2) continue;
    const top = `${temp === sep ? '' : temp}${sep}${parts[0]}`;
    // Another temp folder is writable on purpose (and, a mount of Codex's, cannot be renamed).
    if (!tempFolders.includes(top)) held.add(top);
  }
  return [...held].sort();
}

function real(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The temp folders Codex's `:workspace` profile makes writable, as real paths: `/tmp` and `$TMPDIR`. */
export function codexTempFolders(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...new Set([real('/tmp'), real(env['TMPDIR'])].filter((path): path is string => path !== undefined))];
}
