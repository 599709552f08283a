// The installed packages at the three moments that matter: recorded when a workflow starts, checked before
// the gate runs the tests (the `dependencies_verified` requirement), and accepted by a person as they are
// (`isdlc tests accept`). Only files are read; nothing in node_modules runs, and npm's config is not read.
import { clockTime } from '../test-definition.js';
import { readLockfile, type Lockfile } from './lockfile.js';
import { defaultCacache } from './npm-cache.js';
import { DEPENDENCY_RECORD, readDependencyRecord, writeDependencyRecord, type DependencyAcceptance, type DependencyRecord } from './record.js';
import { compareDependencies, describeProblems, takeInventory, type DependencyProblem, type Inventory } from './verify.js';

export const DEPENDENCIES_REQUIREMENT = 'dependencies_verified';

export interface DependencyVerdict {
  met: boolean;
  detail: string;
  action?: string;
  problems: DependencyProblem[];
  /** What the check read and how long it took, when it digested the packages. */
  measured?: Inventory['measured'];
}

export interface DependencyOptions {
  now: Date;
  /** npm's content store (tests name their own). */
  cacache?: string;
}

const ACCEPTANCES_KEPT = 10;

type NpmLock = Extract<Lockfile, { kind: 'npm' }>;

/** What the record is of, for messages: "what was installed when the workflow started (10:42 UTC)". */
export function recordSince(record: DependencyRecord, now = new Date()): string {
  const when = clockTime(record.recorded_at, now);
  return record.recorded_because === 'the workflow started'
    ? `what was installed when the workflow started (${when})`
    : `what was recorded at ${when} (${record.recorded_because})`;
}

