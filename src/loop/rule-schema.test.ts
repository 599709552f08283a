import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parseRule, parseRules, RuleSchema } from './rule-schema.js';
import type { Rule } from './types.js';

describe('parseRule: accepted shapes and defaults', () => {
  const rows: { name: string; input: unknown; expected: Rule }[] = [
    {
      name: 'well-known name tests_pass',
      input: 'tests_pass',
      expected: { type: 'command', name: 'tests_pass', enabled: true, command: 'npm test', expectedExitCode: 0, timeoutSeconds: 300 },
    },
    {
      name: 'well-known name compiles',
      input: 'compiles',
      expected: { type: 'command', name: 'compiles', enabled: true, command: 'npx tsc --noEmit', expectedExitCode: 0, timeoutSeconds: 300 },
    },
    {
      name: 'well-known name lint_clean (surrounding blanks ignored)',
      input: ' lint_clean ',
      expected: { type: 'command', name: 'lint_clean', enabled: true, command: 'npm run lint', expectedExitCode: 0, timeoutSeconds: 300 },
    },
    {
      name: 'the nested form; a command rule without expectedExitCode expects 0 (prior bug: always failed)',
      input: { type: 'command', name: 'tests_pass', config: { command: 'npm test' } },
      expected: { type: 'command', name: 'tests_pass', enabled: true, command: 'npm test', expectedExitCode: 0, timeoutSeconds: 300 },
    },
    {
      name: 'config keys win over top-level keys',
      input: { type: 'command', name: 'a', command: 'old', enabled: false, config: { command: 'new', enabled: true } },
      expected: { type: 'command', name: 'a', enabled: true, command: 'new', expectedExitCode: 0, timeoutSeconds: 300 },
    },
    {
      name: 'command: camelCase fields',
      input: { type: 'command', name: 'x', command: 'make', expectedExitCode: 2, timeoutSeconds: 60 },
      expected: { type: 'command', name: 'x', enabled: true, command: 'make', expectedExitCode: 2, timeoutSeconds: 60 },
    },
    {
      name: 'command: snake_case fields',
      input: { type: 'command', name: 'x', command: 'make', expected_exit_code: 3, timeout_seconds: 10 },
      expected: { type: 'command', name: 'x', enabled: true, command: 'make', expectedExitCode: 3, timeoutSeconds: 10 },
    },
    {
      name: 'command: timeout is an alias of timeoutSeconds (seconds)',
      input: { type: 'command', name: 'x', config: { command: 'make', timeout: 45 } },
      expected: { type: 'command', name: 'x', enabled: true, command: 'make', expectedExitCode: 0, timeoutSeconds: 45 },
    },
    {
      name: 'command: argument vector and cwd',
      input: { type: 'command', name: 'x', command: ['node', 'a b.js'], cwd: 'pkg' },
      expected: { type: 'command', name: 'x', enabled: true, command: ['node', 'a b.js'], expectedExitCode: 0, timeoutSeconds: 300, cwd: 'pkg' },
    },
    {
      name: 'command: the name defaults to the command line',
      input: { type: 'command', command: '  npm   run build ' },
      expected: { type: 'command', name: 'npm run build', enabled: true, command: 'npm   run build', expectedExitCode: 0, timeoutSeconds: 300 },
    },
    {
      name: 'command: the name of an argument vector quotes what needs it',
      input: { type: 'command', command: ['node', 'a b.js'] },
      expected: { type: 'command', name: 'node "a b.js"', enabled: true, command: ['node', 'a b.js'], expectedExitCode: 0, timeoutSeconds: 300 },
    },
    {
      name: 'the flat content_pattern form',
      input: {
        type: 'content_pattern',
        name: 'promise_complete',
        pattern: '<promise>COMPLETE</promise>',
        target: 'agent_output',
        mustMatch: false,
        enabled: true,
      },
      expected: {
        type: 'content_pattern',
        name: 'promise_complete',
        enabled: true,
        pattern: '<promise>COMPLETE</promise>',
        flags: '',
        target: 'agent_output',
        mustMatch: false,
      },
    },
    {
      name: 'content_pattern without mustMatch must match (prior bug: passed when absent); target defaults to agent_output',
      input: { type: 'content_pattern', name: 'p', pattern: 'DONE' },
      expected: { type: 'content_pattern', name: 'p', enabled: true, pattern: 'DONE', flags: '', target: 'agent_output', mustMatch: true },
    },
    {
      name: 'content_pattern: snake_case must_match, flags, file target',
      input: { type: 'content_pattern', name: 'p', config: { pattern: '^todo', flags: 'im', target: 'NOTES.md', must_match: false } },
      expected: { type: 'content_pattern', name: 'p', enabled: true, pattern: '^todo', flags: 'im', target: 'NOTES.md', mustMatch: false },
    },
    {
      name: 'content_pattern: a readable default name',
      input: { type: 'content_pattern', pattern: 'TODO', mustMatch: false, target: 'src/a.ts' },
      expected: { type: 'content_pattern', name: 'no /TODO/ in src/a.ts', enabled: true, pattern: 'TODO', flags: '', target: 'src/a.ts', mustMatch: false },
    },
    {
      name: 'the nested coverage form (prior bug: coverage rules never worked)',
      input: { type: 'coverage', name: 'coverage_threshold', config: { minCoverage: 80 } },
      expected: { type: 'coverage', name: 'coverage_threshold', enabled: true, minCoverage: 80 },
    },
    {
      name: 'coverage: snake_case min_coverage and a report; default name',
      input: { type: 'coverage', min_coverage: 72.5, report: 'coverage/lcov.info' },
      expected: { type: 'coverage', name: 'coverage of coverage/lcov.info', enabled: true, minCoverage: 72.5, report: 'coverage/lcov.info' },
    },
    {
      name: 'coverage: default name without a report',
      input: { type: 'coverage', minCoverage: 0 },
      expected: { type: 'coverage', name: 'coverage', enabled: true, minCoverage: 0 },
    },
    {
      name: 'file_exists: mustExist defaults to true; default name',
      input: { type: 'file_exists', path: 'README.md' },
      expected: { type: 'file_exists', name: 'README.md exists', enabled: true, path: 'README.md', mustExist: true },
    },
    {
      name: 'file_exists: must_exist false',
      input: { type: 'file_exists', path: 'debug.log', must_exist: false, enabled: false },
      expected: { type: 'file_exists', name: 'debug.log absent', enabled: false, path: 'debug.log', mustExist: false },
    },
  ];

  it.each(rows)('$name', ({ input, expected }) => {
    expect(parseRule(input)).toStrictEqual(expected);
  });

  it('parseRule is RuleSchema with messages: the schema itself gives the same rule', () => {
    for (const { input, expected } of rows) expect(v.parse(RuleSchema, input)).toStrictEqual(expected);
  });
});

