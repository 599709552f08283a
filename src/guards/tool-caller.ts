// Who changed the workflow through one of isdlc's MCP tools. The tool recorded what it did; the PostToolUse
// payload of the call says who called it (the session, and inside a subagent its id and type). This adds
// that caller, as `by`, to the records the call wrote (workflow/caller.ts finds them by the `at` of its
// answer), so state says which agent activated, completed or checked what.
// An article check recorded with the `isdlc` command has no such call: the shell call whose run covers
// the record's time gets it, marked `via: "shell"` (a guess by time, shown but not trusted by the gate).
// A `by` once written is never replaced.
import { defineGuard } from '../engine/guard.js';
import { recordedIn, recordsOf, SHELL_WINDOW_SLACK_MS, shellRecordsWithin, type Caller } from '../workflow/caller.js';

export const toolCaller = defineGuard({
  id: 'tool-caller',
  description:
    "Adds who called (session, subagent) to what one of isdlc's workflow tools recorded, from the call's PostToolUse; and to article checks an `isdlc` command recorded during a shell call, from that call's.",
  on: { PostToolUse: ['isdlc', 'shell'], PostToolUseFailure: ['shell'] },
  check({ event, state, now, update, log }) {
    if (!event.sessionId || !event.outcome || !event.tool) return;
    const caller: Caller = {
      session: event.sessionId,
      ...(event.agentId ? { agent_id: event.agentId } : {}),
      ...(event.agentType ? { agent_type: event.agentType } : {}),
    };
    if (event.tool.kind === 'shell') {
      const duration = event.outcome.durationMs;
      // A call sent to the background returns before its command has run; older hosts send no duration.
      if (duration === undefined || event.outcome.backgrounded) return;
      const from = new Date(now.getTime() - duration - SHELL_WINDOW_SLACK_MS).toISOString();
      const to = now.toISOString();
      const found = shellRecordsWithin(state, from, to).length;
      if (found === 0) return;
      const by: Caller = { ...caller, via: 'shell' };
      log({ shell_records: found, by });
      update((draft) => {
        for (const record of shellRecordsWithin(draft, from, to)) record['by'] = by;
      });
      return;
    }
    const operation = event.tool.operation;
    if (!operation) return;
    const recorded = recordedIn(operation, event.outcome.text);
    // A read, or a refused call, recorded nothing.
    if (!recorded) return;
    const unattributed = (current: typeof state) => recordsOf(current, recorded).filter((record) => record['by'] === undefined);
    if (unattributed(state).length === 0) return;
    log({ operation, at: recorded.at, by: caller });
    update((draft) => {
      for (const record of unattributed(draft)) record['by'] = caller;
    });
  },
});
