// What a runner's summary says, and the small readers every summary parser shares (runners.ts and the
// runner files beside it).

export interface RunSummary {
  runner: string;
  passed: number;
  failed: number;
  skipped: number;
  /** Errors outside any test (Vitest's unhandled errors, pytest collection errors, Minitest errors). */
  errors: number;
  /** The tests could not run at all: why (a compile or collection error, no tests found). */
  couldNotRun?: string;
  failingTests: string[];
  skippedTests: string[];
}

/** `text` is the tail the run left; `end` its last few KB, where summaries are printed. */
export type Parser = (text: string, end: string) => RunSummary | null;

export function summary(runner: string, counts: Partial<RunSummary>): RunSummary {
  return { runner, passed: 0, failed: 0, skipped: 0, errors: 0, failingTests: [], skippedTests: [], ...counts };
}

/** `2 failed, 1 skipped, 5 passed` → { failed: 2, skipped: 1, passed: 5 } (any separator, any order). */
export function counts(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const match of text.matchAll(/(\d+)\s+([a-z]+)/gi)) out[match[2]!.toLowerCase()] = (out[match[2]!.toLowerCase()] ?? 0) + Number(match[1]);
  return out;
}

export function lastMatch(text: string, pattern: RegExp): RegExpMatchArray | undefined {
  const all = [...text.matchAll(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`))];
  return all[all.length - 1];
}

export function unique(values: string[], limit = 50): string[] {
  return [...new Set(values.map((value) => value.trim()).filter(Boolean))].slice(0, limit);
}

export function names(text: string, pattern: RegExp): string[] {
  return unique([...text.matchAll(pattern)].map((match) => match[1] ?? ''));
}
