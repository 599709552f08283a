// Who changed the workflow through isdlc's MCP tools. The server cannot tell who calls it (MCP carries no
// session); the host's PostToolUse payload of the call can. What a call recorded is found by the time its
// answer carries (`at`), which every record of that transaction holds: the history line of the call, and
// the record the operation is about.
import { activeWorkflowOf } from '../state/current-phase.js';
import { phaseOf } from '../state/phase-records.js';
import type { IsdlcState } from '../state/schema.js';
import { asRecord, isRecord, type JsonRecord } from '../util/json.js';

/** The session, and inside a subagent its id and type, as the host names them. */
export interface Caller {
  session: string;
  agent_id?: string;
  agent_type?: string;
  /**
   * `shell`: found by time, not named by the host. The record was made by an `isdlc` command while this
   * caller's shell call ran; another call running at the same time (a background subagent's) could have
   * made it, so the gate shows such a caller but never counts it as an independent review.
   */
  via?: 'shell';
}

/** What a tool's answer says about the transaction it ran. */
export interface Recorded {
  operation: string;
  at: string;
  phase?: string;
  article?: string;
}

function lastWhere(list: unknown, match: (entry: JsonRecord) => boolean): JsonRecord | undefined {
  return Array.isArray(list) ? list.filter(isRecord).reverse().find(match) : undefined;
}

/** The operation's own record, besides its history line. */
function operationRecords(state: IsdlcState, { operation, at, phase, article }: Recorded): (JsonRecord | undefined)[] {
  const phaseRecord = phase ? phaseOf(state, phase) : undefined;
  switch (operation) {
    case 'phase_complete': {
      const gate = asRecord(phaseRecord?.gate_validation);
      return [gate['passed_at'] === at ? gate : undefined];
    }
    case 'constitution_record': {
      const record = asRecord(phaseRecord?.constitutional_validation);
      const result = asRecord(asRecord(record['article_results'])[article ?? '']);
      return [result['at'] === at ? result : undefined, lastWhere(record['history'], (entry) => entry['at'] === at && entry['article'] === article)];
    }
    case 'workflow_finalize':
    case 'workflow_cancel':
      return [lastWhere(state.workflow_history, (entry) => entry['completed_at'] === at)];
    case 'phase_review': {
      const review = asRecord(activeWorkflowOf(state)?.['supervised_review']);
      return [review['decided_at'] === at ? review : undefined];
    }
    default:
      return [];
  }
}

/** The records in `state` that the call wrote: the objects that get its caller as `by`. */
export function recordsOf(state: IsdlcState | null, recorded: Recorded): JsonRecord[] {
  if (!state) return [];
  const line = lastWhere(state.history, (entry) => entry['timestamp'] === recorded.at && entry['agent'] === 'isdlc');
  return [line, ...operationRecords(state, recorded)].filter((record): record is JsonRecord => record !== undefined);
}

/** What a tool's answer (compact JSON) says it recorded, or undefined for a read, a refusal or anything else. */
export function recordedIn(operation: string, answer: string): Recorded | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed['at'] !== 'string') return undefined;
  const text = (key: string): string | undefined => (typeof parsed[key] === 'string' ? parsed[key] : undefined);
  const phase = text('phase');
  const article = text('article');
  return { operation, at: parsed['at'], ...(phase ? { phase } : {}), ...(article ? { article } : {}) };
}

/**
 * How long before the start of the shell call as the hook computes it (its PostToolUse time less the
 * call's duration) a record may lie: the hook starts a little after the command ended.
 */
export const SHELL_WINDOW_SLACK_MS = 2000;

/**
 * The article checks an `isdlc` command recorded between `from` and `to` (ISO times) that nobody has
 * attributed yet: those a shell call that ran then may have made. A command that saw the project
 * sandboxed did not run in the agent's shell, so its checks are left alone.
 */
export function shellRecordsWithin(state: IsdlcState | null, from: string, to: string): JsonRecord[] {
  const found: JsonRecord[] = [];
  const unclaimed = (entry: unknown): entry is JsonRecord =>
    isRecord(entry) &&
    entry['recorded_with'] === 'cli' &&
    entry['by'] === undefined &&
    asRecord(entry['terminal'])['sandboxed'] !== true &&
    typeof entry['at'] === 'string' &&
    entry['at'] >= from &&
    entry['at'] <= to;
  for (const phase of Object.values(state?.phases ?? {})) {
    const record = asRecord(asRecord(phase)['constitutional_validation']);
    found.push(...Object.values(asRecord(record['article_results'])).filter(unclaimed));
    if (Array.isArray(record['history'])) found.push(...record['history'].filter(unclaimed));
  }
  return found;
}
