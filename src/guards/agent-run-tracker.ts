// A tool call made inside a subagent carries the subagent's id: the first one of a run opens its entry, or
// marks the launched one as working (what the run did, the evidence a phase's delegation counts, comes from
// the calls' results: agent-work-tracker). Only the first is recorded, so a later call costs no write.
// A run whose launch is not logged yet (a synchronous run logs at its end; a background one can be
// faster than its launch's hook) gets its entry here, `running`, which its launch then fills in.
import { defineGuard } from '../engine/guard.js';
import { runIsOpen, seenRunEntry, SKILL_USAGE_LOG_LIMIT } from '../state/agent-runs.js';
import { currentPhaseOf } from '../state/current-phase.js';

export const agentRunTracker = defineGuard({
  id: 'agent-run-tracker',
  description:
    "Marks a subagent run's first tool call (first_tool_at on its skill_usage_log entry), the evidence that the run worked; a run seen before its launch was logged gets a `running` entry.",
  on: { PreToolUse: true },
  check({ event, state, config, now, update }) {
    const agentId = event.agentId;
    // The main agent's calls carry no id: nothing to do, and no state read.
    if (!agentId || !event.tool || !state) return;
    const known = (state.skill_usage_log ?? []).filter((entry) => entry.agent_id === agentId);
    // An ended run stays as it ended: work after it (a resumed agent) is not this run's.
    if (known.length > 0 && !known.some((entry) => runIsOpen(entry) && entry.first_tool_at === undefined)) return;
    const at = now.toISOString();
    const entry = seenRunEntry(agentId, event.agentType, config.manifest, currentPhaseOf(state), at);
    update((draft) => {
      const logged = Array.isArray(draft.skill_usage_log) ? draft.skill_usage_log : [];
      // Applied to the newest state: the launch's hook, running beside this one, may have logged the run since.
      const mine = logged.filter((other) => other.agent_id === agentId);
      if (mine.length === 0) {
        logged.push(entry);
        draft.skill_usage_log = logged.slice(-SKILL_USAGE_LOG_LIMIT);
        return;
      }
      for (const other of mine) if (runIsOpen(other)) other.first_tool_at ??= at;
    });
  },
});
