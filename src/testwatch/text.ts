// Terminal output as text to reason about: colour codes and carriage returns removed, and only the tail
// kept (summaries are printed last; a 1 MB log is not read whole).

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export const TAIL_CHARS = 24 * 1024;

export function tailOf(text: string, chars = TAIL_CHARS): string {
  return text.length > chars ? text.slice(text.length - chars) : text;
}

export function cleanOutput(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n');
}

/**
 * A failure reduced to what stays the same between two runs of the same failure: no timestamps,
 * durations, memory addresses, line numbers or directories.
 */
export function normaliseFailure(text: string): string {
  return cleanOutput(text)
    .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>')
    .replace(/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>')
    .replace(/\b0x[0-9a-f]{4,}\b/gi, '<addr>')
    .replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@+-]+){2,}[\\/]([\w.@+-]+)/g, '$1')
    .replace(/:\d+(?::\d+)?\b/g, '')
    .replace(/\(?\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds|m|min)\b\)?/gi, '<duration>')
    .replace(/\b[0-9a-f]{12,}\b/gi, '<id>')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}
