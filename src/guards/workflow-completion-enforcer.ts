// After an agent archives a workflow by editing state itself, the archived entry gets the phase
// snapshots and metrics `isdlc workflow finalize` would have written.
import { defineGuard } from '../engine/guard.js';
import { relativeToRoot } from '../integrity/guarded-set.js';
import { toolTarget } from '../integrity/tool-target.js';
import { archiveNeedingRepair, repairArchivedWorkflow } from '../workflow/repair-history.js';
import { toolRef } from '../config/agent-operations.js';
import { asText } from '../util/json.js';

export const workflowCompletionEnforcer = defineGuard({
  id: 'workflow-completion-enforcer',
  description: 'Adds phase snapshots and metrics to a workflow archived by hand (without `isdlc workflow finalize`).',
  on: { PostToolUse: ['write', 'edit'] },
  check({ event, state, location, guarded, now, update, note, log }) {
    // This workflow's state file, however the Write named it.
    const target = toolTarget(event, location.root, guarded)?.guarded;
    if (target?.kind !== 'state' || target.relative !== relativeToRoot(location.root, location.stateFile)) return;
    const entry = archiveNeedingRepair(state, now);
    if (!entry) return;
    update((draft) => void repairArchivedWorkflow(draft, now));
    log({ repaired: asText(entry['type']) });
    note(
      `isdlc workflow-completion-enforcer: the ${asText(entry['type'])} workflow was archived by editing state, without its phase snapshots ` +
        `or metrics; isdlc has added them from the phase records. Next time call ${toolRef('workflow_finalize')}, which does this in one step.`,
    );
  },
});
