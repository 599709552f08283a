// The tests seen by name in the active workflow: for each runner and test, the outcomes its runs gave, by
// which run (the gate's own or one the hooks observed), when, and on which files. Kept out of state.json
// (read on every hook call) in a file of isdlc's own, `.isdlc/test-names.json`, written through the journal
// like state: a change isdlc did not make is put back at the next hook call, and before the gate reads it.
// Bounded: at most MAX_NAMES tests and RUNS_KEPT runs; a run with more names keeps its count and a digest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GuardedSet } from '../integrity/guarded-set.js';
import { fileStamp, hasJournal, journaledWrite, readJournal, sameStamp } from '../integrity/journal.js';
import { loadTamper } from '../integrity/load-tamper.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { withLock } from '../state/lock.js';
import type { NameOutcome, RunNames } from '../testwatch/test-names.js';

export const TEST_NAMES_FILE = '.isdlc/test-names.json';
const MAX_NAMES = 4000;
const RUNS_KEPT = 40;
const SIGHTINGS_KEPT = 4;
const ACCEPTANCES_KEPT = 20;

export interface NamesRun {
  id: number;
  at: string;
  by: 'gate' | 'observed';
  runner: string;
  command: string;
  phase: string;
  /** The digest of the project's files when it ran (detect/worktree-digest.ts), where git could make one. */
  tree?: string;
  /** How many tests it named, how many of them the record keeps, and a digest of them all. */
  named: number;
  kept: number;
  digest: string;
}

/** One outcome of a test: [the run's id, the outcome]. */
export type Sighting = [number, NameOutcome];

export interface NamesAcceptance {
  at: string;
  by: string;
  runner: string;
  names: string[];
}

export interface NamesRecord {
  version: 1;
  /** The workflow these are from: `<type>@<started_at>`; another workflow's record counts for nothing. */
  workflow: string;
  next: number;
  runs: NamesRun[];
  /** runner → test → its newest outcomes, oldest first. */
  tests: Record<string, Record<string, Sighting[]>>;
  accepted: NamesAcceptance[];
}

export function emptyRecord(workflow: string): NamesRecord {
  return { version: 1, workflow, next: 1, runs: [], tests: {}, accepted: [] };
}

function parse(text: string, workflow: string): NamesRecord {
  try {
    const record = JSON.parse(text) as NamesRecord;
    if (record?.version === 1 && record.workflow === workflow && Array.isArray(record.runs) && typeof record.tests === 'object') return record;
  } catch {
    // unreadable: start over
  }
  return emptyRecord(workflow);
}

const ISDLC_FILES = new GuardedSet([]);

/**
 * The record of `workflow` as isdlc last wrote it. A file whose stat moved since isdlc's write is judged
 * first, the way a state write judges state: what isdlc did not write is put back and reported.
 */
export function readNamesRecord(root: string, workflow: string): NamesRecord {
  const read = hasJournal(root) ? readJournal(root) : undefined;
  const entry = read?.kind === 'ok' ? read.index.files[TEST_NAMES_FILE] : undefined;
  if (entry && !sameStamp(fileStamp(root, TEST_NAMES_FILE), entry.stamp)) {
    loadTamper().verifyStateBeforeWrite(root, TEST_NAMES_FILE, { guarded: ISDLC_FILES, foundBy: 'a read of the test names' });
  }
  try {
    return parse(readFileSync(join(root, TEST_NAMES_FILE), 'utf8'), workflow);
  } catch {
    return emptyRecord(workflow);
  }
}

/** Reads, changes and writes the record under its own lock, through the journal. */
export function updateNamesRecord<T>(root: string, workflow: string, work: (record: NamesRecord) => T): T {
  const path = join(root, TEST_NAMES_FILE);
  return withLock(path, () => {
    const record = readNamesRecord(root, workflow);
    const result = work(record);
    const text = `${JSON.stringify(record)}\n`;
    journaledWrite(root, TEST_NAMES_FILE, Buffer.from(text), () => writeFileAtomic(path, text));
    return result;
  });
}

export interface RunAbout {
  at: string;
  by: 'gate' | 'observed';
  command: string;
  phase: string;
  tree?: string;
}

function digestOf(names: RunNames): string {
  const lines = names.tests.map((test) => `${test.outcome} ${test.name}`).sort();
  // Loaded here, not at the top: every tool result loads this module, and few of them record names.
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** The newest run id that saw the test, for keeping the most recently seen when over the bound. */
const newest = (sightings: Sighting[]): number => sightings.at(-1)?.[0] ?? 0;

/** Adds a run's names to the record; returns the run as recorded. */
export function addRunNames(record: NamesRecord, about: RunAbout, names: RunNames): NamesRun {
  const run: NamesRun = {
    id: record.next,
    ...about,
    runner: names.runner,
    named: names.tests.length,
    kept: names.tests.length,
    digest: digestOf(names),
  };
  if (about.tree === undefined) delete run.tree;
  record.next += 1;
  const tests = (record.tests[names.runner] ??= {});
  for (const test of names.tests) tests[test.name] = [...(tests[test.name] ?? []), [run.id, test.outcome] as Sighting].slice(-SIGHTINGS_KEPT);
  record.runs.push(run);
  // Runs beyond the bound go, and with them the outcomes they gave.
  const dropped = new Set(record.runs.slice(0, Math.max(0, record.runs.length - RUNS_KEPT)).map((old) => old.id));
  record.runs = record.runs.slice(-RUNS_KEPT);
  const all: [string, string, Sighting[]][] = [];
  for (const [runner, byName] of Object.entries(record.tests)) {
    for (const [name, sightings] of Object.entries(byName)) {
      const kept = dropped.size > 0 ? sightings.filter(([id]) => !dropped.has(id)) : sightings;
      if (kept.length === 0) delete byName[name];
      else {
        byName[name] = kept;
        all.push([runner, name, kept]);
      }
    }
  }
  if (all.length > MAX_NAMES) {
    // The tests seen longest ago go first; the run says how many of its own names it kept.
    all.sort((a, b) => newest(b[2]) - newest(a[2]));
    for (const [runner, name] of all.slice(MAX_NAMES)) delete record.tests[runner]![name];
    run.kept = Object.values(record.tests[names.runner] ?? {}).filter((sightings) => sightings.some(([id]) => id === run.id)).length;
  }
  return run;
}

/** Records a run's names in the workflow's record (the file), and returns the run as recorded. */
export function recordRunNames(root: string, workflow: string, about: RunAbout, names: RunNames): NamesRun {
  return updateNamesRecord(root, workflow, (record) => addRunNames(record, about, names));
}

/** A person accepted that these tests no longer pass: they stop counting until a run names them again. */
export function acceptNames(record: NamesRecord, runner: string, names: readonly string[], by: string, at: string): void {
  const tests = record.tests[runner] ?? {};
  for (const name of names) delete tests[name];
  record.accepted = [...record.accepted, { at, by, runner, names: [...names] }].slice(-ACCEPTANCES_KEPT);
}
