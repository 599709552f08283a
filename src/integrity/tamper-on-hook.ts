// The check as a hook call makes it, first of all: what it found, ready for the verdict and the log.
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ISDLC_DIR } from '../state/locate.js';
import type { GuardedSet } from './guarded-set.js';
import { hasJournal } from './journal.js';
import type { LoopRows } from './loop-rows.js';
import { checkGuardedFiles, workflowKeyFromCopy, type CheckResult } from './tamper-check.js';
import { modelNote, personMessage } from './tamper-messages.js';

export interface TamperReport {
  note?: string;
  userMessage?: string;
  /** For the activity log. */
  log?: Record<string, unknown>;
}

function logEntry(result: CheckResult): Record<string, unknown> {
  return {
    ...(result.incident ? { incident: result.incident.id } : {}),
    journal: result.journal,
    ...(result.problem ? { problem: result.problem } : {}),
    files: result.findings.map((finding) => ({ file: finding.rel, change: finding.change, outcome: finding.outcome, ...(finding.keptAs ? { kept_as: finding.keptAs } : {}) })),
    unreviewed: result.unreviewed,
  };
}

export interface HookCheckInput {
  guarded: GuardedSet;
  /** The state file this call would use, asked only when something changed. */
  stateFile: () => string;
  /** The event that runs the check, for the incident record. */
  foundBy: string;
  loopRows: () => LoopRows;
}

/** Runs the check for a project that keeps a journal (or one from before it, which it adopts). */
export function tamperCheckForHook(root: string, input: HookCheckInput): TamperReport {
  if (!hasJournal(root) && !installedByIsdlc(root)) return {};
  const result = checkGuardedFiles(root, {
    guarded: input.guarded,
    foundBy: input.foundBy,
    workflow: () => workflowKeyFromCopy(root, relative(root, input.stateFile()).split(sep).join('/')),
    loopRows: input.loopRows,
  });
  if (result.journal === 'adopted') return { log: { journal: 'adopted' } };
  if (result.findings.length === 0 && result.journal === 'ok') return {};
  return { note: modelNote(result), userMessage: personMessage(result), log: logEntry(result) };
}

/** Only a project isdlc init set up gets a journal: a bare `.isdlc/` (a test's, a fixture's) is left alone. */
function installedByIsdlc(root: string): boolean {
  return existsSync(join(root, ISDLC_DIR, 'install.json'));
}
