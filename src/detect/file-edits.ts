// What a Write or Edit tool call would leave in a file: judged before the tool runs, from the file's
// text now. An Edit replaces `old_string` once (all with `replace_all`); MultiEdit applies a
// list of such edits in order.
import { readFileSync } from 'node:fs';
import type { HookEvent } from '../events/hook-event.js';

/** A file's text, or null when it cannot be read (absent, a folder, no permission). */
export function readTextOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The file's text after the Write or Edit, or null when the tool would fail anyway (nothing to judge). */
export function textAfterEdit(event: HookEvent, before: string): string | null {
  const input = event.tool!.input;
  if (event.tool!.kind === 'write') return typeof input['content'] === 'string' ? input['content'] : null;
  const edits = Array.isArray(input['edits']) ? (input['edits'] as Record<string, unknown>[]) : [input];
  let text = before;
  for (const edit of edits) {
    const from = edit['old_string'];
    const to = edit['new_string'];
    if (typeof from !== 'string' || typeof to !== 'string' || from === '' || !text.includes(from)) return null;
    text = edit['replace_all'] === true ? text.split(from).join(to) : text.replace(from, () => to);
  }
  return text;
}
