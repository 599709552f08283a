// A phase agent may be delegated to only while its phase is the current one.
import { phaseAgent } from '../config/agents.js';
import { workflowDelegationOf } from '../detect/phase-delegation.js';
import { defineGuard } from '../engine/guard.js';
import { workflowPhasesOf } from '../state/current-phase.js';
import { toolRef } from '../config/agent-operations.js';

export const phaseSequenceGuard = defineGuard({
  id: 'phase-sequence-guard',
  description: 'Denies delegating to a phase agent whose phase is not the current phase of the active workflow.',
  on: { PreToolUse: ['agent'] },
  check({ event, state, config, deny, log }) {
    const found = workflowDelegationOf(event, state, config);
    if (!found) return;
    const { workflow, current, target, agentName } = found;
    if (target === current) {
      log({ outcome: 'same-phase', phase: current, agent: agentName });
      return;
    }

    const phases = workflowPhasesOf(state);
    const who = agentName ? `to ${agentName} ` : '';
    const type = typeof workflow.type === 'string' ? `${workflow.type} ` : '';
    const order = phases.length > 0 ? ` Its phases run in this order: ${phases.join(' → ')}.` : '';
    const currentAgent = phaseAgent(config.manifest, current);
    const where = phases.includes(target)
      ? `targets phase ${target}, but the active ${type}workflow is in phase ${current}.${order}`
      : `targets phase ${target}, which is not part of the active ${type}workflow (current phase: ${current}).${order}`;
    deny(
      `isdlc phase-sequence-guard: Carry on with phase ${current}${currentAgent ? ` (its agent is ${currentAgent})` : ''} instead; ` +
        `${toolRef('status')} shows where the workflow stands. ` +
        `This call ${who}is an out-of-order phase delegation: it ${where} ` +
        'Work happens in the current phase only; a later phase starts once the current one has passed its gate and ' +
        'the next has been activated. The same call will be denied again until then.',
    );
  },
});
