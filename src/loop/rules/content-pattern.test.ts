import { EXAMPLE_GUARDED } from '../../../test/helpers/hosts.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentPatternRule } from '../types.js';
import { runContentPatternRule } from './content-pattern.js';

const PROTECT = EXAMPLE_GUARDED.protectedPaths();

const rule = (fields: Partial<ContentPatternRule>): ContentPatternRule => ({
  type: 'content_pattern',
  name: 'p',
  enabled: true,
  pattern: 'DONE',
  flags: '',
  target: 'agent_output',
  mustMatch: true,
  ...fields,
});

describe('runContentPatternRule', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-content-'));
    writeFileSync(join(root, 'NOTES.md'), 'first line\nTODO: write docs\n');
    mkdirSync(join(root, 'dir'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const rows: { name: string; rule: ContentPatternRule; output?: string; passed: boolean; errored: boolean; message: RegExp }[] = [
    {
      name: 'must match, found in the agent output',
      rule: rule({}),
      output: 'all DONE',
      passed: true,
      errored: false,
      message: /^p: \/DONE\/ found in the agent's final message \(line 1\)$/,
    },
    {
      name: 'must match (the default), absent: fails',
      rule: rule({}),
      output: 'still working',
      passed: false,
      errored: false,
      message: /not found in the agent's final message \(it must appear\)/,
    },
    { name: 'case-sensitive without the i flag', rule: rule({}), output: 'done', passed: false, errored: false, message: /not found/ },
    { name: 'the i flag', rule: rule({ flags: 'i' }), output: 'done', passed: true, errored: false, message: /\/DONE\/i found/ },
    {
      name: 'must not match, absent: passes',
      rule: rule({ mustMatch: false }),
      output: 'nothing here',
      passed: true,
      errored: false,
      message: /does not appear in the agent's final message, as required/,
    },
    {
      name: 'must not match, present: fails with the line',
      rule: rule({ mustMatch: false }),
      output: 'a\nb\nDONE',
      passed: false,
      errored: false,
      message: /found in the agent's final message \(line 3\) \(it must not appear\)/,
    },
    {
      name: 'a file target, found',
      rule: rule({ target: 'NOTES.md', pattern: '^TODO', flags: 'm' }),
      passed: true,
      errored: false,
      message: /found in NOTES.md \(line 2\)/,
    },
    {
      name: 'a file target, must not match',
      rule: rule({ target: 'NOTES.md', pattern: 'TODO', mustMatch: false }),
      passed: false,
      errored: false,
      message: /it must not appear/,
    },
    {
      name: 'a missing file is errored, not passed',
      rule: rule({ target: 'MISSING.md', mustMatch: false }),
      passed: false,
      errored: true,
      message: /cannot read MISSING.md: no such file/,
    },
    { name: 'a directory is errored', rule: rule({ target: 'dir' }), passed: false, errored: true, message: /not a file/ },
    { name: 'a file outside the root is errored', rule: rule({ target: '../x' }), passed: false, errored: true, message: /outside the project root/ },
    {
      name: 'a pattern that does not compile is errored',
      rule: rule({ pattern: '(' }),
      output: '(',
      passed: false,
      errored: true,
      message: /does not compile/,
    },
  ];
  it.each(rows)('$name', ({ rule, output = '', passed, errored, message }) => {
    const result = runContentPatternRule(rule, { root, protect: PROTECT, agentOutput: output });
    expect(result).toMatchObject({ name: 'p', type: 'content_pattern', passed, errored });
    expect(result.message).toMatch(message);
  });
});
