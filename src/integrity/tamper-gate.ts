// The gate's view of tamper evidence: a lost journal, or a third unreviewed change to isdlc's files within
// the workflow, keeps the phase gate closed until a person reviews (`isdlc changes accept|reject`).
import type { IsdlcState } from '../state/schema.js';
import { readJournal, type Incident } from './journal.js';
import { REVIEW_COMMAND, TAMPER_ESCALATION } from './tamper-messages.js';
import { workflowKeyOf } from './workflow-key.js';

export interface TamperGate {
  closed: boolean;
  detail: string;
  action: string;
}

const lostJournal = (incident: Incident): boolean => incident.files.some((file) => file.path === '.isdlc/journal');

/** undefined when nothing is waiting for review in this workflow. */
export function tamperGate(root: string, state: IsdlcState | null): TamperGate | undefined {
  const read = readJournal(root);
  if (read.kind !== 'ok') return undefined; // the next hook call finds and reports a lost journal
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
