// What isdlc knows of Claude Code's versions, as tables, and finding the installed one through a real
// `claude` executable on PATH.
import { delimiter } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capabilitiesOf, compareVersions, detectClaudeVersion, parseClaudeVersionOutput, parseVersion } from '../../../src/hosts/claude-code/versions.js';
import { fakeClaudeDir, withoutClaude } from '../../helpers/claude-code.js';

describe('versions', () => {
  it.each([
    ['2.1.332', [2, 1, 332]],
    [' 2.1.100\n', [2, 1, 100]],
    ['10.0.0', [10, 0, 0]],
    ['2.1', undefined],
    ['2.1.x', undefined],
    ['v2.1.332', undefined],
    ['2.1.332 (Claude Code)', undefined],
    ['', undefined],
  ])('parseVersion(%j) is %j', (text, expected) => {
    expect(parseVersion(text)).toEqual(expected);
  });

  it.each([
    ['2.1.139', '2.1.138', 1],
    ['2.1.100', '2.1.100', 0],
    ['2.1.99', '2.1.100', -1],
    // Numbers, not text: 2.1.99 < 2.1.100 < 2.10.0 < 3.0.0.
    ['2.10.0', '2.1.332', 1],
    ['3.0.0', '2.99.999', 1],
  ])('compareVersions(%s, %s) has the sign of %i', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });

  it.each([
    ['2.1.332 (Claude Code)\n', '2.1.332'],
    ['2.1.100 (Claude Code)', '2.1.100'],
    ['\n2.1.63 (Claude Code)\n', '2.1.63'],
    ['2.1.138', '2.1.138'],
    ['claude: command not found', undefined],
    ['2.1.332-beta (Claude Code)', undefined],
    ['Update available!\n2.1.332 (Claude Code)', '2.1.332'],
    ['v2.1.332', '2.1.332'],
    ['2.1.3320x', undefined],
    ['', undefined],
  ])('parseClaudeVersionOutput(%j) is %j', (output, expected) => {
    expect(parseClaudeVersionOutput(output)).toBe(expected);
  });
});

describe('capabilities by version (docs/claude-code-versions.md)', () => {
  it.each([
    // version    supported exec   UPE fires  UPE key drops the file's hooks  sandbox  sandbox holds folders  blockWritesOutsideWorkingDirectories
    ['2.1.63', false, false, false, true, false, false, false],
    ['2.1.90', false, false, false, true, false, false, false],
    ['2.1.99', false, false, false, true, false, false, false],
    ['2.1.100', true, false, false, true, false, false, false],
    ['2.1.101', true, false, false, false, false, false, false],
    ['2.1.114', true, false, false, false, false, false, false],
    ['2.1.115', true, false, false, false, false, false, false],
    ['2.1.116', true, false, true, false, false, false, false],
    ['2.1.138', true, false, true, false, true, false, false],
    ['2.1.139', true, true, true, false, true, false, false],
    ['2.1.332', true, true, true, false, true, true, true],
    ['3.0.0', true, true, true, false, true, true, true],
  ])(
    '%s: supported %s, exec-form hooks %s, UserPromptExpansion fires %s, its key drops hooks %s, sandbox %s, holding folders %s, blocks writes outside %s',
    (version, supported, exec, fires, drops, sandbox, holds, outside) => {
      expect(capabilitiesOf(version)).toEqual({
        supported,
        execFormHooks: exec,
        userPromptExpansionFires: fires,
        userPromptExpansionKeyDropsHooks: drops,
        sandbox,
        sandboxHoldsFolders: holds,
        blockWritesOutside: outside,
      });
    },
  );
});

describe('detectClaudeVersion', () => {
  const onPath = (dir: string): NodeJS.ProcessEnv => ({ PATH: `${dir}${delimiter}${process.env['PATH'] ?? ''}` });

  it('asks the claude on PATH and reads its answer', () => {
    const found = detectClaudeVersion({ env: onPath(fakeClaudeDir('2.1.114')) });
    expect(found).toMatchObject({ found: true, version: '2.1.114' });
    expect(found.ms).toBeGreaterThanOrEqual(0);
  });

  it('says there is no claude on PATH', () => {
    expect(detectClaudeVersion({ env: withoutClaude() })).toMatchObject({ found: false, reason: 'no `claude` command on PATH' });
  });

  it('says what a claude that fails or prints something else said', () => {
    expect(detectClaudeVersion({ env: onPath(fakeClaudeDir('', { stdout: 'cannot start\n', status: 3 })) })).toMatchObject({
      found: false,
      reason: '`claude --version` exited 3: cannot start',
    });
    expect(detectClaudeVersion({ env: onPath(fakeClaudeDir('', { stdout: 'hello\n' })) })).toMatchObject({
      found: false,
      reason: '`claude --version` printed "hello", not a version',
    });
  });

  it('gives up on a claude that does not answer in time', () => {
    const slow = detectClaudeVersion({ env: onPath(fakeClaudeDir('2.1.332', { sleepSeconds: 5 })), timeoutMs: 300 });
    expect(slow).toMatchObject({ found: false, reason: '`claude --version` did not answer within 300 ms' });
    expect(slow.ms).toBeLessThan(4000);
  });
});
