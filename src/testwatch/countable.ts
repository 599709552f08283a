// Whether the gate can count the tests a command runs: which runner it names, and whether that runner, with
// the options given, prints a summary runners.ts reads. For a person setting the command up (init, doctor):
// a run the gate cannot count is judged by its exit status alone, which costs what `judgedByExitStatus` says.
import { splitCommandLine } from '../detect/shell-commands.js';
import { strippedCommand } from './test-commands.js';

export interface UncountedRunner {
  runner: string;
  /** Why its output holds no count the gate reads. */
  why: string;
  /** What to set in the command instead. */
  fix: string;
}

interface RunnerRule {
  runner: string;
  /** The runner's program as the first word of a command, or a word after a wrapper (`c8 mocha`). */
  program: RegExp;
  /** Given the words after the program: why this run prints no count, with what to do about it. */
  uncounted?: (args: string) => Omit<UncountedRunner, 'runner'> | undefined;
}

/** The reporters a flag names (`--reporter dot`, `--reporter=dot`, `-R dot`), each time it is given. */
function reporters(args: string, flags: string): string[] {
  return [...args.matchAll(new RegExp(`(?:^|\\s)(?:${flags})(?:=|\\s+)(\\S+)`, 'g'))].map((match) => match[1]!.replace(/^["']|["']$/g, ''));
}

/** Every reporter named prints no count (several may be given: one that counts is enough). */
function onlyUncounted(named: string[], uncounted: readonly string[]): string | undefined {
  return named.length > 0 && named.every((name) => uncounted.includes(name)) ? named.join(', ') : undefined;
}

const RULES: readonly RunnerRule[] = [
  {
    runner: 'node --test',
    program: /^node$/,
    uncounted: (args) => {
      if (!/(?:^|\s)--test(?=\s|$)/.test(args)) return undefined;
      const named = onlyUncounted(reporters(args, '--test-reporter'), ['dot', 'junit', 'lcov']);
      return named
        ? { why: `the ${named} reporter prints no test counts`, fix: 'use --test-reporter=spec (or tap), or add it beside the one you have' }
        : undefined;
    },
  },
  {
    runner: 'node-tap',
    program: /^tap$/,
    uncounted: (args) => {
      const named = onlyUncounted(reporters(args, '--reporter|-R'), ['dot', 'min', 'silent']);
      return named ? { why: `the ${named} reporter prints no test counts`, fix: 'drop --reporter, or use --reporter=terse (or base, or tap)' } : undefined;
    },
  },
  {
    runner: 'mocha',
    program: /^mocha$/,
    uncounted: (args) => {
      const named = onlyUncounted(reporters(args, '--reporter|-R'), ['json', 'json-stream', 'xunit', 'doc', 'markdown']);
      return named ? { why: `the ${named} reporter prints no summary`, fix: 'drop --reporter, or use spec, dot or tap' } : undefined;
    },
  },
  {
    runner: 'vitest',
    program: /^vitest$/,
    uncounted: (args) => {
      const named = onlyUncounted(reporters(args, '--reporter'), ['json', 'junit']);
      return named
        ? { why: `the ${named} reporter replaces the summary`, fix: 'add --reporter=default beside it (with --outputFile for the report)' }
        : undefined;
    },
  },
  // The other runners runners.ts reads print their counts with their usual reporters.
];

/** Programs that run the runner after them: coverage tools and the like. */
const RUNS_ANOTHER = /^(?:c8|nyc|cross-env|dotenv|env|time|nice)$/;

/** The runner a command line runs that the gate cannot count with the options given, if any. */
export function uncountedRunner(line: string): UncountedRunner | undefined {
  for (const part of splitCommandLine(line)) {
    const words = strippedCommand(part.text).split(/\s+/).filter(Boolean);
    // Past a wrapper's own options to the program it runs: `c8 --reporter=text mocha`.
    let at = 0;
    while (at < words.length - 1 && (RUNS_ANOTHER.test(words[at]!) || words[at]!.startsWith('-') || words[at]!.includes('='))) at += 1;
    const program = (words[at] ?? '').replace(/^.*\//, '');
    const rule = RULES.find((candidate) => candidate.program.test(program));
    if (!rule) continue;
    const found = rule.uncounted?.(words.slice(at + 1).join(' '));
    if (found) return { runner: rule.runner, ...found };
  }
  return undefined;
}

/** What judging by exit status alone costs, for a person deciding about require_counts. */
export function judgedByExitStatus(requireCounts: boolean): string {
  return requireCounts
    ? 'as it is, a passing run counts for nothing (require_counts is true), so no phase that needs passing tests can complete'
    : 'the gate judges by exit status alone (require_counts is false): it cannot see tests disappear between runs (the count floor needs numbers) nor name the failing ones';
}
