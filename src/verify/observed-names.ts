// The names of the tests in a run the hooks observed, kept in the workflow's record of names
// (test-names-record.ts) with the digest of the files it ran on: what the gate's own run is compared with.
import { isAbsolute, join } from 'node:path';
import { worktreeDigest } from '../detect/worktree-digest.js';
import { workflowKeyOf } from '../integrity/workflow-key.js';
import type { IsdlcState } from '../state/schema.js';
import { jsonReportNames, reportWrittenSince } from '../testwatch/reporter-names.js';
import type { RunSummary } from '../testwatch/runner-summary.js';
import { readTestNames, wholeList } from '../testwatch/test-names.js';
import { recordRunNames, type NamesRun } from './test-names-record.js';

export interface ObservedRun {
  root: string;
  state: IsdlcState;
  phase: string;
  command: string;
  output: string;
  summary: RunSummary | undefined;
  at: string;
  /** A JSON reporter file the phase names, and since when this run could have written it (JUnit is read at the gate only). */
  reporter?: { file: string; since: number };
}

/** Records the run's names; undefined where it names none in full (the count floor alone then holds it). */
export function recordObservedNames(observed: ObservedRun): NamesRun | undefined {
  const key = workflowKeyOf(observed.state);
  if (!key) return undefined;
  const reporter = observed.reporter && !observed.reporter.file.endsWith('.xml') ? observed.reporter : undefined;
  const text = reporter ? reportWrittenSince(isAbsolute(reporter.file) ? reporter.file : join(observed.root, reporter.file), reporter.since) : null;
  const names = wholeList((text !== null ? jsonReportNames(text) : null) ?? readTestNames(observed.output, observed.command), observed.summary);
  if (!names) return undefined;
  const tree = worktreeDigest(observed.root);
  return recordRunNames(
    observed.root,
    key,
    { at: observed.at, by: 'observed', command: observed.command, phase: observed.phase, ...(tree ? { tree } : {}) },
    names,
  );
}
