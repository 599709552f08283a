// `isdlc constitution record`: one article check of the current phase, recorded in its
// `constitutional_validation`. A round of checks that finds a violation ends it; the next record starts
// the next iteration; a violation in the last allowed iteration escalates to a human. The validation is
// complete when every required article's latest result is compliant.
import { articleId, describeArticle } from '../config/constitution.js';
import type { ProjectConfig } from '../config/project-config.js';
import { effectivePhaseRequirements } from '../config/requirements.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import { ensureConstitutionalTracking } from '../state/phase-records.js';
import type { ConstitutionalValidationState, IsdlcState } from '../state/schema.js';
import { WorkflowError } from './start.js';

/**
 * How a check reached isdlc, kept on the check so the gate can tell who made it. Through the MCP tool, the
 * call's PostToolUse names the caller exactly (guards/tool-caller.ts adds `by`). Through the `isdlc` command
 * no hook sees the caller: the command keeps what its own process can tell (cli/terminal-claim.ts).
 */
export type CheckSource = { recorded_with: 'mcp_tool' } | { recorded_with: 'cli'; terminal: TerminalClaim };

/** What an `isdlc constitution record` process could tell about where it ran. */
export interface TerminalClaim {
  /** The OS user that ran it. */
  user: string;
  /** The host's marker was set (Host.shellMarkers): it ran in an agent's shell. Unset proves nothing (`env -u`). */
  agent_shell: boolean;
  /** The project's settings keep the agent's shell sandboxed away from isdlc's files, with no command excluded. */
  sandboxed: boolean;
}

export interface ArticleCheck {
  phase: string;
  article: string;
  result: 'compliant' | 'violation';
  note?: string;
  now: string;
  source?: CheckSource;
}

export interface ArticleCheckOutcome {
  record: ConstitutionalValidationState;
  remaining: string[];
  completed: boolean;
  escalated: boolean;
  /** The phase's gate counts only checks by someone other than its worker (gates/article-recorders.ts). */
  independentReview: boolean;
}

export function recordArticleCheck(draft: IsdlcState, config: ProjectConfig, check: ArticleCheck): ArticleCheckOutcome {
  const wanted = effectivePhaseRequirements(config.iterationRequirements, check.phase, activeWorkflowOf(draft)?.type)?.constitutional_validation;
  if (!wanted?.enabled) throw new WorkflowError(`phase ${check.phase} does not require constitutional validation`);
  const record = ensureConstitutionalTracking(draft, check.phase, {
    articles: wanted.articles ?? [],
    maxIterations: wanted.max_iterations ?? 5,
    now: check.now,
  });
  const required = record.articles_required ?? [];
  const article = articleId(check.article);
  if (!required.includes(article)) {
    throw new WorkflowError(
      `phase ${check.phase} does not require Article ${article}; it requires ${required.map((id) => describeArticle(config.constitution, id)).join('; ')}`,
    );
  }
  if (record.status === 'escalated') {
    throw new WorkflowError(
      `constitutional validation of ${check.phase} is escalated: a person reviews it and runs \`isdlc escalation approve --phase ${check.phase}\``,
    );
  }
  if (!record.iterations_used) record.iterations_used = 1;
  else if (record['new_iteration_pending'] === true) record.iterations_used += 1;
  delete record['new_iteration_pending'];
  record.status = 'iterating';

  const results = (record['article_results'] as Record<string, unknown> | undefined) ?? {};
  results[article] = { result: check.result, ...(check.note ? { note: check.note } : {}), at: check.now, iteration: record.iterations_used, ...check.source };
  record['article_results'] = results;
  record.articles_checked = required.filter((id) => results[id] !== undefined);
  const history = Array.isArray(record['history']) ? (record['history'] as unknown[]) : [];
  history.push({ article, result: check.result, note: check.note ?? null, iteration: record.iterations_used, at: check.now, ...check.source });
  record['history'] = history;

  let escalated = false;
  if (check.result === 'violation') {
    record.violations_found = [...(record.violations_found ?? []), { article, note: check.note ?? null, iteration: record.iterations_used, at: check.now }];
    if (record.iterations_used >= (record.max_iterations ?? 5)) {
      record.status = 'escalated';
      record['escalation_reason'] = 'max_iterations';
      record.completed = true;
      record.escalation_approved = false;
      record['escalated_at'] = check.now;
      escalated = true;
    } else {
      record['new_iteration_pending'] = true;
    }
  }
  const remaining = required.filter((id) => (results[id] as { result?: string } | undefined)?.result !== 'compliant');
  const completed = !escalated && remaining.length === 0;
  if (completed) {
    record.completed = true;
    record.status = 'compliant';
    record['completed_at'] = check.now;
  }
  return { record, remaining, completed, escalated, independentReview: wanted.independent_review === true };
}
