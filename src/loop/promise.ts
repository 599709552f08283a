// Completion promises: `<promise>TEXT</promise>` in the agent's final message. Only a promise the agent
// makes counts, not one it mentions: tags inside code (fenced blocks, inline code spans), HTML comments,
// blockquote lines, quotation marks or after a backslash are not promises. Tag and text are
// case-sensitive; whitespace inside the text is not significant. BLOCKED beats COMPLETE.

export interface PromiseTexts {
  complete: string[];
  blocked: string[];
}

export interface DetectedPromise {
  signal: 'COMPLETE' | 'BLOCKED';
  /** The configured text that was promised, whitespace-normalised (`COMPLETE`). */
  promise: string;
  /** For BLOCKED: what followed the tag (`Reason: ...`), trimmed, at most 500 characters. */
  reason?: string;
}

export const DEFAULT_PROMISES: Readonly<PromiseTexts> = Object.freeze({
  complete: Object.freeze(['COMPLETE']) as string[],
  blocked: Object.freeze(['BLOCKED']) as string[],
});

const BLOCKED = 'BLOCKED';
const MAX_REASON = 500;
/** Characters that, right before or after a tag, quote it rather than make it. */
const QUOTES = new Set(['"', "'", '\u201c', '\u201d', '\u2018', '\u2019', '\u201e', '\u00ab', '\u00bb', '\u2039', '\u203a']);

/** Trimmed, every run of whitespace one space. */
export function normalizePromiseText(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/**
 * The configured form (`"<promise>COMPLETE</promise>"`, or a bare text such as `"DONE"`) as
 * texts to look for. `BLOCKED` is a blocked promise, any other text a completion; BLOCKED is always
 * looked for, and COMPLETE when nothing else would complete.
 */
export function promiseTexts(configured: readonly string[]): PromiseTexts {
  const complete: string[] = [];
  const blocked: string[] = [BLOCKED];
  for (const entry of configured) {
    const tagged = /^\s*<promise>([\s\S]*)<\/promise>\s*$/.exec(entry);
    const text = normalizePromiseText(tagged ? (tagged[1] ?? '') : entry);
    if (text === '') continue;
    const into = text === BLOCKED ? blocked : complete;
    if (!into.includes(text)) into.push(text);
  }
  return { complete: complete.length > 0 ? complete : [...DEFAULT_PROMISES.complete], blocked };
}

/** Blanks `chars` from `start` to `end`, keeping line breaks (so offsets and lines stay where they were). */
function blank(chars: string[], start: number, end: number): void {
  for (let i = start; i < end; i++) if (chars[i] !== '\n') chars[i] = ' ';
}

/**
 * The message with everything that is not the agent's own prose blanked out: fenced code blocks (an
 * unclosed fence runs to the end), blockquote lines, HTML comments and inline code spans.
 */
export function proseOnly(message: string): string {
  // One slot per UTF-16 unit, so offsets match the message's; a blanked range never starts or ends inside a
  // surrogate pair, since every marker is ASCII.
  const text = message.replace(/\r/g, ' ');
  const chars = text.split('');

  // Block level, line by line: fences and blockquotes.
  let fence: { char: string; length: number } | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (fence) {
      blank(chars, start, start + line.length);
      const close = /^\s*(`+|~+)\s*$/.exec(line)?.[1];
      if (close && close[0] === fence.char && close.length >= fence.length) fence = undefined;
      continue;
    }
    const open = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (open && !(open[1]?.startsWith('`') && open[2]?.includes('`'))) {
      fence = { char: open[1]?.[0] ?? '`', length: open[1]?.length ?? 3 };
      blank(chars, start, start + line.length);
      continue;
    }
    if (/^\s*>/.test(line)) blank(chars, start, start + line.length);
  }

  // Inline: HTML comments and code spans, whichever starts first. A code span closes with a run of as
  // many backticks, within its paragraph; an unmatched run is literal. An unclosed comment runs to the end.
  const blocked = chars.join('');
  let i = 0;
  while (i < blocked.length) {
    if (blocked.startsWith('<!--', i)) {
      const close = blocked.indexOf('-->', i + 4);
      const end = close < 0 ? blocked.length : close + 3;
      blank(chars, i, end);
      i = end;
      continue;
    }
    if (blocked[i] === '`') {
      let run = 1;
      while (blocked[i + run] === '`') run++;
      const paragraphEnd = /\n[ \t]*\n/g;
      paragraphEnd.lastIndex = i;
      const limit = paragraphEnd.exec(blocked)?.index ?? blocked.length;
      const closing = new RegExp(`(?<!\`)\`{${run}}(?!\`)`, 'g');
      closing.lastIndex = i + run;
      const found = closing.exec(blocked);
      if (found && found.index < limit) {
        const end = found.index + run;
        blank(chars, i, end);
        i = end;
      } else {
        i += run;
      }
      continue;
    }
    i++;
  }
  return chars.join('');
}

/**
 * Why the agent is blocked: what follows the tag (`Reason: ...`), else the paragraph just before it
 * ("I cannot reach the staging database.\n<promise>BLOCKED</promise>"), at most MAX_REASON characters.
 */
function blockedReason(message: string, start: number, end: number): string {
  let text = message.slice(end).trim();
  if (text === '')
    text =
      message
        .slice(0, start)
        .trim()
        .split(/\n[ \t]*\n/)
        .at(-1)
        ?.trim() ?? '';
  const chars = Array.from(text);
  return chars.length > MAX_REASON
    ? `${chars
        .slice(0, MAX_REASON - 1)
        .join('')
        .trimEnd()}…`
    : text;
}

/** A tag whose text holds no other promise tag, with at most 300 characters of text. */
const TAG = /<promise>((?:(?!<\/?promise>)[\s\S]){0,300}?)<\/promise>/g;

/** The promise the agent made in `message`, if any; BLOCKED wins over COMPLETE. */
export function detectPromise(message: string, promises: PromiseTexts = DEFAULT_PROMISES): DetectedPromise | undefined {
  const complete = new Set(promises.complete.map(normalizePromiseText).filter((text) => text !== ''));
  const blocked = new Set(promises.blocked.map(normalizePromiseText).filter((text) => text !== ''));
  const prose = proseOnly(message);

  let completion: DetectedPromise | undefined;
  for (const match of prose.matchAll(TAG)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = message[start - 1] ?? '';
    const after = message[end] ?? '';
    if (before === '\\' || QUOTES.has(before) || QUOTES.has(after)) continue;
    const text = normalizePromiseText(match[1] ?? '');
    if (blocked.has(text)) {
      const reason = blockedReason(message, start, end);
      return { signal: 'BLOCKED', promise: text, ...(reason !== '' ? { reason } : {}) };
    }
    if (!completion && complete.has(text)) completion = { signal: 'COMPLETE', promise: text };
  }
  return completion;
}
