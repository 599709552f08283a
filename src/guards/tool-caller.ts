// Who changed the workflow through one of isdlc's MCP tools. The tool recorded what it did; the PostToolUse
// payload of the call says who called it (the session, and inside a subagent its id and type). This adds
// that caller, as `by`, to the records the call wrote (workflow/caller.ts finds them by the `at` of its
// answer), so state says which agent activated, completed or checked what.
import { defineGuard } from '../engine/guard.js';
import { recordedIn, recordsOf, type Caller } from '../workflow/caller.js';

export const toolCaller = defineGuard({
  id: 'tool-caller',
  description: "Adds who called (session, subagent) to what one of isdlc's workflow tools recorded, from the call's PostToolUse.",
  on: { PostToolUse: ['isdlc'] },
  check({ event, state, update, log }) {
    const operation = event.tool?.operation;
    if (!operation || !event.sessionId || !event.outcome) return;
    const recorded = recordedIn(operation, event.outcome.text);
    // A read, or a refused call, recorded nothing.
    if (!recorded || recordsOf(state, recorded).length === 0) return;
    const by: Caller = {
      session: event.sessionId,
      ...(event.agentId ? { agent_id: event.agentId } : {}),
      ...(event.agentType ? { agent_type: event.agentType } : {}),
    };
    log({ operation, at: recorded.at, by });
    update((draft) => {
      for (const record of recordsOf(draft, recorded)) record['by'] = by;
    });
  },
});
