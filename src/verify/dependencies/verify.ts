// Whether the tests will run on the packages the lockfile names: each installed package against the record
// made when the workflow started, and, where it differs, against the tarball the lockfile's integrity
// names in npm's cache (an install from the lockfile: `npm ci`, or an `npm install` that added a package to
// the lockfile, is ordinary work). A runner or an assertion library patched inside node_modules shows in no
// `git status`; the gate's own run would take its word.
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { installedPackages, manifestOf, type InstalledProgram } from './installed.js';
import type { LockedPackage, Lockfile } from './lockfile.js';
import { cachedTarball, defaultCacache } from './npm-cache.js';
import { differingFiles, digestPackage, fileDigest } from './package-digest.js';
import { isLinkRecord, type DependencyRecord, type RecordedLink, type RecordedPackage } from './record.js';

export interface Inventory {
  packages: Record<string, RecordedPackage | RecordedLink>;
  programs: Record<string, string>;
  /** Manifests that could not be read, by package path. */
  unreadable: Record<string, string>;
  measured: { ms: number; packages: number; files: number; bytes: number };
}

/** What is installed now, digested. */
export function takeInventory(root: string, lock: Extract<Lockfile, { kind: 'npm' }>): Inventory {
  const started = performance.now();
  const installed = installedPackages(root, lock.workspaces);
  const packages: Inventory['packages'] = {};
  const unreadable: Record<string, string> = {};
  let files = 0;
  let bytes = 0;
  for (const folder of installed.folders) {
    if (folder.link !== undefined) {
      packages[folder.path] = { link: folder.link };
      continue;
    }
    const dir = join(root, folder.path);
    const manifest = manifestOf(dir);
    if ('problem' in manifest) unreadable[folder.path] = manifest.problem;
    const digest = digestPackage(dir);
    const locked = lock.packages.get(folder.path);
    packages[folder.path] = {
      name: 'problem' in manifest ? '' : manifest.name,
      version: 'problem' in manifest ? '' : manifest.version,
      ...(locked?.integrity ? { integrity: locked.integrity } : {}),
      digest: digest.digest,
      files: digest.files,
    };
    files += Object.keys(digest.files).length;
    bytes += digest.bytes;
  }
  const programs: Record<string, string> = {};
  for (const program of installed.programs) {
    if (!pointsIntoPackage(program, lock)) programs[program.path] = programValue(root, program);
  }
  return { packages, programs, unreadable, measured: { ms: Math.round(performance.now() - started), packages: installed.folders.length, files, bytes } };
}

/** A `.bin` link into a package the lockfile names: that package's content is what is checked. */
function pointsIntoPackage(program: InstalledProgram, lock: Extract<Lockfile, { kind: 'npm' }>): boolean {
  const target = program.target;
  if (!target) return false;
  for (let folder = posix.dirname(target); folder.includes('node_modules/'); folder = posix.dirname(folder)) {
    if (lock.packages.has(folder)) return true;
  }
  return false;
}

function programValue(root: string, program: InstalledProgram): string {
  if (program.link !== undefined) return `link:${program.link}`;
  try {
    return `file:${fileDigest(readFileSync(join(root, program.path)))}`;
  } catch {
    return 'unreadable';
  }
}

/** One package the gate does not take as installed from the lockfile, and why. */
export interface DependencyProblem {
  path: string;
  what: string;
}

export interface Comparison {
  problems: DependencyProblem[];
  /** Packages that differ from the record and equal what the lockfile names (an install from the lockfile). */
  reinstalled: string[];
  /** Anything differs from the record: the record is brought up to date when there is no problem. */
  differs: boolean;
}

const FILES_NAMED = 3;

