// Each subagent delegation is logged in `skill_usage_log`: which agent, the phase it owns, the phase the
// workflow was in. The gate's agent-delegation check reads this log, so the evidence that a phase's
// agent ran is something the hook saw, not something an agent wrote. A subagent launched in the
// background (Claude Code's default from 2.1.198) has only started when its Agent call returns: its entry
// says `launched` with the subagent's id, and becomes `completed` at that subagent's SubagentStop.
import { agentPhases, normalizeAgentName, PHASELESS_MARKERS } from '../detect/agents.js';
import { delegationFor } from '../detect/phase-delegation.js';
import { defineGuard } from '../engine/guard.js';
import { currentPhaseOf } from '../state/current-phase.js';
import type { SkillUsageEntry } from '../state/schema.js';

export const SKILL_USAGE_LOG_LIMIT = 200;

/** The JavaScript framework's status and reason values, so existing readers of the log understand it. */
function usageVerdict(agentPhase: string | null, current: string | null): { status: 'executed' | 'observed'; reason: string } {
  if (agentPhase === null) return { status: 'executed', reason: 'allowed' };
  if (PHASELESS_MARKERS.has(agentPhase)) return { status: 'executed', reason: 'authorized-orchestrator' };
  if (agentPhase === current) return { status: 'executed', reason: 'authorized-phase-match' };
  return { status: 'observed', reason: 'cross-phase-usage' };
}

/** An entry still waiting for the end of the background subagent `agentId`. */
function launchedAs(entry: SkillUsageEntry, agentId: string): boolean {
  return entry.agent_id === agentId && entry.outcome === 'launched';
}

export const logSkillUsage = defineGuard({
  id: 'log-skill-usage',
  description:
    'Logs every subagent delegation (agent, its phase, the current phase) in skill_usage_log, the evidence for the agent-delegation gate check; a background launch is marked completed at its SubagentStop.',
  on: { PostToolUse: ['agent'], SubagentStop: true },
  check({ event, state, config, now, update, log }) {
    // Logged with or without a workflow: delegation-gate looks here for the orchestrator that starts one.
    if (!state) return;
    if (event.name === 'SubagentStop') {
      const agentId = event.agentId;
      if (!agentId || !(state.skill_usage_log ?? []).some((entry) => launchedAs(entry, agentId))) return;
      const at = now.toISOString();
      update((draft) => {
        for (const entry of Array.isArray(draft.skill_usage_log) ? draft.skill_usage_log : []) {
          if (!launchedAs(entry, agentId)) continue;
          entry.outcome = 'completed';
          entry.completed_at = at;
        }
      });
      log({ agent_id: agentId, outcome: 'completed' });
      return;
    }
    if (!event.tool) return;
    const current = currentPhaseOf(state);
    const input = event.tool.input;
    const subagentType = typeof input['subagent_type'] === 'string' ? input['subagent_type'] : '';
    const delegation = delegationFor(event, config, current);
    const agent = delegation.agentName ?? (subagentType ? normalizeAgentName(subagentType) : 'general-purpose');
    const owned = agentPhases(config.manifest, agent);
    const agentPhase = delegation.targetPhase ?? (owned.find((phase) => !PHASELESS_MARKERS.has(phase)) ?? owned[0] ?? null);
    const entry: SkillUsageEntry = {
      timestamp: now.toISOString(),
      agent,
      agent_phase: agentPhase ?? undefined,
      current_phase: current ?? undefined,
      description: typeof input['description'] === 'string' ? input['description'].slice(0, 200) : '',
      ...usageVerdict(agentPhase, current),
      enforcement_mode: typeof state.skill_enforcement?.['mode'] === 'string' ? state.skill_enforcement['mode'] : 'observe',
      outcome: event.outcome?.backgrounded ? 'launched' : 'completed',
    };
    if (event.outcome?.agentId) entry.agent_id = event.outcome.agentId;
    update((draft) => {
      const log = Array.isArray(draft.skill_usage_log) ? draft.skill_usage_log : [];
      log.push(entry);
      draft.skill_usage_log = log.slice(-SKILL_USAGE_LOG_LIMIT);
    });
  },
});
