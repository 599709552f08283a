import { lstatSync, readFileSync, statSync } from 'node:fs';

/**
 * A file's text, or undefined when it does not exist; any other failure is thrown. Most optional files
 * are absent, so absence is asked with a stat that does not throw (an exception per missing file adds up
 * on the hook's hot path).
 */
export function readTextIfPresent(path: string): string | undefined {
  if (!statSync(path, { throwIfNoEntry: false })) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The same, but a file that is there and cannot be read is undefined too (a git ref, a branch-head record). */
export function readTextQuietly(path: string): string | undefined {
  if (!statSync(path, { throwIfNoEntry: false })) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether anything is at `path` (a link counts as itself, even one that points nowhere). */
export function somethingAt(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
