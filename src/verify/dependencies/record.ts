// The record of the installed packages: `.isdlc/dependencies.json`, isdlc's own file, written through the
// journal like every file under `.isdlc/`, so a change anyone else makes to it is found and put back at
// the next hook call and holds the gate until then. It is kept apart from state.json, which every hook
// call reads: it holds a digest of each installed file, some hundreds of kilobytes in a usual project.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { journaledWrite } from '../../integrity/journal.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { ISDLC_DIR } from '../../state/locate.js';
import { isRecord } from '../../util/json.js';

export const DEPENDENCY_RECORD = `${ISDLC_DIR}/dependencies.json`;

export interface RecordedPackage {
  name: string;
  version: string;
  integrity?: string;
  digest: string;
  /** Each file's digest by its path in the package (package-digest.ts). */
  files: Record<string, string>;
}

export interface RecordedLink {
  /** The path the folder's link names, as written. */
  link: string;
}

export interface DependencyAcceptance {
  by: string;
  at: string;
  /** The packages that had changed, as the person was shown them. */
  packages: string[];
}

export interface DependencyRecord {
  version: 1;
  /** The lockfile it was compared with. */
  lockfile: string;
  recorded_at: string;
  /** Why it was written then: "the workflow started", "an install from the lockfile", "dev accepted it". */
  recorded_because: string;
  packages: Record<string, RecordedPackage | RecordedLink>;
  /** The `.bin` programs that are not links into an installed package: `link:<path>` or `file:<digest>`. */
  programs: Record<string, string>;
  /** The last acceptances by a person, newest last. */
  accepted?: DependencyAcceptance[];
  /** How long digesting the installed packages took, and how much it read. */
  measured?: { ms: number; packages: number; files: number; bytes: number };
}

export const isLinkRecord = (entry: RecordedPackage | RecordedLink): entry is RecordedLink => typeof (entry as RecordedLink).link === 'string';

/** Whether the project has a record (a look at the file's existence only: the gate-blocker hook asks). */
export function hasDependencyRecord(root: string): boolean {
  return statSync(join(root, DEPENDENCY_RECORD), { throwIfNoEntry: false })?.isFile() === true;
}

export type RecordRead = { kind: 'ok'; record: DependencyRecord } | { kind: 'missing' } | { kind: 'broken'; problem: string };

export function readDependencyRecord(root: string): RecordRead {
  let text: string;
  try {
    text = readFileSync(join(root, DEPENDENCY_RECORD), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'broken', problem: (error as Error).message };
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed) && parsed['version'] === 1 && isRecord(parsed['packages']) && isRecord(parsed['programs'])) {
      return { kind: 'ok', record: parsed as unknown as DependencyRecord };
    }
    return { kind: 'broken', problem: `${DEPENDENCY_RECORD} is not a record of installed packages` };
  } catch (error) {
    return { kind: 'broken', problem: `${DEPENDENCY_RECORD} is not JSON (${(error as Error).message})` };
  }
}

/** Writes the record as isdlc's own file (the journal keeps its copy); null removes it. */
export function writeDependencyRecord(root: string, record: DependencyRecord | null): void {
  const path = join(root, DEPENDENCY_RECORD);
  if (record === null) {
    journaledWrite(root, DEPENDENCY_RECORD, null, () => rmSync(path, { force: true }));
    return;
  }
  const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
  journaledWrite(root, DEPENDENCY_RECORD, bytes, () => writeFileAtomic(path, bytes));
}
