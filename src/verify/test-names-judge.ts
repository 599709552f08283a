// What the names of the gate's run say against the tests seen earlier in the workflow: a test that ran
// (passing or failing) in an earlier run of the same runner and is missing from the gate's run, or skipped
// or todo there, no longer passes; and a test that failed in a run of the agent's on the very files the
// gate's run had, and passes in the gate's run, behaves differently when the gate runs it.
import type { NameOutcome } from '../testwatch/test-names.js';
import type { NamesRecord, NamesRun } from './test-names-record.js';

export interface VanishedTest {
  name: string;
  /** How it ended when last seen running, and in which run. */
  was: NameOutcome;
  seen: NamesRun;
  /** What the gate's run says of it now. */
  now: 'missing' | 'skipped' | 'todo';
}

export interface ChangedUnderGate {
  name: string;
  observed: NamesRun;
}

export interface NamesVerdict {
  vanished: VanishedTest[];
  changed: ChangedUnderGate[];
  /** The gate's run named more tests than the record keeps: a missing test cannot be told from one not kept. */
  partial: boolean;
}

/** The gate's run `run` judged against the record's earlier runs of its runner. */
export function judgeNames(record: NamesRecord, run: NamesRun): NamesVerdict {
  const runs = new Map(record.runs.map((kept) => [kept.id, kept]));
  const tests = record.tests[run.runner] ?? {};
  const partial = run.kept < run.named;
  const vanished: VanishedTest[] = [];
  for (const [name, sightings] of Object.entries(tests)) {
    const now = sightings.find(([id]) => id === run.id)?.[1];
    if (now === 'passed' || now === 'failed' || (now === undefined && partial)) continue;
    const before = sightings.filter(([id, outcome]) => id < run.id && (outcome === 'passed' || outcome === 'failed')).at(-1);
    const seen = before ? runs.get(before[0]) : undefined;
    if (before && seen) vanished.push({ name, was: before[1], seen, now: now ?? 'missing' });
  }
  // The agent's runs of this runner on the very files the gate's run had: a test one of them failed, which
  // the gate's run passes, behaves differently when the gate runs it (or from run to run).
  const sameFiles = record.runs.filter(
    (kept) => kept.by === 'observed' && kept.runner === run.runner && kept.id < run.id && kept.tree && kept.tree === run.tree,
  );
  const changed: ChangedUnderGate[] = [];
  for (const [name, sightings] of Object.entries(tests)) {
    if (sightings.find(([id]) => id === run.id)?.[1] !== 'passed') continue;
    const failedIn = sameFiles.filter((kept) => sightings.some(([id, outcome]) => id === kept.id && outcome === 'failed')).at(-1);
    if (failedIn) changed.push({ name, observed: failedIn });
  }
  vanished.sort((a, b) => b.seen.id - a.seen.id || a.name.localeCompare(b.name));
  return { vanished, changed, partial };
}

const clock = (iso: string): string => iso.slice(11, 16);
const LISTED = 5;

function listed<T>(items: T[], say: (item: T) => string): string {
  const shown = items.slice(0, LISTED).map(say).join('; ');
  return items.length > LISTED ? `${shown}; and ${items.length - LISTED} more` : shown;
}

/** "3 tests seen earlier do not pass now: `slug > keeps digits` failed at 10:42, is todo now; …" */
export function describeVanished(vanished: VanishedTest[]): string {
  const now = { missing: 'is missing now', skipped: 'is skipped now', todo: 'is todo now' };
  const count = vanished.length === 1 ? '1 test seen earlier does' : `${vanished.length} tests seen earlier do`;
  return `${count} not pass now: ${listed(vanished, (test) => `\`${test.name}\` ${test.was} at ${clock(test.seen.at)} (${test.seen.by === 'gate' ? "the gate's run" : `\`${test.seen.command}\``}), ${now[test.now]}`)}`;
}

export function describeChanged(changed: ChangedUnderGate[]): string {
  return `${listed(changed, (test) => `\`${test.name}\` failed in the agent's run at ${clock(test.observed.at)}`)} and passed in the gate's run on the same files: ${changed.length === 1 ? 'a test that behaves' : 'tests that behave'} differently when the gate runs ${changed.length === 1 ? 'it' : 'them'}`;
}
