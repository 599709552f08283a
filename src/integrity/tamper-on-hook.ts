// The check as a hook call makes it, first of all: a first look at the stats (suspects.ts); only when it
// finds something is the judging loaded (load-tamper.ts), and what it found made ready for the verdict
// and the log.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ISDLC_DIR } from '../state/locate.js';
import { displacedIsdlc } from './displaced.js';
import { hasJournal, readJournal } from './journal.js';
import { loadTamper } from './load-tamper.js';
import { anySuspect, suspects } from './suspects.js';
import type { HookCheckInput, TamperReport } from './tamper-report.js';

export type { HookCheckInput, TamperReport };

/** Runs the check for a project that keeps a journal (or one from before it, which it adopts). */
export function tamperCheckForHook(root: string, input: HookCheckInput): TamperReport {
  // Judged by nothing (displaced.ts): the install check tells the model and the person, and closes the gate.
  const displaced = displacedIsdlc(root);
  if (displaced) return { log: { journal: 'displaced', problem: displaced } };
  if (!hasJournal(root) && !installedByIsdlc(root)) return {};
  // Nothing moved since isdlc's last write: done, without loading the judging. A journal that is missing or
  // unreadable is the judging's to handle.
  const read = readJournal(root);
  if (read.kind === 'ok' && !anySuspect(suspects(root, read.index))) return {};
  return loadTamper().checkForHook(root, input);
}

/** Only a project isdlc init set up gets a journal: a bare `.isdlc/` (a test's, a fixture's) is left alone. */
function installedByIsdlc(root: string): boolean {
  return existsSync(join(root, ISDLC_DIR, 'install.json'));
}
