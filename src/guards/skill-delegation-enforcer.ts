// Loading the /isdlc or /discover command (through the Skill tool, or typed by the user) means the next
// step is a delegation to its orchestrator. The model is told so, and the promise is recorded for
// delegation-gate, which holds the end of the turn until it is kept.
import { defineGuard } from '../engine/guard.js';
import { requiredAgent, skillName, type PendingDelegation } from '../state/pending-delegation.js';

export const skillDelegationEnforcer = defineGuard({
  id: 'skill-delegation-enforcer',
  description: 'When /isdlc or /discover is loaded, records that its orchestrator must be delegated to, and tells the model.',
  on: { PostToolUse: ['skill'], UserPromptExpansion: true },
  check({ event, state, now, note, update, log }) {
    const skill = event.expansion?.command ?? (typeof event.tool?.input['skill'] === 'string' ? event.tool.input['skill'] : '');
    const args = event.expansion?.args ?? (typeof event.tool?.input['args'] === 'string' ? event.tool.input['args'] : '');
    const agent = requiredAgent(skill, args);
    // Without a state file isdlc is not set up for this project (or this monorepo project): nothing to hold.
    if (!agent || !state) return;
    const marker: PendingDelegation = {
      skill: skillName(skill),
      required_agent: agent,
      invoked_at: now.toISOString(),
      args,
      ...(event.sessionId ? { session_id: event.sessionId } : {}),
      reminders: 0,
    };
    update((draft) => {
      draft.pending_delegation = marker;
    });
    log({ skill: marker.skill, required_agent: agent });
    note(
      `isdlc skill-delegation-enforcer: /${marker.skill} is loaded. Begin by delegating to ${agent} (the Agent tool with subagent_type "${agent}"), ` +
        'as the command says; do not carry out the request yourself. isdlc keeps the turn open until that delegation has happened.',
    );
  },
});
