// Summary parsers for more JavaScript runners: uvu, AVA, Jasmine, Karma, bun test and deno test (each
// shape from the outputs recorded in test/fixtures/runners). Each returns null for text not its own.
import { counts, lastMatch, names, summary, unique, type Parser } from './runner-summary.js';

/** uvu: `Total: 5`, `Passed: 3`, `Skipped: 0` at the end of each run (`node a.js && node b.js` runs two: summed). */
export const uvu: Parser = (text) => {
  const blocks = [...text.matchAll(/^[ \t]*Total:[ \t]+(\d+)[ \t]*\n[ \t]*Passed:[ \t]+(\d+)[ \t]*\n[ \t]*Skipped:[ \t]+(\d+)[ \t]*$/gm)];
  if (blocks.length === 0) return null;
  let [total, passed, skipped] = [0, 0, 0];
  for (const block of blocks) {
    total += Number(block[1]);
    passed += Number(block[2]);
    skipped += Number(block[3]);
  }
  // Total counts the tests that ran, skipped ones apart; a hook that throws leaves its tests neither passed nor failed.
  const result = summary('uvu', {
    passed,
    failed: total - passed,
    skipped,
    failingTests: unique([...text.matchAll(/^[ \t]*FAIL[ \t]+(?:(\S.*?)[ \t]+)?"(.+)"[ \t]*$/gm)].map((m) => (m[1] ? `${m[1]} \u203a ${m[2]!}` : m[2]!))),
  });
  if (total + skipped === 0) result.couldNotRun = 'no tests ran';
  return result;
};

/**
 * AVA: `5 tests passed` (only when none failed), `2 tests failed`, `1 known failure`, `1 test skipped`,
 * `1 test todo`, after its `─` line. A failing run prints no passed count: its `✔` lines are counted.
 */
export const ava: Parser = (text, end) => {
  if (!/^[ \t]*\u2500[ \t]*$/m.test(end)) return null;
  const field = (pattern: string): number | undefined => {
    const match = lastMatch(end, new RegExp(`^[ \\t]*(\\d+) ${pattern}[ \\t]*$`, 'm'));
    return match ? Number(match[1]) : undefined;
  };
  const passedLine = field('tests? passed');
  const failed = field('tests? failed');
  const uncaught = (field('uncaught exceptions?') ?? 0) + (field('unhandled rejections?') ?? 0);
  if (passedLine === undefined && failed === undefined && uncaught === 0) return null;
  const ticks = [...text.matchAll(/^[ \t]*\u2714 (?!\[expected fail\])/gm)].length;
  const result = summary('ava', {
    passed: (passedLine ?? ticks) + (field('known failures?') ?? 0),
    failed: (failed ?? 0) + (field('tests? remained pending after a timeout') ?? 0),
    skipped: (field('tests? skipped') ?? 0) + (field('tests? todo') ?? 0),
    errors: uncaught + (field('hooks? failed') ?? 0),
    failingTests: names(text, /^[ \t]*\u2718 \[fail\]: (.+?)\s*$/gm),
    skippedTests: names(text, /^[ \t]*- \[(?:skip|todo)\] (.+?)\s*$/gm),
  });
  if (result.passed + result.failed + result.skipped === 0) result.couldNotRun = 'a test file failed to load';
  return result;
};

/** Jasmine: `5 specs, 2 failures, 1 pending spec`; `No specs found` when there are none. */
export const jasmine: Parser = (text, end) => {
  const line = lastMatch(end, /^(\d+) specs?, (\d+) failures?(?:, (\d+) pending specs?)?/m);
  if (!line) return /^Incomplete: No specs found/m.test(end) ? summary('jasmine', { couldNotRun: 'no specs found' }) : null;
  const [specs, failures, pending] = [Number(line[1]), Number(line[2]), Number(line[3] ?? 0)];
  return summary('jasmine', {
    passed: specs - failures - pending,
    failed: failures,
    skipped: pending,
    // Failures and pending specs are both numbered; a failure's next line is its message.
    failingTests: names(text, /^\d+\) (.+?)\s*\n[ \t]+Message:/gm),
    skippedTests: names(text, /^\d+\) (.+?)\s*\n[ \t]+(?:No reason given|Temporarily disabled with x\w+|.*pending)/gim),
  });
};

