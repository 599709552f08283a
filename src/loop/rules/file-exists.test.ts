import { EXAMPLE_GUARDED } from '../../../test/helpers/hosts.js';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileExistsRule } from '../types.js';
import { runFileExistsRule } from './file-exists.js';

const PROTECT = EXAMPLE_GUARDED.protectedPaths();

const rule = (path: string, mustExist = true): FileExistsRule => ({ type: 'file_exists', name: 'f', enabled: true, path, mustExist });

describe('runFileExistsRule', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'loop-exists-'));
    writeFileSync(join(root, 'README.md'), '# x\n');
    mkdirSync(join(root, 'docs'));
    symlinkSync(tmpdir(), join(root, 'out'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const rows: { name: string; rule: FileExistsRule; passed: boolean; errored: boolean; message: RegExp }[] = [
    { name: 'a file that exists', rule: rule('README.md'), passed: true, errored: false, message: /^f: README.md exists$/ },
    { name: 'a directory counts', rule: rule('docs'), passed: true, errored: false, message: /exists/ },
    { name: 'a missing file fails', rule: rule('CHANGELOG.md'), passed: false, errored: false, message: /CHANGELOG.md is missing \(it must exist\)/ },
    { name: 'a path through a file is missing, not a crash', rule: rule('README.md/x'), passed: false, errored: false, message: /is missing/ },
    { name: 'must not exist, absent: passes', rule: rule('debug.log', false), passed: true, errored: false, message: /debug.log is absent, as required/ },
    { name: 'must not exist, present: fails', rule: rule('README.md', false), passed: false, errored: false, message: /README.md exists \(it must not\)/ },
    { name: 'a relative path escaping the root is errored', rule: rule('../etc/passwd'), passed: false, errored: true, message: /is outside the project root/ },
    { name: 'an absolute path outside the root is errored', rule: rule('/etc/passwd'), passed: false, errored: true, message: /is outside the project root/ },
    { name: 'a symbolic link out of the root is errored', rule: rule('out/anything', false), passed: false, errored: true, message: /through a symbolic link/ },
  ];
  it.each(rows)('$name', ({ rule, passed, errored, message }) => {
    const result = runFileExistsRule(rule, { root, protect: PROTECT, agentOutput: '' });
    expect(result).toMatchObject({ name: 'f', type: 'file_exists', passed, errored });
    expect(result.message).toMatch(message);
  });

  it('an absolute path inside the root is accepted', () => {
    expect(runFileExistsRule(rule(join(root, 'README.md')), { root, protect: PROTECT, agentOutput: '' }).passed).toBe(true);
  });
});
