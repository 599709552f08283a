import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { displacedIsdlc } from './displaced.js';

const base = mkdtempSync(join(tmpdir(), 'isdlc-displaced-unit-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
function project(make: (dir: string) => void): string {
  const dir = join(base, `p${(n += 1)}`);
  mkdirSync(dir);
  make(dir);
  return dir;
}

describe('displacedIsdlc', () => {
  it.each([
    ['no .isdlc at all', () => undefined, undefined],
    ['.isdlc and its journal as folders', (d: string) => mkdirSync(join(d, '.isdlc/journal'), { recursive: true }), undefined],
    ['.isdlc without a journal yet', (d: string) => mkdirSync(join(d, '.isdlc')), undefined],
    ['.isdlc a link', (d: string) => symlinkSync(base, join(d, '.isdlc')), `.isdlc is a link to ${base}, not a folder`],
    ['.isdlc a dangling link', (d: string) => symlinkSync('/nowhere', join(d, '.isdlc')), '.isdlc is a link to /nowhere, not a folder'],
    ['.isdlc a file', (d: string) => writeFileSync(join(d, '.isdlc'), '{}'), '.isdlc is not a folder'],
    [
      'the journal a link',
      (d: string) => {
        mkdirSync(join(d, '.isdlc'));
        symlinkSync('../elsewhere', join(d, '.isdlc/journal'));
      },
      '.isdlc/journal is a link to ../elsewhere, not a folder',
    ],
  ])('%s', (_name, make, expected) => {
    expect(displacedIsdlc(project(make))).toBe(expected);
  });
});