/**
 * Karma: `TOTAL: 2 FAILED, 3 SUCCESS` after a run in every browser; without it (the dots reporter, an
 * error in a browser) each browser's last `Executed 5 of 5 (2 FAILED) (skipped 1)` line, summed.
 */
export const karma: Parser = (text, end) => {
  const lines = [...text.matchAll(/^(.+?): Executed (\d+) of (\d+)(?: \((\d+) FAILED\))?(?: \(skipped (\d+)\))?( ERROR| DISCONNECTED)?/gm)];
  if (lines.length === 0) return null;
  const lastPerBrowser = new Map(lines.map((match) => [match[1]!, match] as const));
  let [executed, failed, skipped, broken] = [0, 0, 0, 0];
  for (const match of lastPerBrowser.values()) {
    executed += Number(match[2]);
    failed += Number(match[4] ?? 0);
    skipped += Number(match[5] ?? 0);
    if (match[6]) broken += 1;
  }
  const total = lastMatch(end, /^TOTAL: (?:(\d+) FAILED, )?(\d+) SUCCESS/m);
  const browsers = [...lastPerBrowser.keys()];
  const failingTests = unique(
    [...text.matchAll(/^(.+) FAILED\s*$/gm)].map((match) => {
      const browser = browsers.find((name) => match[1]!.startsWith(`${name} `));
      return browser ? match[1]!.slice(browser.length + 1) : '';
    }),
  );
  const result = summary('karma', {
    passed: total ? Number(total[2]) : executed - failed,
    failed: total ? Number(total[1] ?? 0) : failed,
    skipped,
    errors: broken,
    failingTests,
  });
  if (executed === 0 && broken > 0) result.couldNotRun = 'the browser could not run the tests';
  return result;
};

/** bun test: ` 3 pass`, ` 2 fail`, ` 1 skip`, ` 1 todo`, ` 1 error`, then `Ran 5 tests across 2 files.` */
export const bun: Parser = (text, end) => {
  const ran = lastMatch(end, /^Ran (\d+) tests? across \d+ files?\./m);
  if (!ran) return null;
  const block = end.slice(0, ran.index);
  const field = (word: string): number => Number(lastMatch(block, new RegExp(`^[ \\t]*(\\d+) ${word}[ \\t]*$`, 'm'))?.[1] ?? 0);
  const result = summary('bun', {
    passed: field('pass'),
    failed: field('fail'),
    skipped: field('skip') + field('todo'),
    errors: field('errors?'),
    failingTests: names(text, /^\(fail\) (.+?)(?: \[[\d.]+m?s\])?\s*$/gm),
    skippedTests: names(text, /^\((?:skip|todo)\) (.+?)(?: \[[\d.]+m?s\])?\s*$/gm),
  });
  if (Number(ran[1]) === 0) result.couldNotRun = 'no tests ran';
  return result;
};

/** deno test: `FAILED | 2 passed (1 step) | 2 failed (1 step) | 1 ignored (122ms)`; steps are not tests. */
export const deno: Parser = (text, end) => {
  const line = lastMatch(end, /^(?:ok|FAILED) \| (\d+ passed.*)$/m);
  if (!line) {
    if (/^error: No test modules found/m.test(end)) return summary('deno', { couldNotRun: 'no test modules found' });
    if (/^error: Type checking failed\./m.test(end) && /^TS\d+ \[ERROR\]/m.test(text)) return summary('deno', { couldNotRun: 'the code does not type-check' });
    return null;
  }
  const c = counts(line[1]!.replace(/\(\d+ steps?\)/g, '').replace(/\([\d.]+m?s\)/g, ''));
  const failures = /^ FAILURES \s*$/m.exec(text);
  return summary('deno', {
    passed: c['passed'] ?? 0,
    failed: c['failed'] ?? 0,
    skipped: c['ignored'] ?? 0,
    failingTests: failures ? names(text.slice(failures.index), /^(.+?) => \S+:\d+:\d+\s*$/gm) : [],
  });
};