function fileList(paths: string[]): string {
  return `${paths.slice(0, FILES_NAMED).join(', ')}${paths.length > FILES_NAMED ? ` and ${paths.length - FILES_NAMED} more` : ''}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "1 file differs from …: lib/chai/core/assertions.js" from two packages' file digests. */
function changedSinceRecord(before: Record<string, string>, after: Record<string, string>, since: string): string {
  const { changed, added, removed } = differingFiles(before, after);
  const parts: string[] = [];
  if (changed.length > 0) parts.push(`${plural(changed.length, 'file')} ${changed.length === 1 ? 'differs' : 'differ'} from ${since} (${fileList(changed)})`);
  if (added.length > 0) parts.push(`${plural(added.length, 'file')} added (${fileList(added)})`);
  if (removed.length > 0) parts.push(`${plural(removed.length, 'file')} removed (${fileList(removed)})`);
  return parts.join(', ') || `its content differs from ${since}`;
}

/** Whether the installed package is the tarball the lockfile names; else why not. */
function equalsTarball(current: RecordedPackage, locked: LockedPackage, cacache: string): { ok: true } | { ok: false; why: string; missing: boolean } {
  if (!locked.integrity) return { ok: false, why: 'the lockfile names no integrity to check it against', missing: true };
  const tarball = cachedTarball(locked.integrity, cacache);
  if (tarball.kind !== 'ok') return { ok: false, why: tarball.why, missing: tarball.kind === 'missing' };
  const differing: string[] = [];
  for (const [path, content] of tarball.files) if (current.files[path] !== fileDigest(content)) differing.push(path);
  // Files the tarball does not have are allowed: an install script may add them.
  if (differing.length === 0) return { ok: true };
  const script = locked.installScript ? ' (it has an install script, which may have changed them)' : '';
  return {
    ok: false,
    why: `${plural(differing.length, 'file')} ${differing.length === 1 ? 'differs' : 'differ'} from the tarball the lockfile names (${fileList(differing)})${script}`,
    missing: false,
  };
}

/** The installed packages now against the record and the lockfile. */
export function compareDependencies(
  root: string,
  record: DependencyRecord,
  inventory: Inventory,
  lock: Extract<Lockfile, { kind: 'npm' }>,
  since: string,
  cacache = defaultCacache(),
): Comparison {
  const problems: DependencyProblem[] = [];
  const reinstalled: string[] = [];
  let differs = JSON.stringify(Object.keys(record.packages).sort()) !== JSON.stringify(Object.keys(inventory.packages).sort());
  const problem = (path: string, what: string): void => {
    problems.push({ path, what });
  };
  for (const [path, current] of Object.entries(inventory.packages)) {
    const locked = lock.packages.get(path);
    const recorded = record.packages[path];
    if (isLinkRecord(current)) {
      if (locked?.link !== undefined) {
        const named = join(root, locked.link);
        if (join(root, dirname(path), current.link) !== named) problem(path, `a link to ${current.link}, but the lockfile names ${locked.link}`);
      } else if (!recorded || !isLinkRecord(recorded) || recorded.link !== current.link) {
        problem(path, `a link (to ${current.link}) the lockfile does not name`);
      }
      if (!recorded || !isLinkRecord(recorded) || recorded.link !== current.link) differs = true;
      continue;
    }
    const unreadable = inventory.unreadable[path];
    const same = recorded !== undefined && !isLinkRecord(recorded) && recorded.digest === current.digest;
    if (!same) differs = true;
    if (!locked) {
      if (!same) problem(path, `installed, and ${lock.file} does not name it${recorded ? `, and its content also differs from ${since}` : ''}`);
      continue;
    }
    if (locked.link !== undefined) {
      problem(path, `a folder where the lockfile names a link to ${locked.link}`);
      continue;
    }
    if (unreadable || current.name !== locked.name || current.version !== locked.version) {
      problem(
        path,
        unreadable
          ? `${unreadable}, and the lockfile names ${locked.name}@${locked.version}`
          : `${current.name}@${current.version} is installed, but the lockfile names ${locked.name}@${locked.version}`,
      );
      continue;
    }
    // A published version never changes: the same version under another integrity is not the registry's.
    const before = recorded && !isLinkRecord(recorded) ? recorded : undefined;
    if (before?.integrity && locked.integrity && before.version === locked.version && before.integrity !== locked.integrity) {
      problem(path, `the lockfile names another integrity for ${locked.name}@${locked.version} than ${since} had, and a published version never changes`);
      continue;
    }
    if (same) continue;
    const tarball = equalsTarball(current, locked, cacache);
    if (tarball.ok) {
      reinstalled.push(path);
      continue;
    }
    const seen = before ? changedSinceRecord(before.files, current.files, since) : `it is not in ${since}`;
    problem(path, `${seen}, and ${tarball.why}`);
  }
  for (const [path, value] of Object.entries(inventory.programs)) {
    if (record.programs[path] === value) continue;
    differs = true;
    const what = value.startsWith('link:') ? `a link to ${value.slice(5)}, not into an installed package` : 'a file, not a link into an installed package';
    problem(path, `${what}${path in record.programs ? `, and it differs from ${since}` : ''}`);
  }
  if (Object.keys(record.programs).some((path) => !(path in inventory.programs))) differs = true;
  return { problems, reinstalled, differs };
}

/** `node_modules/chai: …` lines, at most `limit`, with how many more. */
export function describeProblems(problems: readonly DependencyProblem[], limit = 5): string {
  const named = problems.slice(0, limit).map((problem) => `${problem.path}: ${problem.what}`);
  return `${named.join('; ')}${problems.length > limit ? `; and ${problems.length - limit} more` : ''}`;
}
