// `isdlc replay FILE.jsonl`: a recorded session (one hook payload per line) run through the same engine
// the hook uses, against a project on disk, printing each decision and its reason.
import { readFileSync } from 'node:fs';
import { runHook } from '../engine/run-hook.js';
import { GUARDS } from '../guards/index.js';
import { DEFAULT_HOST, GUARDED, hookHostById } from '../hosts/hook-hosts.js';
import { guardsWithHosts } from '../hosts/index.js';
import { asText } from '../util/json.js';

export interface ReplayStep {
  line: number;
  event: string;
  tool?: string;
  subject?: string;
  /** `block`: a Stop (or another event that is not a tool call) held. */
  decision: 'allow' | 'deny' | 'block' | 'skipped';
  guard?: string;
  reason?: string;
  notes?: string[];
  userMessages?: string[];
  problem?: string;
  /** The guards that looked at this event. */
  ran: string[];
  /** `//` lines just above it in the session file: the recording's own narration. */
  comments?: string[];
}

function subjectOf(payload: Record<string, unknown>): string | undefined {
  const input = payload['tool_input'];
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  for (const key of ['subagent_type', 'skill', 'command', 'file_path', 'description']) {
    if (typeof record[key] === 'string') return record[key];
  }
  return undefined;
}

/** `hostId`: the host whose calls were recorded. */
export function replaySession(file: string, projectDir: string, env: NodeJS.ProcessEnv, hostId = DEFAULT_HOST): ReplayStep[] {
  const host = hookHostById(hostId);
  if (!host) throw new Error(`no host named ${hostId}`);
  const guards = guardsWithHosts(GUARDS);
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const steps: ReplayStep[] = [];
  let comments: string[] = [];
  const withComments = (step: ReplayStep): ReplayStep => {
    if (comments.length > 0) step.comments = comments;
    comments = [];
    return step;
  };
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    if (text.trimStart().startsWith('//')) {
      comments.push(text.trimStart().slice(2).trim());
      return;
    }
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      steps.push(withComments({ line: index + 1, event: '?', decision: 'skipped', ran: [], problem: `not JSON: ${(error as Error).message}` }));
      return;
    }
    // The recording's paths belong to another machine: the session is replayed in projectDir.
    payload['cwd'] = projectDir;
    const out = runHook({ host, guarded: GUARDED, payload: JSON.stringify(payload), env, cwd: projectDir, projectDir, guards });
    const entry = out.entry;
    const step: ReplayStep = withComments({
      line: index + 1,
      event: asText(payload['hook_event_name'], '?'),
      decision: entry['decision'] === 'deny' || entry['decision'] === 'block' ? entry['decision'] : 'allow',
      ran: Array.isArray(entry['ran']) ? (entry['ran'] as string[]) : [],
    });
    if (typeof payload['tool_name'] === 'string') step.tool = payload['tool_name'];
    const subject = subjectOf(payload);
    if (subject) step.subject = subject;
    if (typeof entry['guard'] === 'string') step.guard = entry['guard'];
    if (typeof entry['reason'] === 'string') step.reason = entry['reason'];
    if (Array.isArray(entry['notes'])) step.notes = entry['notes'] as string[];
    if (Array.isArray(entry['user_messages'])) step.userMessages = entry['user_messages'] as string[];
    if (typeof entry['problem'] === 'string') step.problem = entry['problem'];
    steps.push(step);
  });
  return steps;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

export function formatReplay(steps: ReplayStep[]): string {
  const out: string[] = [];
  for (const step of steps) {
    for (const comment of step.comments ?? []) out.push(`   ${comment}`);
    const what = [step.event, step.tool, step.subject ? `(${step.subject.length > 60 ? `${step.subject.slice(0, 57)}...` : step.subject})` : '']
      .filter(Boolean)
      .join(' ');
    const decision = step.decision.toUpperCase();
    out.push(`#${step.line} ${what}\n   → ${decision}${step.guard ? ` by ${step.guard}` : ''}`);
    if (step.reason) out.push(indent(step.reason, '     '));
    for (const note of step.notes ?? []) out.push(indent(`note to the model: ${note}`, '     '));
    for (const message of step.userMessages ?? []) out.push(indent(`to the user: ${message}`, '     '));
    if (step.problem) out.push(indent(`(${step.problem})`, '     '));
    if (step.decision === 'allow' && !step.notes && !step.problem) {
      out.push(step.ran.length > 0 ? `     checked by ${step.ran.join(', ')}: no objection` : '     no guard watches this event yet');
    }
  }
  const denies = steps.filter((step) => step.decision === 'deny').length;
  const blocks = steps.filter((step) => step.decision === 'block').length;
  out.push(`\n${steps.length} events replayed: ${steps.length - denies - blocks} allowed, ${denies} denied${blocks > 0 ? `, ${blocks} held (blocked)` : ''}.`);
  return `${out.join('\n')}\n`;
}
