// Each subagent delegation is logged in `skill_usage_log`: which agent, the phase it owns, the phase the
// workflow was in. The gate's agent-delegation check reads this log, so the evidence that a phase's
// agent ran is something the hook saw, not something an agent wrote. Each entry is one run, followed by
// the subagent's id (src/state/agent-runs.ts): a background launch (Claude Code's default from 2.1.198)
// has only started when its Agent call returns, so its entry says `launched` and becomes `completed` at
// that subagent's SubagentStop, or at the <task-notification> the host submits when it ended. A
// synchronous result is the run's end, with the host's count of its tool calls. agent-run-tracker marks
// the run's first tool call; a run it saw working before its launch was logged is completed here. A host's
// wait for its subagents that says they ended (Codex's wait_agent) ends their runs too.
import { homePhaseOf, normalizeAgentName, PHASELESS_MARKERS } from '../config/agents.js';
import { delegationFor } from '../detect/phase-delegation.js';
import { defineGuard } from '../engine/guard.js';
import type { HookEvent } from '../events/hook-event.js';
import { runIsOpen, SKILL_USAGE_LOG_LIMIT } from '../state/agent-runs.js';
import { currentPhaseOf } from '../state/current-phase.js';
import type { IsdlcState, SkillUsageEntry } from '../state/schema.js';

/** The status of a cross-phase delegation by enforcement mode, as the JavaScript framework wrote it; `strict` and unknown modes observe. */
const CROSS_PHASE_STATUS: Record<string, string> = { warn: 'warned', audit: 'audited' };

/** The JavaScript framework's status and reason values, so existing readers of the log understand it. */
function usageVerdict(agentPhase: string | null, current: string | null, mode: string): { status: string; reason: string } {
  if (agentPhase === null) return { status: 'executed', reason: 'allowed' };
  if (PHASELESS_MARKERS.has(agentPhase)) return { status: 'executed', reason: 'authorized-orchestrator' };
  if (agentPhase === current) return { status: 'executed', reason: 'authorized-phase-match' };
  return { status: CROSS_PHASE_STATUS[mode] ?? 'observed', reason: 'cross-phase-usage' };
}

/** An entry still waiting for the end of the subagent `agentId`. */
function openAs(entry: SkillUsageEntry, agentId: string): boolean {
  return entry.agent_id === agentId && runIsOpen(entry);
}

function logOf(draft: IsdlcState): SkillUsageEntry[] {
  return Array.isArray(draft.skill_usage_log) ? draft.skill_usage_log : [];
}

/**
 * The run `agentId` ended (its SubagentStop, or the host's notification of it): its open entries are
 * completed, and take the host's count of its tool calls when one came. False when there is nothing to do.
 */
function endRun(state: IsdlcState, agentId: string, at: string, toolUses: number | undefined, update: (mutate: (draft: IsdlcState) => void) => void): boolean {
  const log = state.skill_usage_log ?? [];
  const ending = log.some((entry) => openAs(entry, agentId));
  const counting = toolUses !== undefined && log.some((entry) => entry.agent_id === agentId && entry.tool_calls === undefined);
  if (!ending && !counting) return false;
  update((draft) => {
    for (const entry of logOf(draft)) {
      if (entry.agent_id !== agentId) continue;
      if (runIsOpen(entry)) {
        entry.outcome = 'completed';
        entry.completed_at = at;
      }
      if (toolUses !== undefined && entry.tool_calls === undefined) entry.tool_calls = toolUses;
    }
  });
  return true;
}

