import { describe, expect, it } from 'vitest';
import { tellingLine } from './messages.js';
import { readOnlyNote } from './rules/command-sandbox.js';
import type { RuleResult } from './types.js';

const result = (fields: Partial<RuleResult>): RuleResult => ({
  name: 'tests',
  type: 'command',
  passed: false,
  errored: false,
  message: 'tests: `npm test` exited 1 (expected 0)',
  exitCode: 1,
  ...fields,
});

describe('tellingLine', () => {
  it.each<[string, Partial<RuleResult>, string]>([
    ['the first error-like line', { outputTail: 'running 3 tests\nAssertionError: expected 3, got -1\n1 failing' }, 'AssertionError: expected 3, got -1'],
    ['else the first line that says it failed', { outputTail: 'ok 1\n1 test failed\nbye' }, '1 test failed'],
    ['else the last line', { outputTail: 'one\ntwo' }, 'two'],
    ['no output: its own message', {}, '`npm test` exited 1 (expected 0)'],
    [
      'not finished: its own message',
      { timedOut: true, errored: true, message: 'tests: `npm test` was still running', outputTail: 'Error: x' },
      '`npm test` was still running',
    ],
    [
      "walled by the sandbox: that isdlc's files are read-only, in a few words",
      {
        message: `tests: \`echo x > .isdlc/state.json\` exited 2 (expected 0)${readOnlyNote('Read-only file system')}`,
        exitCode: 2,
        outputTail: '/bin/sh: 1: cannot create .isdlc/state.json: Read-only file system',
      },
      "isdlc's files: read-only",
    ],
  ])('%s', (_name, fields, line) => {
    expect(tellingLine(result(fields))).toBe(line);
  });
});
