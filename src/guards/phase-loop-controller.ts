// A phase's agent may be delegated to only once the phase has been activated (the tool phase_activate,
// STEP 3c-prime of the /isdlc command), so every tracker already names it when the agent starts.
// Sub-agents of the phase in progress pass (BUG-0013); delegations to other phases are the
// phase-sequence-guard's to judge.
import { workflowDelegationOf } from '../detect/phase-delegation.js';
import { defineGuard } from '../engine/guard.js';
import { workflowPhasesOf } from '../state/current-phase.js';
import { phaseStatusOf } from '../state/phase-records.js';
import { reviewBlocking } from '../workflow/review.js';
import { forAgent, toolRef } from '../config/agent-operations.js';

const PREFIX = 'isdlc phase-loop-controller:';
const ACTIVATE = toolRef('phase_activate');

export const phaseLoopController = defineGuard({
  id: 'phase-loop-controller',
  description: "Denies delegating to a phase's agent before the phase is activated (phase_activate); sub-agents of the phase in progress pass.",
  on: { PreToolUse: ['agent'] },
  check({ event, state, config, deny, log }) {
    const found = workflowDelegationOf(event, state, config);
    if (!found) return;
    const { workflow, current, target, agentName } = found;
    const status = phaseStatusOf(state, target);
    if (status === 'in_progress') {
      if (target === current) log({ outcome: 'same-phase', phase: target, agent: agentName });
      return;
    }
    const phases = workflowPhasesOf(state);
    const index = typeof workflow.current_phase_index === 'number' ? workflow.current_phase_index : phases.indexOf(current);
    const reached = phases[index] ?? null;
    const who = agentName ? ` to ${agentName}` : '';
    const review = reviewBlocking(workflow);
    if (target === reached) {
      deny(
        (review
          ? `${PREFIX} Wait for the person's review first, then call ${ACTIVATE} and delegate again: ${forAgent(review)}. `
          : `${PREFIX} Call ${ACTIVATE} first, then delegate again. `) +
          `This delegation${who} is for phase ${target}, which has not been activated (its status is ${String(status ?? 'missing')}); ` +
          `activation marks ${target} in progress in every place state tracks it, so its agent starts with the record in order. ` +
          'Until then the same call is denied.',
      );
    } else if (target === current) {
      const next = reached
        ? `Call ${ACTIVATE} to start ${reached}, the phase the workflow has reached, then delegate to its agent`
        : `Call ${toolRef('workflow_finalize')}: every phase is completed`;
      deny(
        `${PREFIX} ${next}. ` +
          `This delegation${who} is for phase ${target}, which is ${String(status ?? 'not in progress')} (its gate has passed), so its agent has nothing left to do.` +
          (review ? ` First, though: ${forAgent(review)}.` : '') +
          ' Until then the same call is denied.',
      );
    }
  },
});
