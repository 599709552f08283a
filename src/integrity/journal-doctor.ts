// What `isdlc doctor` says about tamper evidence: whether the journal holds, and what waits for a person.
import type { GuardedSet } from './guarded-set.js';
import { readJournal } from './journal.js';
import { journalExpected } from './journal-adopt.js';
import type { LoopRows } from './loop-rows.js';
import { waitingForReview } from './review.js';

export interface JournalFinding {
  severity: 'ok' | 'warn' | 'fail';
  what: string;
  fix?: string;
}

export function journalFindings(root: string, guarded: GuardedSet, loopRows: () => LoopRows): JournalFinding[] {
  const read = readJournal(root);
  if (read.kind === 'missing') {
    return journalExpected(root)
      ? [
          {
            severity: 'fail',
            what: "isdlc's journal of its own writes is gone: changes to its files cannot be told apart",
            fix: 'review .isdlc/ and the settings, then run `isdlc changes accept` to start a new journal from them',
          },
        ]
      : [
          {
            severity: 'warn',
            what: "no journal of isdlc's own writes yet (a project set up by an older isdlc): the next hook call starts one",
            fix: 'or run `isdlc init` again',
          },
        ];
  }
  if (read.kind === 'broken')
    return [
      {
        severity: 'fail',
        what: `isdlc's journal cannot be read: ${read.problem}`,
        fix: 'the next hook call sets it aside and reports it; `isdlc changes accept` starts a new one',
      },
    ];
  const waiting = waitingForReview(root, guarded, loopRows);
  const findings: JournalFinding[] = [];
  if (waiting.incidents.length > 0) {
    const files = [...new Set(waiting.incidents.flatMap((incident) => incident.files.map((file) => file.path)))];
    findings.push({
      severity: 'warn',
      what: `${waiting.incidents.length} change(s) to isdlc's files made outside isdlc wait for review (${files.join(', ')})`,
      fix: '`isdlc changes` lists them; `isdlc changes accept` or `reject`',
    });
  }
  if (waiting.pending.length > 0) {
    findings.push({
      severity: 'warn',
      what: `changed on disk since isdlc wrote them: ${waiting.pending.map((change) => `${change.rel} (${change.change})`).join(', ')}; the next hook call undoes these`,
      fix: 'if you made them, keep them with `isdlc changes accept`',
    });
  }
  if (findings.length === 0)
    findings.push({ severity: 'ok', what: `tamper evidence: ${Object.keys(read.index.files).length} files as isdlc left them, nothing waits for review` });
  return findings;
}
