// Which agent ran for which phase, seen before it runs: a delegation to an agent of another phase is
// logged (skill observability). It never blocks; phase-sequence-guard owns the order of phases.
import { agentPhases, normalizeAgentName, PHASELESS_MARKERS } from '../config/agents.js';
import { defineGuard } from '../engine/guard.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';

export const skillValidator = defineGuard({
  id: 'skill-validator',
  description: 'Logs a delegation to an agent that belongs to another phase than the current one; never blocks.',
  on: { PreToolUse: ['agent'] },
  check({ event, state, config, log }) {
    if (!activeWorkflowOf(state) || state?.skill_enforcement?.['enabled'] === false) return;
    const type = event.tool?.input['subagent_type'];
    if (typeof type !== 'string' || !type) return;
    const agent = normalizeAgentName(type);
    const phases = agentPhases(config.manifest, agent);
    const current = currentPhaseOf(state);
    if (phases.length === 0 || phases.some((phase) => PHASELESS_MARKERS.has(phase) || phase === current)) return;
    log({ outcome: 'cross-phase', agent, agent_phases: phases, current_phase: current, mode: state?.skill_enforcement?.['mode'] ?? 'observe' });
  },
});
