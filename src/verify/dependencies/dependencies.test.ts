// The installed packages against the record and the lockfile, on real folders: packages written into a
// temp project's node_modules, their tarballs made with tar and put into a content store laid out as npm's.
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as tar from 'tar';
import { readLockfile, type Lockfile } from './lockfile.js';
import { cachedTarball } from './npm-cache.js';
import { differingFiles, digestPackage } from './package-digest.js';
import type { DependencyRecord } from './record.js';
import { compareDependencies, takeInventory } from './verify.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'isdlc-deps-'));
  made.push(dir);
  return dir;
}

function write(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

type Files = Record<string, string>;
const CHAI: Files = {
  'package.json': '{"name":"chai","version":"4.5.0"}',
  'index.js': 'module.exports = require("./lib/chai");\n',
  'lib/chai.js': 'exports.ok = 1;\n',
};

/** A tarball of `files` under `package/`, put into `cacache` as npm keeps it; its integrity. */
function cache(cacache: string, files: Files): string {
  const src = temp();
  for (const [path, content] of Object.entries(files)) write(join(src, 'package', path), content);
  const tgz = join(src, 'p.tgz');
  tar.c({ gzip: true, file: tgz, cwd: src, sync: true, portable: true }, ['package']);
  const bytes = readFileSync(tgz);
  const hex = createHash('sha512').update(bytes).digest('hex');
  const stored = join(cacache, 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
  mkdirSync(dirname(stored), { recursive: true });
  writeFileSync(stored, bytes);
  return `sha512-${Buffer.from(hex, 'hex').toString('base64')}`;
}

function install(root: string, path: string, files: Files): void {
  rmSync(join(root, path), { recursive: true, force: true });
  for (const [file, content] of Object.entries(files)) write(join(root, path, file), content);
}

function lockfile(root: string, packages: Record<string, { version: string; integrity?: string; name?: string }>): void {
  write(join(root, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'p' }, ...packages } }));
}

type Npm = Extract<Lockfile, { kind: 'npm' }>;

/** A project with chai installed from its tarball, the lockfile naming it, and the record taken then. */
function project(): { root: string; cacache: string; integrity: string; record: DependencyRecord } {
  const root = temp();
  const cacache = temp();
  const integrity = cache(cacache, CHAI);
  install(root, 'node_modules/chai', CHAI);
  lockfile(root, { 'node_modules/chai': { version: '4.5.0', integrity } });
  const inventory = takeInventory(root, readLockfile(root) as Npm);
  const record: DependencyRecord = {
    version: 1,
    lockfile: 'package-lock.json',
    recorded_at: '2026-01-01T10:00:00.000Z',
    recorded_because: 'the workflow started',
    packages: inventory.packages,
    programs: inventory.programs,
  };
  return { root, cacache, integrity, record };
}

function compare(p: ReturnType<typeof project>) {
  const lock = readLockfile(p.root) as Npm;
  return compareDependencies(p.root, p.record, takeInventory(p.root, lock), lock, 'the start', p.cacache);
}

describe('a package digest', () => {
  it('changes with a byte of a file, names the file, leaves out the nested node_modules and does not follow links', () => {
    const root = temp();
    install(root, 'pkg', CHAI);
    write(join(root, 'outside.js'), 'one');
    symlinkSync('../outside.js', join(root, 'pkg/linked.js'));
    const before = digestPackage(join(root, 'pkg'));
    write(join(root, 'pkg/node_modules/dep/index.js'), 'nested');
    write(join(root, 'outside.js'), 'two');
    expect(digestPackage(join(root, 'pkg')).digest, 'nested packages and link targets are not its content').toBe(before.digest);
    appendFileSync(join(root, 'pkg/lib/chai.js'), ' ');
    const after = digestPackage(join(root, 'pkg'));
    expect(after.digest).not.toBe(before.digest);
    expect(differingFiles(before.files, after.files)).toEqual({ changed: ['lib/chai.js'], added: [], removed: [] });
  });
});

describe('the lockfile', () => {
  it.each([
    ['package-lock.json', '{"lockfileVersion":3,"packages":{"":{},"node_modules/a":{"version":"1.0.0"},"packages/w":{}}}', 'npm'],
    ['npm-shrinkwrap.json', '{"lockfileVersion":2,"packages":{"node_modules/a":{"version":"1.0.0"}}}', 'npm'],
    ['package-lock.json', '{"lockfileVersion":1,"dependencies":{}}', 'unverified'],
    ['package-lock.json', '{ not json', 'broken'],
    ['yarn.lock', '# yarn lockfile v1\n', 'unverified'],
    ['pnpm-lock.yaml', "lockfileVersion: '9.0'\n", 'unverified'],
  ])('%s %s is %s', (file, text, kind) => {
    const root = temp();
    write(join(root, file), text);
    const lock = readLockfile(root);
    expect(lock.kind).toBe(kind);
    if (lock.kind === 'npm') expect([...lock.packages.keys()]).toEqual(['node_modules/a']);
  });

  it('none at all', () => expect(readLockfile(temp()).kind).toBe('none'));
});

