// Test names from the JavaScript runners' own list of tests: node --test's spec reporter (Node 24's default),
// Mocha's spec reporter, Jest's verbose output and Vitest's verbose reporter. Each reads up to its
// runner's summary and no further: what comes after repeats the failures.
// Characters past ASCII are written as \u escapes, so that the hook bundles stay ASCII (scripts/build.mjs):
// \u25b6 ▶, \u2714 ✔, \u2716 ✖, \ufe63 ﹣, \u26a0 ⚠, \u2139 ℹ, \u2713 ✓, \u2715 ✕, \u25cb ○, \u270e ✎,
// \u00d7 ×, \u2717 ✗, \u2193 ↓, \u25a1 □.
import { nameOf, runNames, titlePart, type NamedTest, type NameOutcome, type NamesReader } from './test-name.js';

interface Open {
  indent: number;
  title: string;
}

const DIRECTIVE = /\s#\s*(SKIP|TODO)\b.*$/i;

/** The suites a line at `indent` is inside: those opened at a smaller indentation. */
function inside(stack: Open[], indent: number): void {
  while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop();
}

/** A file's path as runners print it: the part of a title path that is no title. */
export const TEST_FILE = /(?:^|\/)[\w.@-]+\.(?:[cm]?[jt]sx?|py|go|rs)$/;

/**
 * node --test, spec reporter: `▶ suite` opens a suite, a mark line of the same name at the same indentation
 * closes it; `✔` passed, `✖` failed, `﹣ … # SKIP`, `# TODO` on a passing (`✔`) or failing (`⚠`) todo.
 */
export const nodeTestSpec: NamesReader = (text) => {
  const end = /^\u2139 tests \d+/m.exec(text);
  if (!end) return null;
  const stack: Open[] = [];
  const tests: NamedTest[] = [];
  for (const line of text.slice(0, end.index).split('\n')) {
    const match = /^(\s*)(\u25b6|\u2714|\u2716|\ufe63|\u26a0) (.+?)\s*$/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    const mark = match[2]!;
    const directive = DIRECTIVE.exec(match[3]!);
    const title = titlePart(directive ? match[3]!.slice(0, directive.index) : match[3]!);
    if (mark === '\u25b6') {
      inside(stack, indent);
      stack.push({ indent, title });
      continue;
    }
    const top = stack.at(-1);
    if (top && top.indent === indent && top.title === title) {
      stack.pop(); // the suite's own closing line
      continue;
    }
    inside(stack, indent);
    const said = directive?.[1]!.toUpperCase();
    const outcome: NameOutcome = said === 'TODO' ? 'todo' : said === 'SKIP' || mark === '\ufe63' ? 'skipped' : mark === '\u2714' ? 'passed' : 'failed';
    tests.push({ name: nameOf([...stack.map((open) => open.title), title]), outcome });
  }
  return runNames('node-test', tests);
};

/** Mocha's spec reporter: suites as indented lines, `✔ title`, `N) title` failing, `- title` pending. */
export const mochaSpec: NamesReader = (text) => {
  const end = /^[ \t]*\d+ (?:passing|failing)\b/m.exec(text);
  if (!end) return null;
  const stack: Open[] = [];
  const tests: NamedTest[] = [];
  for (const line of text.slice(0, end.index).split('\n')) {
    const match = /^( {2,})(?:(\u2714|\u2713) |(\d+)\) |(- ))?(.+?)\s*$/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    const title = titlePart(match[5]!);
    inside(stack, indent);
    const outcome: NameOutcome | undefined = match[2] ? 'passed' : match[3] ? 'failed' : match[4] ? 'skipped' : undefined;
    if (outcome) tests.push({ name: nameOf([...stack.map((open) => open.title), title]), outcome });
    else stack.push({ indent, title });
  }
  return runNames('mocha', tests);
};

const JEST_MARKS: Record<string, NameOutcome> = { '\u2713': 'passed', '\u2715': 'failed', '\u25cb': 'skipped', '\u270e': 'todo' };

/** Jest's verbose output: a block per file after `PASS`/`FAIL`, suites indented, `✓ ✕ ○ skipped ✎ todo`. */
export const jestVerbose: NamesReader = (text) => {
  if (!/^Tests:[ \t]+.*\btotal\s*$/m.test(text)) return null;
  const tests: NamedTest[] = [];
  let file: string | undefined;
  const stack: Open[] = [];
  for (const line of text.split('\n')) {
    const header = /^(?:PASS|FAIL) (\S+)/.exec(line);
    if (header) {
      file = header[1]!.replace(/^\.\//, '');
      stack.length = 0;
      continue;
    }
    // The failures' details, the console's output and the summary are no part of the list.
    if (file === undefined || /^\s*(?:\u25cf |console\.\w+|at )/.test(line) || /^(?:Test Suites|Tests):/.test(line)) {
      if (/^\s*\u25cf |^(?:Test Suites|Tests):/.test(line)) file = undefined;
      continue;
    }
    const match = /^( {2,})(?:([\u2713\u2715\u25cb\u270e]) )?(.+?)\s*$/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    inside(stack, indent);
    if (!match[2]) {
      stack.push({ indent, title: titlePart(match[3]!) });
      continue;
    }
    const outcome = JEST_MARKS[match[2]]!;
    const title = titlePart(match[3]!.replace(outcome === 'skipped' ? /^skipped / : outcome === 'todo' ? /^todo / : /^$/, ''));
    tests.push({ name: nameOf([...stack.map((open) => open.title), title]), outcome, file });
  }
  return runNames('jest', tests);
};

const VITEST_MARKS: Record<string, NameOutcome> = { '\u2713': 'passed', '\u00d7': 'failed', '\u2717': 'failed', '\u2193': 'skipped', '\u25a1': 'todo' };

/** Vitest's verbose reporter: `✓ file > suite > title 2ms`, `×` failed, `↓` skipped, `□` todo. */
export const vitestVerbose: NamesReader = (text) => {
  const end = /^[ \t]*Test Files[ \t]+/m.exec(text);
  if (!end) return null;
  const tests: NamedTest[] = [];
  for (const line of text.slice(0, end.index).split('\n')) {
    const match = /^[ \t]*([\u2713\u00d7\u2717\u2193\u25a1]) (.+?)\s*$/.exec(line);
    if (!match) continue;
    const parts = match[2]!
      .replace(/\s*\[(?:skipped|todo)\]$/, '')
      .split(' > ')
      .map((part) => part.trim());
    const file = parts[0] && TEST_FILE.test(parts[0].replace(/\s*\(\d+ tests?\).*$/, '')) ? parts.shift() : undefined;
    if (parts.length === 0) continue; // a file's own line
    parts[parts.length - 1] = titlePart(parts.at(-1)!);
    tests.push({ name: nameOf(parts), outcome: VITEST_MARKS[match[1]!]!, ...(file ? { file } : {}) });
  }
  return runNames('vitest', tests);
};
