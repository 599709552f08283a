// Who recorded an article check, and whether the check counts as an independent review of the phase's
// work (the `independent_review` option of constitutional_validation). The agent that did the work cannot
// review it: a check counts only when a caller the host named (a subagent's PostToolUse of the MCP tool)
// is not the phase's worker, or when a person recorded it where the agent's shell could not have.
// The main session does not count either: it runs the phase, may write code itself (nothing ties an
// edit to the worker), and is the one that wants the gate open. Nor does a subagent that only stamps: the
// reviewer must be of a kind the project names for it (isdlc's constitution-reviewer, whose definition init
// installs, or one of `reviewers`), must not have changed files in the phase itself, and its run must have
// read every file the phase changed since that file's last change (src/state/review-evidence.ts).
import { DEFAULT_REVIEWER, normalizeAgentName } from '../config/agents.js';
import { workIn } from '../state/agent-runs.js';
import { changedFiles, unreadChanges } from '../state/review-evidence.js';
import type { IsdlcState, SkillUsageEntry } from '../state/schema.js';
import { asRecord, isRecord, type JsonRecord } from '../util/json.js';

/** The phase's worker: the agent the manifest gives it, and the ids of its runs in this phase. */
export interface Worker {
  agent?: string;
  runs: ReadonlySet<string>;
  /** What a review by another agent must show; without it any other subagent's check counts. */
  review?: ReviewEvidence;
}

/** What the hooks saw of the phase, against which a reviewer's run is judged. */
export interface ReviewEvidence {
  phase: string;
  /** The agents whose checks may count as a review. */
  reviewers: ReadonlySet<string>;
  /** The files changed in the phase, with when each last changed. */
  changed: Record<string, string>;
  /** Every logged run, by its id. */
  runs: ReadonlyMap<string, SkillUsageEntry>;
}

/** The agents that may review: `configured`, or isdlc's own reviewer; never the worker. */
export function reviewerKinds(worker: string | undefined, configured?: readonly string[]): Set<string> {
  const named = configured && configured.length > 0 ? configured : [DEFAULT_REVIEWER];
  return new Set(named.map((name) => normalizeAgentName(name)).filter((name) => name !== worker));
}

export interface RecorderJudgement {
  /** Who recorded it, in words: `qa-engineer (agent a1b2)`, `the main session`, `root in their own terminal`. */
  who: string;
  /** Whether it counts as a review by someone other than the worker. */
  independent: boolean;
  /** Why it does not count, and what would. */
  why?: string;
}

/** The worker's runs in `phase`: skill_usage_log entries of its delegations that carry the subagent's id. */
export function workerOf(state: IsdlcState, phase: string, agent: string | undefined, reviewers?: ReadonlySet<string>): Worker {
  const runs = new Set<string>();
  const byId = new Map<string, SkillUsageEntry>();
  for (const entry of state.skill_usage_log ?? []) {
    if (typeof entry.agent_id === 'string') byId.set(entry.agent_id, entry);
    if (agent && entry.agent === agent && entry.agent_phase === phase && typeof entry.agent_id === 'string') runs.add(entry.agent_id);
  }
  const review = reviewers ? { phase, reviewers, changed: changedFiles(state.phases?.[phase]), runs: byId } : undefined;
  return { ...(agent ? { agent } : {}), runs, ...(review ? { review } : {}) };
}

/** Why a subagent that is not the worker still does not review, or undefined when its check counts. */
function notAReview(type: string | undefined, id: string, review: ReviewEvidence): string | undefined {
  const kind = normalizeAgentName(type);
  if (!review.reviewers.has(kind)) {
    const named = [...review.reviewers].join(', ') || 'no agent';
    return `${type ?? 'an unnamed subagent'} is not a reviewer here: the review counts from ${named} (constitutional_validation.reviewers names them)`;
  }
  const run = review.runs.get(id);
  if (run && (workIn(run, review.phase) ?? []).includes('change')) return 'its run changed files in this phase itself: a review of its own work';
  const unread = unreadChanges(review.changed, run, review.phase);
  if (unread.length > 0) {
    const shown = unread.slice(0, 5).join(', ') + (unread.length > 5 ? ` and ${unread.length - 5} more` : '');
    return `its run did not read what the phase changed (since the last change): ${shown}`;
  }
  return undefined;
}

