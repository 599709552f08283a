// After a compaction or a resumed session the model has lost what it knew of the workflow: tell it the
// phase it is in and that phase's gate requirements (beyond seed 001; can be turned off in config).
import { defineGuard } from '../engine/guard.js';
import { injectionEnabled } from '../gates/injection-settings.js';
import { blockForWorkflow } from '../gates/requirements-block.js';
import { activeWorkflowOf, currentPhaseOf, workflowPhasesOf } from '../state/current-phase.js';
import { phaseStatusOf } from '../state/phase-records.js';

export const sessionContext = defineGuard({
  id: 'session-context',
  description: 'On a resumed or compacted session, tells the model its workflow, current phase and that phase\'s gate requirements.',
  on: { SessionStart: true },
  check({ event, state, config, note }) {
    if (event.source !== 'compact' && event.source !== 'resume') return;
    const workflow = activeWorkflowOf(state);
    const current = currentPhaseOf(state);
    if (!workflow || !current || !injectionEnabled(config, 'session_start')) return;
    const phases = workflowPhasesOf(state);
    const status = String(phaseStatusOf(state, current) ?? 'pending');
    const next = status === 'in_progress' ? 'carry on with it; `isdlc phase complete` once its gate is open' : '`isdlc phase activate` starts the next phase';
    const block = blockForWorkflow(config, workflow, current);
    note(
      `isdlc: this session continues a ${String(workflow.type ?? '')} workflow (${phases.join(' → ')}). The current phase is ${current}, ${status.replace('_', ' ')}: ${next}. ` +
        '`isdlc status` shows the rest.' +
        (block && status === 'in_progress' ? `\n\n${block}` : ''),
    );
  },
});
