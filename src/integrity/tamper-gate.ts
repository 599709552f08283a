// The gate's view of tamper evidence: a lost journal, or a third unreviewed change to isdlc's files within
// the workflow, keeps the phase gate closed until a person reviews (`isdlc changes accept|reject`); so do a
// displaced .isdlc (until a person moves it back) and a change no hook call has put back yet.
import type { IsdlcState } from '../state/schema.js';
import { DISPLACED_REPAIR, displacedIsdlc } from './displaced.js';
import { GuardedSet } from './guarded-set.js';
import { readJournal, type Incident } from './journal.js';
import { pendingChanges } from './tamper-check.js';
import { REVIEW_COMMAND, TAMPER_ESCALATION } from './tamper-messages.js';
import { workflowKeyOf } from './workflow-key.js';

export interface TamperGate {
  closed: boolean;
  detail: string;
  action: string;
}

/** isdlc's own files, whatever hosts the project has. */
const ISDLC_FILES = new GuardedSet([]);

const lostJournal = (incident: Incident): boolean => incident.files.some((file) => file.path === '.isdlc/journal');

/** undefined when nothing is waiting for review in this workflow. */
export function tamperGate(root: string, state: IsdlcState | null): TamperGate | undefined {
  const displaced = displacedIsdlc(root);
  if (displaced) return { closed: true, detail: `${displaced}: nothing isdlc recorded there can be vouched for`, action: DISPLACED_REPAIR };
  const read = readJournal(root);
  if (read.kind !== 'ok') return undefined; // the next hook call finds and reports a lost journal
  // A change no hook call has put back yet (none came since, or the one that came could not write): the
  // gate is not judged on it.
  const pending = pendingChanges(root, ISDLC_FILES);
  if (pending.length > 0) {
    return {
      closed: true,
      detail: `isdlc's files changed outside isdlc and are not put back yet: ${pending.map((change) => `${change.rel} (${change.change})`).join(', ')}`,
      action: 'the next hook call puts them back; where it cannot (a full disk, a journal isdlc may not write), a person repairs that and runs `isdlc doctor`',
    };
  }
  const workflow = workflowKeyOf(state);
  const waiting = read.index.incidents.filter((incident) => !incident.review && (incident.workflow === workflow || lostJournal(incident)));
  if (waiting.length === 0) return undefined;
  const closed = waiting.length >= TAMPER_ESCALATION || waiting.some(lostJournal);
  const ids = waiting.map((incident) => `#${incident.id}`).join(', ');
  return {
    closed,
    detail: `${waiting.length} change${waiting.length === 1 ? '' : 's'} to isdlc's files made outside isdlc ${waiting.length === 1 ? 'waits' : 'wait'} for a person's review (${ids})${closed ? '' : `; the gate closes at ${TAMPER_ESCALATION}`}`,
    action: `a person (not the agent) runs \`${REVIEW_COMMAND}\` in their own terminal, then \`${REVIEW_COMMAND} accept\` or \`${REVIEW_COMMAND} reject\``,
  };
}
