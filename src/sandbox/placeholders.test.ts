// Placeholders on a real disk: made where nothing was, kept while any run holds them, taken away after the
// last, never taking what a person put there.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdPlaceholders, parseRegistry, PLACEHOLDER_REGISTRY } from './placeholders.js';

let root: string;
let isdlc: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'isdlc-placeholders-'));
  isdlc = join(root, '.isdlc');
  mkdirSync(isdlc);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const listing = () => readdirSync(root).sort();

describe('holdPlaceholders', () => {
  it('makes an empty folder for each missing name and takes it away on release, leaving nothing behind', () => {
    writeFileSync(join(root, '.mcp.json'), '{}');
    const held = holdPlaceholders(isdlc, root, ['.git', '.mcp.json', 'docs']);
    expect(listing()).toEqual(['.git', '.isdlc', '.mcp.json', 'docs']);
    expect(readdirSync(join(root, '.git'))).toEqual([]);
    held.release();
    expect(listing()).toEqual(['.isdlc', '.mcp.json']);
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe('{}');
    expect(readdirSync(isdlc)).toEqual([]);
  });

  it('keeps them while another run holds them; the last one out takes them away', () => {
    const first = holdPlaceholders(isdlc, root, ['.git']);
    const second = holdPlaceholders(isdlc, root, ['.git']);
    first.release();
    expect(existsSync(join(root, '.git'))).toBe(true);
    second.release();
    expect(existsSync(join(root, '.git'))).toBe(false);
  });

  it('a run whose process is gone no longer holds anything: the next run clears what it left', () => {
    const dead = new Set<number>([process.pid]);
    holdPlaceholders(isdlc, root, ['.git', 'docs']); // never released: its process "died"
    const next = holdPlaceholders(isdlc, root, ['.mcp.json'], (pid) => !dead.has(pid));
    expect(listing()).toEqual(['.isdlc', '.mcp.json']);
    next.release();
    expect(listing()).toEqual(['.isdlc']);
  });

  it('never removes a placeholder someone filled, or one that is no longer a folder', () => {
    const held = holdPlaceholders(isdlc, root, ['docs', '.mcp.json']);
    writeFileSync(join(root, 'docs', 'guide.md'), 'mine');
    rmSync(join(root, '.mcp.json'), { recursive: true });
    writeFileSync(join(root, '.mcp.json'), '{"mine":true}');
    held.release();
    expect(readFileSync(join(root, 'docs', 'guide.md'), 'utf8')).toBe('mine');
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe('{"mine":true}');
    expect(existsSync(join(isdlc, PLACEHOLDER_REGISTRY))).toBe(false);
  });

  it('does not count a name that was already there as its own, so it is never removed', () => {
    mkdirSync(join(root, 'docs'));
    holdPlaceholders(isdlc, root, ['docs']).release();
    expect(existsSync(join(root, 'docs'))).toBe(true);
  });

  it('nothing to hold: touches nothing', () => {
    holdPlaceholders(isdlc, root, []).release();
    expect(readdirSync(isdlc)).toEqual([]);
  });

  it('names that would lead out of the root are ignored', () => {
    holdPlaceholders(isdlc, root, ['../escape', '..', 'a/b']).release();
    expect(existsSync(join(root, '..', 'escape'))).toBe(false);
    expect(listing()).toEqual(['.isdlc']);
  });

  it('releasing twice is harmless', () => {
    const held = holdPlaceholders(isdlc, root, ['.git']);
    held.release();
    held.release();
    expect(listing()).toEqual(['.isdlc']);
  });
});

describe('parseRegistry', () => {
  it.each([
    ['{"runs":[{"pid":1,"token":"a"}],"placeholders":[".git"]}', { runs: [{ pid: 1, token: 'a' }], placeholders: ['.git'] }],
    ['{"runs":[{"pid":"1","token":"a"},null],"placeholders":[".git",3]}', { runs: [], placeholders: ['.git'] }],
    ['not json', { runs: [], placeholders: [] }],
    [undefined, { runs: [], placeholders: [] }],
  ])('%j', (text, registry) => {
    expect(parseRegistry(text)).toEqual(registry);
  });
});