describe('parseRule: errors name the field', () => {
  const rows: { name: string; input: unknown; error: RegExp }[] = [
    {
      name: 'unknown well-known name lists the known ones',
      input: 'tests_passing',
      error: /unknown rule name "tests_passing".*tests_pass, compiles, lint_clean/,
    },
    { name: 'an inherited property is not a well-known name', input: 'constructor', error: /unknown rule name "constructor"/ },
    { name: 'neither string nor object', input: 42, error: /well-known name \(tests_pass, compiles, lint_clean\) or an object with a "type"/ },
    { name: 'missing type', input: { name: 'x', command: 'ls' }, error: /type: is required: one of command, content_pattern, coverage, file_exists/ },
    { name: 'unknown type', input: { type: 'shell', command: 'ls' }, error: /type: must be one of .* got "shell"/ },
    { name: 'command missing', input: { type: 'command', name: 'x' }, error: /rule \("x"\): command: is required/ },
    { name: 'command empty string', input: { type: 'command', command: '  ' }, error: /command: must be a command line .* got " {2}"$/ },
    { name: 'command neither string nor list', input: { type: 'command', command: 7 }, error: /command: must be a command line .* got 7$/ },
    { name: 'command empty array', input: { type: 'command', command: [] }, error: /command: must be a command line .* got an empty list$/ },
    { name: 'command array with empty program', input: { type: 'command', command: [''] }, error: /command: must start with the program/ },
    { name: 'command array with a number', input: { type: 'command', command: ['ls', 3] }, error: /command: must be a list of strings, got 3 at position 1/ },
    {
      name: 'timeoutSeconds below 1',
      input: { type: 'command', command: 'ls', timeoutSeconds: 0 },
      error: /timeoutSeconds: must be a number of seconds from 1 to 3600, got 0/,
    },
    { name: 'timeoutSeconds above 3600', input: { type: 'command', command: 'ls', timeoutSeconds: 3601 }, error: /timeoutSeconds: must be .* got 3601/ },
    {
      name: 'timeout alias is reported as written',
      input: { type: 'command', config: { command: 'ls', timeout: 'long' } },
      error: /config\.timeout: must be a number of seconds/,
    },
    {
      name: 'an alias and its field both given',
      input: { type: 'command', command: 'ls', timeout: 5, timeoutSeconds: 6 },
      error: /given twice, as "timeout" and as "timeoutSeconds"/,
    },
    { name: 'expectedExitCode not whole', input: { type: 'command', command: 'ls', expectedExitCode: 1.5 }, error: /expectedExitCode: must be a whole number/ },
    {
      name: 'expectedExitCode negative',
      input: { type: 'command', command: 'ls', expected_exit_code: -1 },
      error: /expected_exit_code: must be a whole number/,
    },
    { name: 'enabled not boolean', input: { type: 'command', command: 'ls', enabled: 'yes' }, error: /enabled: must be true or false/ },
    { name: 'empty name', input: { type: 'command', command: 'ls', name: ' ' }, error: /name: must be a non-empty name/ },
    {
      name: 'unknown field (a typo is not ignored)',
      input: { type: 'content_pattern', pattern: 'x', mustmatch: false },
      error: /mustmatch: unknown field for a content_pattern rule/,
    },
    { name: 'config not an object', input: { type: 'command', config: 'npm test' }, error: /config: must be an object of rule settings/ },
    { name: 'pattern missing', input: { type: 'content_pattern' }, error: /pattern: is required/ },
    { name: 'pattern does not compile', input: { type: 'content_pattern', pattern: '(unclosed' }, error: /pattern: does not compile/ },
    { name: 'flags outside imsu', input: { type: 'content_pattern', pattern: 'x', flags: 'g' }, error: /flags: must be regular expression flags/ },
    { name: 'flag repeated', input: { type: 'content_pattern', pattern: 'x', flags: 'ii' }, error: /flags: must be regular expression flags/ },
    { name: 'coverage without minCoverage', input: { type: 'coverage', name: 'cov' }, error: /minCoverage: is required: a percentage from 0 to 100/ },
    { name: 'coverage above 100', input: { type: 'coverage', minCoverage: 101 }, error: /minCoverage: must be a percentage from 0 to 100, got 101/ },
    { name: 'coverage below 0', input: { type: 'coverage', config: { min_coverage: -1 } }, error: /config\.min_coverage: must be a percentage/ },
    { name: 'file_exists without path', input: { type: 'file_exists' }, error: /path: is required/ },
  ];

  it.each(rows)('$name', ({ input, error }) => {
    expect(() => parseRule(input)).toThrow(error);
  });
});

