// `.isdlc/hook-activity.log`: one JSON line per hook decision, kept under a size bound by rotating to
// `hook-activity.log.1` (one older generation is kept).
import { appendFileSync, closeSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ACTIVITY_LOG = 'hook-activity.log';
export const ACTIVITY_LOG_MAX_BYTES = 1024 * 1024;

/** Long texts (10 MB of bad input, say) are cut so one line cannot blow the bound. */
const FIELD_LIMIT = 2000;

function cut(value: unknown): unknown {
  if (typeof value === 'string' && value.length > FIELD_LIMIT) {
    return `${value.slice(0, FIELD_LIMIT)}… [${value.length - FIELD_LIMIT} more characters]`;
  }
  if (Array.isArray(value)) return value.map(cut);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, cut(inner)]));
  }
  return value;
}

export function appendActivity(isdlcDir: string, entry: Record<string, unknown>, maxBytes = ACTIVITY_LOG_MAX_BYTES): void {
  const file = join(isdlcDir, ACTIVITY_LOG);
  const line = `${JSON.stringify(cut(entry))}\n`;
  try {
    if (statSync(file).size + line.length > maxBytes) renameSync(file, `${file}.1`);
  } catch {
    // no log yet, or another process rotated it a moment ago
  }
  appendFileSync(file, line);
}

/**
 * The entries among the last `tailBytes` of the log whose line contains `needle`, oldest first: a cheap look
 * back at what the hooks decided for one session. What rotated away is not seen.
 */
export function recentActivity(isdlcDir: string, needle: string, tailBytes: number): Record<string, unknown>[] {
  let text: string;
  try {
    const file = join(isdlcDir, ACTIVITY_LOG);
    const size = statSync(file).size;
    const length = Math.min(size, tailBytes);
    const buffer = Buffer.alloc(length);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
    text = buffer.toString('utf8');
  } catch {
    return [];
  }
  const entries: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{') || !line.includes(needle)) continue;
    try {
      entries.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // the line the tail began in the middle of, or one another process was still writing
    }
  }
  return entries;
}
