// `.isdlc/hook-activity.log`: one JSON line per hook decision, kept under a size bound by rotating to
// `hook-activity.log.1` (one older generation is kept).
import { appendFileSync, renameSync, statSync } from 'node:fs';
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
