// A `.codex/` folder below the project's root: Codex reads the config of every folder from the project down
// to where a session starts, so one planted in `src/` (`sandbox_mode = "danger-full-access"`, `[features]
// hooks = false`) takes the wall and isdlc's hooks away from every session the person starts there, and no
// hook runs in such a session to say so. Only doctor can look for them; it walks the project's folders, not
// those git or a package manager keeps.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const SKIPPED = new Set(['.git', 'node_modules', '.isdlc', '.venv', 'venv', 'target', 'dist', 'build']);
const MAX_FOLDERS = 5000;

/** The `.codex` folders below the root (relative paths), as far as a bounded walk reaches. */
export function nestedCodexFolders(root: string): string[] {
  const found: string[] = [];
  const queue = [root];
  let seen = 0;
  while (queue.length > 0 && seen < MAX_FOLDERS) {
    const folder = queue.shift()!;
    seen += 1;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.isSymbolicLink()) continue;
      const path = join(folder, entry.name);
      if (entry.name === '.codex') {
        if (folder !== root) found.push(relative(root, path));
        continue;
      }
      if (!SKIPPED.has(entry.name)) queue.push(path);
    }
  }
  return found.sort();
}