const another = (worker: Worker): string => (worker.agent ? `an agent other than ${worker.agent}` : 'a subagent');
const useTool = 'with the isdlc MCP tool constitution_record, whose call names its caller';

function judgeCaller(by: JsonRecord, worker: Worker): RecorderJudgement {
  const id = typeof by['agent_id'] === 'string' ? by['agent_id'] : undefined;
  const type = typeof by['agent_type'] === 'string' ? by['agent_type'] : undefined;
  const byTime = by['via'] === 'shell';
  const name = id || type ? `${type ?? 'a subagent'}${id ? ` (agent ${id})` : ''}` : 'the main session';
  const who = byTime ? `${name}, by the time of its shell call` : name;
  const isWorker = (type !== undefined && normalizeAgentName(type) === worker.agent) || (id !== undefined && worker.runs.has(id));
  if (isWorker) return { who: `${who} (the phase's worker)`, independent: false, why: `needs a review by ${another(worker)}` };
  if (!id) {
    return {
      who,
      independent: false,
      why: `the main session runs the phase and may have written its code: needs a review by ${another(worker)}, delegated to it`,
    };
  }
  if (byTime) {
    return {
      who,
      independent: false,
      why: `an isdlc command's check is tied to its caller only by time, which another call running at once shares: record it ${useTool}`,
    };
  }
  const stamp = worker.review ? notAReview(type, id, worker.review) : undefined;
  if (stamp) return { who, independent: false, why: stamp };
  return { who, independent: true };
}

/** Who recorded `entry` (an `article_results` entry), and whether it is an independent review. */
export function judgeRecorder(entry: unknown, worker: Worker): RecorderJudgement {
  const check = isRecord(entry) ? entry : {};
  if (isRecord(check['by'])) return judgeCaller(check['by'], worker);
  if (check['recorded_with'] === 'cli') {
    const terminal = asRecord(check['terminal']);
    const user = typeof terminal['user'] === 'string' ? terminal['user'] : 'someone';
    if (terminal['agent_shell'] === true) {
      return { who: "an agent's shell (an isdlc command no shell call was seen to run)", independent: false, why: `record it ${useTool}` };
    }
    if (terminal['sandboxed'] === true) return { who: `${user} in their own terminal`, independent: true };
    return {
      who: `${user}'s terminal, or an agent's shell that unset its host's marker`,
      independent: false,
      why:
        "without the agent host's sandbox isdlc cannot tell a person's terminal from the agent's shell: record it " +
        useTool +
        ', or turn the sandbox on (`isdlc init`)',
    };
  }
  return { who: 'an unknown caller', independent: false, why: `nothing says who made this check: record it ${useTool}` };
}

export interface ArticleReview {
  /** `who: I, II` for each recorder of the latest checks, in the order first seen. */
  recorders: string[];
  /** `Article VII: compliant, recorded by ...: why`, for each compliant article the gate cannot count as independently reviewed. */
  notIndependent: string[];
}

/** The latest check of each of `articles` in `results`, by recorder; with `independent`, those that do not count. */
export function reviewArticles(results: unknown, articles: readonly string[], worker: Worker, independent: boolean): ArticleReview {
  const byWho = new Map<string, string[]>();
  const notIndependent: string[] = [];
  for (const id of articles) {
    const entry = asRecord(asRecord(results)[id]);
    if (typeof entry['result'] !== 'string') {
      // A record that says compliant without the article's check (hand-made, or from before checks were kept).
      if (independent) notIndependent.push(`Article ${id}: no recorded check says who checked it`);
      continue;
    }
    const judged = judgeRecorder(entry, worker);
    byWho.set(judged.who, [...(byWho.get(judged.who) ?? []), id]);
    if (independent && entry['result'] === 'compliant' && !judged.independent) {
      notIndependent.push(`Article ${id}: compliant, recorded by ${judged.who}: ${judged.why ?? 'not an independent review'}`);
    }
  }
  return { recorders: [...byWho].map(([who, ids]) => `${who}: ${ids.join(', ')}`), notIndependent };
}
