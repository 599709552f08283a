import { describe, expect, it } from 'vitest';
import { approvalNeeded, readOnlyNote, sandboxFailure, signalOfExitCode } from './command-sandbox.js';

describe('sandboxFailure', () => {
  it.each<[number | null, string, string | undefined]>([
    [1, 'bwrap: execvp no-such-prog: No such file or directory', 'program "no-such-prog" not found (is it installed and on PATH?)'],
    [1, 'bwrap: execvp /etc/passwd: Permission denied', 'program "/etc/passwd" is not executable'],
    [1, 'bwrap: execvp ./x: Exec format error', 'program "./x": Exec format error'],
    [1, "bwrap: Can't find source path /p/dist: No such file or directory", "the OS sandbox failed: Can't find source path /p/dist: No such file or directory"],
    [1, 'some output\nbwrap: setting up uid map: Permission denied\n', 'the OS sandbox failed: setting up uid map: Permission denied'],
    // The command's own output and exit codes are the command's.
    [1, 'FAIL add(1, 2) should be 3', undefined],
    [1, 'bwrap: mentioned early\nthen the tests failed', undefined],
    [2, 'bwrap: execvp x: No such file or directory', undefined],
    [null, 'bwrap: execvp x: No such file or directory', undefined],
  ])('exit %s with %j: %j', (code, tail, expected) => {
    expect(sandboxFailure(code, tail)).toBe(expected);
  });
});

describe('readOnlyNote', () => {
  it.each([
    ['/bin/sh: 1: cannot create .isdlc/state.json: Read-only file system', true],
    ["Error: EROFS: read-only file system, open '.isdlc/state.json'", true],
    ['AssertionError: expected 3, got -1', false],
    ['', false],
  ])('%j: %s', (tail, noted) => {
    expect(readOnlyNote(tail) !== '').toBe(noted);
  });

  it('names the files that are read-only', () => {
    expect(readOnlyNote('Read-only file system')).toMatch(/OS sandbox where isdlc's files \(\.isdlc\/, .*\) are read-only$/);
  });
});

describe('signalOfExitCode', () => {
  it.each<[number, string | undefined]>([
    [137, 'SIGKILL'],
    [143, 'SIGTERM'],
    [130, 'SIGINT'],
    [128, undefined],
    [1, undefined],
    [255, undefined],
  ])('%i: %s', (code, signal) => {
    expect(signalOfExitCode(code)).toBe(signal);
  });
});

describe('approvalNeeded', () => {
  it('says what the person runs, and where', () => {
    expect(approvalNeeded('L-0123456789')).toBe("waiting for a person's approval: run `isdlc loop approve L-0123456789` in your own terminal");
  });
});
