// What the model and the person are told when the check finds isdlc's files changed by someone else.
import { GUARDED_KIND_LABELS } from './guarded-set.js';
import { INSTEAD } from './instead.js';
import type { CheckResult, Finding } from './tamper-check.js';

/** What holds without a sandbox, in one sentence a person reads in `doctor` and `status`. */
export const WITHOUT_SANDBOX =
  "What holds then is tamper evidence: accidental and casual changes to isdlc's files are found and undone, but an agent set on getting past it runs with your rights and can.";

/** The third unreviewed change within one workflow closes its gate until a person has looked. */
export const TAMPER_ESCALATION = 3;

export const REVIEW_COMMAND = 'isdlc changes';

function what(finding: Finding): string {
  const done =
    finding.outcome === 'reverted' ? (finding.change === 'created' ? 'taken away' : 'put back as isdlc wrote it') : 'not undone (isdlc keeps no copy of it)';
  const kept = finding.keptAs ? `; the changed version is kept as ${finding.keptAs}` : '';
  return `${finding.rel} (${GUARDED_KIND_LABELS[finding.kind]}, ${finding.change}): ${done}${kept}`;
}

function escalation(result: CheckResult): string {
  if (result.journal === 'lost' || result.unreviewed >= TAMPER_ESCALATION) {
    return `The phase gate is now closed until a person reviews these changes with \`${REVIEW_COMMAND}\` in their own terminal.`;
  }
  return `This is change ${result.unreviewed} of ${TAMPER_ESCALATION} in this workflow; at ${TAMPER_ESCALATION} the phase gate closes until a person reviews them.`;
}

/** For the model: what changed, that it was undone, what to do instead. */
export function modelNote(result: CheckResult): string {
  if (result.journal === 'lost') {
    return (
      `isdlc tamper-evidence: isdlc's journal of its own writes was ${result.problem?.startsWith('missing') ? 'removed' : 'damaged'} (${result.problem}), so isdlc cannot tell what else was changed. ` +
      `Do not change files under .isdlc/. ${escalation(result)}`
    );
  }
  const lines = result.findings.map((finding) => `- ${what(finding)}. Instead: ${INSTEAD[finding.kind]}.`);
  return (
    `isdlc tamper-evidence: Since the last tool call, files only isdlc writes were changed, not by isdlc:\n${lines.join('\n')}\n` +
    `Changing isdlc's files does not move the workflow on: isdlc finds every such change at the next tool call and undoes it. ${escalation(result)}`
  );
}

/** For the person (the host shows it to them, not to the model). */
export function personMessage(result: CheckResult): string {
  const id = result.incident ? ` (change #${result.incident.id})` : '';
  if (result.journal === 'lost') {
    return `isdlc: its journal was ${result.problem?.startsWith('missing') ? 'removed' : 'damaged'}${id}: ${result.problem}. isdlc started a new one from the files as they are; review them and run \`${REVIEW_COMMAND}\`.`;
  }
  const files = result.findings.map(
    (finding) => `${finding.rel} ${finding.change}${finding.outcome === 'reverted' ? ', undone' : ''}${finding.keptAs ? ` (kept as ${finding.keptAs})` : ''}`,
  );
  const gate = result.unreviewed >= TAMPER_ESCALATION ? ' The phase gate stays closed until you review.' : '';
  return `isdlc: isdlc's files were changed outside isdlc${id}: ${files.join('; ')}.${gate} If you made the change yourself, keep it with \`${REVIEW_COMMAND} accept\`; \`${REVIEW_COMMAND}\` lists what is waiting.`;
}
