// Codex's apply_patch tool takes one text naming every file it touches: `*** Add File: p`, `*** Delete File:
// p`, `*** Update File: p` (optionally followed by `*** Move to: q`), between `*** Begin Patch` and `*** End
// Patch`. The files are what the guards judge; the hunks are not needed for that.

export interface PatchedFile {
  action: 'add' | 'delete' | 'update';
  path: string;
  /** An update that also renames the file. */
  moveTo?: string;
}

const HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;
const MOVE = /^\*\*\* Move to: (.+)$/;

/** The files a patch names, in order; a patch Codex would reject still names what it tried to touch. */
export function patchedFiles(patch: string): PatchedFile[] {
  const files: PatchedFile[] = [];
  for (const raw of patch.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const header = HEADER.exec(line);
    if (header) {
      files.push({ action: header[1]!.toLowerCase() as PatchedFile['action'], path: header[2]!.trim() });
      continue;
    }
    const move = MOVE.exec(line);
    const last = files.at(-1);
    if (move && last?.action === 'update') last.moveTo = move[1]!.trim();
  }
  return files;
}

/** Every path a patch writes, removes, or moves from or to. */
export function patchPaths(patch: string): string[] {
  return [...new Set(patchedFiles(patch).flatMap((file) => (file.moveTo ? [file.path, file.moveTo] : [file.path])))];
}
