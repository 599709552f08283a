// The person's files as they were before isdlc first changed them (their settings, their MCP server list,
// the repository's exclude file), so that uninstall can give back the very bytes they had, not only the
// same values. Kept beside the journal, in `.isdlc/journal/originals.json`: out of git (a file of the
// person's may hold what they keep out of it), and gone with uninstall.
// Only ever given back where the file, without isdlc's part, holds what the original holds: a copy that
// was changed or is stale can cost the person a layout, never a value.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { journalPath } from '../integrity/journal.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { isRecord } from '../util/json.js';

/** The file's bytes before isdlc's first change, or that there was no file. */
export type Original = { text: string } | { absent: true };

const originalsFile = (root: string): string => journalPath(root, 'originals.json');

function readAll(root: string): Record<string, Original> {
  const file = originalsFile(root);
  if (!existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isRecord(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter(([, value]) => isRecord(value) && (typeof value['text'] === 'string' || value['absent'] === true)),
    ) as Record<string, Original>;
  } catch {
    return {};
  }
}

/** What was kept of the file `name` (a name of the host's: `settings`, `mcp`, `git-exclude`), if anything. */
export function originalOf(root: string, name: string): Original | undefined {
  return readAll(root)[name];
}

/** Keeps `text` (undefined: there is no file) as the original of `name`, unless one is kept already. */
export function keepOriginal(root: string, name: string, text: string | undefined): void {
  const all = readAll(root);
  if (all[name]) return;
  all[name] = text === undefined ? { absent: true } : { text };
  const file = originalsFile(root);
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(all)}\n`);
}

/** The original's text when the file without isdlc's part still holds what it held (`same`), else undefined. */
export function originalIfSame(original: Original | undefined, same: (text: string) => boolean): string | undefined {
  return original && 'text' in original && same(original.text) ? original.text : undefined;
}