describe("npm's cache", () => {
  it('gives the tarball whose sha512 the integrity names, and refuses other bytes under that name', () => {
    const cacache = temp();
    const integrity = cache(cacache, CHAI);
    const tarball = cachedTarball(integrity, cacache);
    expect(tarball.kind === 'ok' && [...tarball.files.keys()].sort()).toEqual(['index.js', 'lib/chai.js', 'package.json']);
    const hex = Buffer.from(integrity.slice(7), 'base64').toString('hex');
    writeFileSync(join(cacache, 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4)), 'planted');
    expect(cachedTarball(integrity, cacache)).toEqual({ kind: 'bad', why: "npm's cache holds other bytes under its integrity" });
    expect(cachedTarball('sha1-abc=', cacache).kind).toBe('missing');
  });
});

describe('the installed packages against the record and the lockfile', () => {
  it('as recorded: nothing to say', () => {
    expect(compare(project())).toEqual({ problems: [], reinstalled: [], differs: false });
  });

  it.each<[string, (p: ReturnType<typeof project>) => void, string | null]>([
    ['a file patched', (p) => appendFileSync(join(p.root, 'node_modules/chai/index.js'), 'exports.never = 1;'), '1 file differs from the start (index.js)'],
    [
      'a file patched, tarball not in the cache',
      (p) => {
        appendFileSync(join(p.root, 'node_modules/chai/index.js'), ';');
        rmSync(join(p.cacache, 'content-v2'), { recursive: true });
      },
      "its tarball is not in npm's cache",
    ],
    ['a file added by hand, the tarball unchanged', (p) => write(join(p.root, 'node_modules/chai/extra.js'), 'x'), null],
    [
      'another version installed than the lockfile names',
      (p) => write(join(p.root, 'node_modules/chai/package.json'), '{"name":"chai","version":"4.5.1"}'),
      'chai@4.5.1 is installed, but the lockfile names chai@4.5.0',
    ],
    [
      'a package the lockfile does not name',
      (p) => install(p.root, 'node_modules/@evil/x', { 'package.json': '{"name":"@evil/x","version":"1.0.0"}' }),
      'does not name it',
    ],
    [
      'the same version under another integrity',
      (p) => lockfile(p.root, { 'node_modules/chai': { version: '4.5.0', integrity: cache(p.cacache, { ...CHAI, 'index.js': 'x' }) } }),
      'a published version never changes',
    ],
    ['a program in .bin that is a file', (p) => write(join(p.root, 'node_modules/.bin/mocha'), '#!/bin/sh\necho "2 passing"\n'), 'a file, not a link'],
  ])('%s', (_what, change, problem) => {
    const p = project();
    change(p);
    const { problems } = compare(p);
    if (problem === null) expect(problems).toEqual([]);
    else expect(problems.map((found) => found.what).join('\n')).toContain(problem);
  });

  it('a package installed from the lockfile since (npm ci, an npm install): taken, and the record moves on', () => {
    const p = project();
    const upgraded = { ...CHAI, 'package.json': '{"name":"chai","version":"5.0.0"}', 'index.js': 'export {};\n' };
    const integrity = cache(p.cacache, upgraded);
    install(p.root, 'node_modules/chai', upgraded);
    const left = { ...upgraded, 'package.json': '{"name":"left","version":"1.0.0"}' };
    const leftIntegrity = cache(p.cacache, left);
    install(p.root, 'node_modules/left', left);
    lockfile(p.root, { 'node_modules/chai': { version: '5.0.0', integrity }, 'node_modules/left': { version: '1.0.0', integrity: leftIntegrity } });
    expect(compare(p)).toEqual({ problems: [], reinstalled: ['node_modules/chai', 'node_modules/left'], differs: true });
  });

  it('a .bin link into an installed package is checked as that package', () => {
    const p = project();
    mkdirSync(join(p.root, 'node_modules/.bin'));
    symlinkSync('../chai/index.js', join(p.root, 'node_modules/.bin/chai'));
    expect(compare(p).problems).toEqual([]);
    symlinkSync('../../evil.js', join(p.root, 'node_modules/.bin/mocha'));
    expect(compare(p).problems).toEqual([{ path: 'node_modules/.bin/mocha', what: 'a link to ../../evil.js, not into an installed package' }]);
  });
});
