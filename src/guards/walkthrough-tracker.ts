// When discovery finishes without the constitution walkthrough the user was meant to go through, the
// model and the user hear of it. It never blocks: the walkthrough is the user's time.
import { normalizeAgentName } from '../config/agents.js';
import { defineGuard } from '../engine/guard.js';

export const walkthroughTracker = defineGuard({
  id: 'walkthrough-tracker',
  description: 'Tells the model and the user when discovery completed without the constitution walkthrough.',
  on: { PostToolUse: ['agent'] },
  check({ event, state, note, tellUser, log }) {
    const agent = normalizeAgentName(typeof event.tool?.input['subagent_type'] === 'string' ? event.tool.input['subagent_type'] : '');
    if (agent !== 'discover-orchestrator' || !event.outcome || event.outcome.failed || event.outcome.backgrounded) return;
    const discovery = state?.['discovery_context'];
    if (!discovery || typeof discovery !== 'object') return;
    if ((discovery as Record<string, unknown>)['walkthrough_completed'] === true) return;
    log({ walkthrough_completed: false });
    note(
      'isdlc walkthrough-tracker: discovery has finished, but the constitution walkthrough is not recorded as done ' +
        '(discovery_context.walkthrough_completed is not true). Walk the user through docs/isdlc/constitution.md article by article ' +
        'and let them adjust it before any workflow starts.',
    );
    tellUser('isdlc: discovery finished without the constitution walkthrough; ask the agent to take you through docs/isdlc/constitution.md.');
  },
});
