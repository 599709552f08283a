// The tamper check past its first look, as a hook call or a state write needs it: judge what moved, undo
// what isdlc did not write, and say so. Only called when the first look (suspects.ts) found something, so
// in a build this is a bundle of its own (dist/tamper.cjs, load-tamper.ts), outside every hook call that
// finds isdlc's files as it left them.
import { relative, sep } from 'node:path';
import { checkGuardedFiles, verifyBeforeWrite, workflowKeyFromCopy, type CheckOptions, type CheckResult, type Finding } from './tamper-check.js';
import { modelNote, personMessage } from './tamper-messages.js';
import type { GuardedSet } from './guarded-set.js';
import type { LoopRows } from './loop-rows.js';

export interface TamperReport {
  note?: string;
  userMessage?: string;
  /** For the activity log. */
  log?: Record<string, unknown>;
}

export interface HookCheckInput {
  guarded: GuardedSet;
  /** The state file this call would use, asked only when something changed. */
  stateFile: () => string;
  /** The event that runs the check, for the incident record. */
  foundBy: string;
  loopRows: () => LoopRows;
}

function logEntry(result: CheckResult): Record<string, unknown> {
  return {
    ...(result.incident ? { incident: result.incident.id } : {}),
    journal: result.journal,
    ...(result.problem ? { problem: result.problem } : {}),
    files: result.findings.map((finding) => ({
      file: finding.rel,
      change: finding.change,
      outcome: finding.outcome,
      ...(finding.keptAs ? { kept_as: finding.keptAs } : {}),
    })),
    unreviewed: result.unreviewed,
  };
}

/** The whole check, as a hook call reports it. */
export function checkForHook(root: string, input: HookCheckInput): TamperReport {
  const result = checkGuardedFiles(root, {
    guarded: input.guarded,
    foundBy: input.foundBy,
    workflow: () => workflowKeyFromCopy(root, relative(root, input.stateFile()).split(sep).join('/')),
    loopRows: input.loopRows,
  });
  if (result.journal === 'adopted') return { log: { journal: 'adopted' } };
  if (result.journal === 'displaced') return { log: { journal: 'displaced', problem: result.problem } };
  if (result.findings.length === 0 && result.journal === 'ok') return {};
  return { note: modelNote(result), userMessage: personMessage(result), log: logEntry(result) };
}

/** For a state write whose file's stat moved (journaled-state.ts): the file put back first when forged. */
export function verifyStateBeforeWrite(root: string, rel: string, options: Omit<CheckOptions, 'workflow'>): Finding | undefined {
  return verifyBeforeWrite(root, rel, { ...options, workflow: () => workflowKeyFromCopy(root, rel) });
}
