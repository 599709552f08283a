// One test as a run names it: its identity (the title path, normalised the same way for every runner's
// output, so that the same test keeps its name from run to run) and how it ended.

export type NameOutcome = 'passed' | 'failed' | 'skipped' | 'todo';

export interface NamedTest {
  /** The title path, suite > test, normalised (nameOf). */
  name: string;
  outcome: NameOutcome;
  /** The file the format names it in, where it names one. */
  file?: string;
}

export interface RunNames {
  /** Whose names these are: only names of the same runner are compared (another runner names other tests). */
  runner: string;
  tests: NamedTest[];
}

export type NamesReader = (text: string) => RunNames | null;

const DURATION = /\s*(?:\(\s*[\d.]+\s*m?s\s*\)|\[\s*[\d.]+\s*m?s\s*\]|\b[\d.]+\s*m?s)\s*$/;

/** One part of a title: whitespace collapsed, a trailing duration (`(3ms)`, `4 ms`, `[1.2ms]`) gone. */
export function titlePart(text: string): string {
  let part = text.replace(/\s+/g, ' ').trim();
  for (let previous = ''; previous !== part;) {
    previous = part;
    part = part.replace(DURATION, '').trim();
  }
  return part;
}

/** A test's identity: its title path, suite > test, each part normalised. */
export function nameOf(parts: readonly string[]): string {
  return parts
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' > ');
}

/** The same test named twice in one run (a repeated block, a retry) ends as its worst outcome. */
const RANK: Record<NameOutcome, number> = { passed: 0, todo: 1, skipped: 2, failed: 3 };

export function runNames(runner: string, tests: NamedTest[]): RunNames | null {
  const byName = new Map<string, NamedTest>();
  for (const test of tests) {
    if (!test.name) continue;
    const known = byName.get(test.name);
    if (!known || RANK[test.outcome] > RANK[known.outcome]) byName.set(test.name, test);
  }
  return byName.size > 0 ? { runner, tests: [...byName.values()] } : null;
}