describe('parseRules', () => {
  it('parses a mixed list in order', () => {
    const rules = parseRules(['tests_pass', { type: 'coverage', minCoverage: 80 }]);
    expect(rules.map((rule) => rule.name)).toEqual(['tests_pass', 'coverage']);
  });

  it('an empty list is no rules', () => {
    expect(parseRules([])).toEqual([]);
  });

  it('names the index (and the name) of the bad rule', () => {
    expect(() => parseRules(['tests_pass', { type: 'command', name: 'build', command: 'make', timeoutSeconds: 0 }])).toThrow(
      /^rules\[1\] \("build"\): timeoutSeconds: must be a number of seconds from 1 to 3600, got 0$/,
    );
  });

  it('a name given twice is an error naming both rules', () => {
    expect(() => parseRules(['tests_pass', { type: 'command', name: 'tests_pass', command: 'yarn test' }])).toThrow(
      /rules\[1\] \("tests_pass"\): name: already used by rules\[0\]/,
    );
  });

  it('made-up names are made unique, and never take a name given explicitly later in the list', () => {
    const rules = parseRules([
      { type: 'command', command: 'make' },
      { type: 'command', command: 'make', cwd: 'sub' },
      { type: 'command', command: 'true', name: 'make #2' },
    ]);
    expect(rules.map((rule) => rule.name)).toEqual(['make', 'make #3', 'make #2']);
  });

  it('refuses something that is not a list', () => {
    expect(() => parseRules({ type: 'command' })).toThrow(/rules must be a list, got object/);
  });
});