function recordOf(inventory: Inventory, lock: NpmLock, now: Date, because: string, accepted?: DependencyAcceptance[]): DependencyRecord {
  return {
    version: 1,
    lockfile: lock.file,
    recorded_at: now.toISOString(),
    recorded_because: because,
    packages: inventory.packages,
    programs: inventory.programs,
    ...(accepted && accepted.length > 0 ? { accepted: accepted.slice(-ACCEPTANCES_KEPT) } : {}),
    measured: inventory.measured,
  };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const PERSON_ACCEPTS = 'a person (not the agent) runs `isdlc tests accept` in their own terminal';

/** Where the lockfile leaves nothing to verify: why, as a met verdict; null when there is an npm lockfile. */
function notVerified(lock: Lockfile): DependencyVerdict | null {
  if (lock.kind === 'none') return { met: true, detail: 'the project has no npm lockfile: its installed packages are not verified', problems: [] };
  if (lock.kind === 'unverified') return { met: true, detail: `${lock.why}: its installed packages are not verified`, problems: [] };
  if (lock.kind === 'broken') {
    return {
      met: false,
      detail: `${lock.file} cannot be read (${lock.problem}), so the installed packages cannot be compared with it`,
      action: `put ${lock.file} back in order (\`npm install\` writes it), then complete the phase again`,
      problems: [],
    };
  }
  return null;
}

/**
 * The installed packages against the record and the lockfile. `write`: where nothing is wrong and some
 * packages were installed from the lockfile since, the record takes them (the gate does; `isdlc tests`
 * only looks).
 */
export function checkDependencies(root: string, options: DependencyOptions & { write: boolean }): DependencyVerdict {
  const lock = readLockfile(root);
  const read = readDependencyRecord(root);
  // A lockfile that went away (or turned into another manager's) does not turn the check off.
  if (read.kind === 'ok' && lock.kind !== 'npm' && lock.kind !== 'broken') {
    return {
      met: false,
      detail: `the installed packages were recorded against ${read.record.lockfile}, and ${lock.kind === 'none' ? 'the project has no npm lockfile now' : lock.why}`,
      action: `put ${read.record.lockfile} back; if the project changed package manager on purpose, stop and tell the user: ${PERSON_ACCEPTS}`,
      problems: [],
    };
  }
  const skipped = notVerified(lock);
  if (skipped) return skipped;
  const npm = lock as NpmLock;
  if (read.kind === 'missing') {
    return {
      met: true,
      detail: `no record of the installed packages (${DEPENDENCY_RECORD} is written when a workflow starts with an npm lockfile): not verified in this workflow`,
      problems: [],
    };
  }
  if (read.kind === 'broken') {
    return {
      met: false,
      detail: `the record of the installed packages cannot be read (${read.problem})`,
      action: `stop and tell the user: ${PERSON_ACCEPTS} to record the packages as they are installed now`,
      problems: [],
    };
  }
  const inventory = takeInventory(root, npm);
  const since = recordSince(read.record, options.now);
  const comparison = compareDependencies(root, read.record, inventory, npm, since, options.cacache ?? defaultCacache());
  const took = `read ${inventory.measured.packages} packages in ${seconds(inventory.measured.ms)}`;
  if (comparison.problems.length > 0) {
    const count = comparison.problems.length;
    return {
      met: false,
      detail: `${count === 1 ? '1 installed package is' : `${count} installed packages are`} not what ${npm.file} installs: ${describeProblems(comparison.problems)}`,
      action:
        'the tests run on the packages the lockfile names: undo any change to node_modules (`npm ci` reinstalls from the lockfile), and install a package with `npm install <name>`, which names it in the lockfile; ' +
        `if the packages are right as they are, stop and tell the user: ${PERSON_ACCEPTS}`,
      problems: comparison.problems,
      measured: inventory.measured,
    };
  }
  if (comparison.differs && options.write) {
    const because = comparison.reinstalled.length > 0 ? `installed from ${npm.file}: ${describeNames(comparison.reinstalled)}` : `packages removed`;
    writeDependencyRecord(root, recordOf(inventory, npm, options.now, because, read.record.accepted));
  }
  const reinstalled = comparison.reinstalled.length > 0 ? `; installed from the lockfile since: ${describeNames(comparison.reinstalled)}` : '';
  return {
    met: true,
    detail: `the ${inventory.measured.packages} installed packages are ${since} or what ${npm.file} names (${took})${reinstalled}`,
    problems: [],
    measured: inventory.measured,
  };
}

function describeNames(paths: readonly string[], limit = 5): string {
  return `${paths.slice(0, limit).join(', ')}${paths.length > limit ? ` and ${paths.length - limit} more` : ''}`;
}

/**
 * At workflow start: the packages as installed now become the record, unless a record holds changes no
 * person accepted yet (starting a workflow again accepts nothing). Returns a line for the start's message
 * when something is worth saying.
 */
export function recordDependenciesAtStart(root: string, options: DependencyOptions): string | undefined {
  const lock = readLockfile(root);
  if (lock.kind !== 'npm') return undefined;
  const read = readDependencyRecord(root);
  if (read.kind === 'broken') return `The record of the installed packages cannot be read (${read.problem}); a person runs \`isdlc tests accept\`.`;
  const inventory = takeInventory(root, lock);
  if (read.kind === 'ok') {
    const comparison = compareDependencies(root, read.record, inventory, lock, recordSince(read.record, options.now), options.cacache ?? defaultCacache());
    if (comparison.problems.length > 0) {
      return `Installed packages changed since ${recordSince(read.record, options.now)} and no person accepted it: ${describeProblems(comparison.problems, 3)}. The gate holds them until \`isdlc tests accept\` or \`npm ci\`.`;
    }
  }
  writeDependencyRecord(root, recordOf(inventory, lock, options.now, 'the workflow started', read.kind === 'ok' ? read.record.accepted : undefined));
  return undefined;
}

/** What `isdlc tests` lists: the packages not as the lockfile installs them, or null when there are none to accept. */
export function pendingDependencyChanges(root: string, now: Date, cacache?: string): DependencyVerdict | null {
  const verdict = checkDependencies(root, { now, write: false, ...(cacache ? { cacache } : {}) });
  // A lockfile that does not parse is mended, not accepted: accepting records packages against a lockfile.
  return verdict.met || readLockfile(root).kind === 'broken' ? null : verdict;
}

/** A person's acceptance: the packages as installed now become the record, with who accepted which. */
export function acceptInstalledDependencies(root: string, by: string, now: Date, problems: readonly DependencyProblem[]): void {
  const lock = readLockfile(root);
  if (lock.kind !== 'npm') {
    // No npm lockfile any more, by the person's word: nothing is left to record against.
    writeDependencyRecord(root, null);
    return;
  }
  const read = readDependencyRecord(root);
  const earlier = read.kind === 'ok' ? (read.record.accepted ?? []) : [];
  const accepted: DependencyAcceptance = { by, at: now.toISOString(), packages: problems.map((problem) => `${problem.path}: ${problem.what}`) };
  writeDependencyRecord(root, recordOf(takeInventory(root, lock), lock, now, `${by} accepted it`, [...earlier, accepted]));
}