/** The launch's entry: a new one, or the run agent-run-tracker already saw working, filled in. */
function recordLaunch(draft: IsdlcState, entry: SkillUsageEntry): void {
  const log = logOf(draft);
  const seen = entry.agent_id === undefined ? undefined : log.find((logged) => logged.agent_id === entry.agent_id && logged.launch_pending === true);
  if (seen) {
    const { timestamp: _launchedAt, ...launch } = entry;
    // It may have ended already (its SubagentStop came first): a background launch does not reopen it.
    const ended = seen.outcome === 'completed';
    Object.assign(seen, launch);
    delete seen.launch_pending;
    if (ended) {
      seen.outcome = 'completed';
      seen.completed_at ??= entry.completed_at;
    }
    return;
  }
  log.push(entry);
  draft.skill_usage_log = log.slice(-SKILL_USAGE_LOG_LIMIT);
}

function runEnd(event: HookEvent): { agentId: string; toolUses?: number } | undefined {
  if (event.name === 'SubagentStop') return event.agentId ? { agentId: event.agentId } : undefined;
  const notification = event.notification;
  if (event.name !== 'UserPromptSubmit' || notification?.kind !== 'task' || !notification.taskId) return undefined;
  return { agentId: notification.taskId, ...(notification.toolUses !== undefined ? { toolUses: notification.toolUses } : {}) };
}

export const logSkillUsage = defineGuard({
  id: 'log-skill-usage',
  description:
    "Logs every subagent delegation (agent, its phase, the current phase) in skill_usage_log, the evidence for the agent-delegation gate check; a run is followed by its id to its end (SubagentStop, the synchronous result, the host's task notification, or a wait that says it ended), with the host's count of its tool calls.",
  on: { PostToolUse: ['agent', 'other'], SubagentStop: true, UserPromptSubmit: true },
  check({ event, state, config, now, update, log }) {
    // Another tool's result matters only when it says subagents ended (a host's wait for them).
    const waited = event.name === 'PostToolUse' && event.tool?.kind !== 'agent' ? (event.outcome?.endedAgents ?? []) : undefined;
    if (waited?.length === 0) return;
    // Logged with or without a workflow: delegation-gate looks here for the orchestrator that starts one.
    if (!state) return;
    if (waited) {
      for (const agentId of waited)
        if (endRun(state, agentId, now.toISOString(), undefined, update)) log({ agent_id: agentId, outcome: 'completed', by: 'wait' });
      return;
    }
    if (event.name !== 'PostToolUse') {
      const end = runEnd(event);
      if (end && endRun(state, end.agentId, now.toISOString(), end.toolUses, update)) {
        log({ agent_id: end.agentId, outcome: 'completed', ...(end.toolUses !== undefined ? { tool_calls: end.toolUses } : {}) });
      }
      return;
    }
    if (!event.tool) return;
    const current = currentPhaseOf(state);
    const input = event.tool.input;
    const subagentType = typeof input['subagent_type'] === 'string' ? input['subagent_type'] : '';
    const delegation = delegationFor(event, config, current);
    const agent = delegation.agentName ?? (subagentType ? normalizeAgentName(subagentType) : 'general-purpose');
    const agentPhase = delegation.targetPhase ?? homePhaseOf(config.manifest, agent);
    const backgrounded = event.outcome?.backgrounded === true;
    const mode = typeof state.skill_enforcement?.['mode'] === 'string' ? state.skill_enforcement['mode'] : 'observe';
    const description = typeof input['description'] === 'string' ? input['description'].slice(0, 200) : '';
    const entry: SkillUsageEntry = {
      timestamp: now.toISOString(),
      agent,
      // The framework's empty string for an agent no phase owns.
      agent_phase: agentPhase ?? '',
      current_phase: current ?? undefined,
      description: description.trim() ? description : 'N/A',
      ...usageVerdict(agentPhase, current, mode),
      enforcement_mode: mode,
      outcome: backgrounded ? 'launched' : 'completed',
    };
    if (event.outcome?.agentId) entry.agent_id = event.outcome.agentId;
    if (!backgrounded) {
      entry.completed_at = entry.timestamp;
      if (event.outcome?.toolCalls !== undefined) entry.tool_calls = event.outcome.toolCalls;
    }
    update((draft) => recordLaunch(draft, entry));
  },
});
