// An attempt to declare the phase complete (the orchestrator or the isdlc skill told "phase complete",
// "ready for gate", ...) while its constitutional validation is unfinished starts the tracking if needed
// and is denied with the checklist of articles to check.
import { articleChecklist } from '../config/constitution.js';
import { effectivePhaseRequirements } from '../config/requirements.js';
import { COMPLETION_PHRASES, orchestratorCall, workflowSkillCall } from '../detect/advance.js';
import { defineGuard } from '../engine/guard.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';
import { iterationEnforcementOff } from '../state/enforcement.js';
import { constitutionalOf, ensureConstitutionalTracking } from '../state/phase-records.js';
import { constitutionCompliant } from '../state/requirement-records.js';
import { RECORD_ARTICLE } from '../config/agent-operations.js';

export const constitutionValidator = defineGuard({
  id: 'constitution-validator',
  description: 'On a phase-completion attempt, starts constitutional tracking and denies until every required article is compliant.',
  on: { PreToolUse: ['agent', 'skill'] },
  check({ event, state, config, now, deny, update }) {
    const phase = currentPhaseOf(state);
    if (!state || !phase || !activeWorkflowOf(state) || iterationEnforcementOff(state)) return;
    const wanted = effectivePhaseRequirements(config.iterationRequirements, phase, activeWorkflowOf(state)?.type)?.constitutional_validation;
    if (!wanted?.enabled) return;
    if (workflowSkillCall(event, COMPLETION_PHRASES) === null && orchestratorCall(event, config.manifest, COMPLETION_PHRASES) === null) return;

    const record = constitutionalOf(state, phase);
    if (constitutionCompliant(record)) return;
    if (record?.status === 'escalated' && record.escalation_approved === true) return;
    const articles = record?.articles_required ?? wanted.articles ?? [];
    const max = record?.max_iterations ?? wanted.max_iterations ?? 5;
    if (!record?.started_at) {
      update((draft) => void ensureConstitutionalTracking(draft, phase, { articles, maxIterations: max, now: now.toISOString() }));
    }
    const checklist = articleChecklist(config.constitution, articles, new Set(record?.articles_checked ?? []));
    const escalated = record?.status === 'escalated';
    deny(
      (escalated
        ? `isdlc constitution-validator: Ask the person to review the escalated constitutional validation of phase ${phase} ` +
          `and, if they agree, approve it themselves in their own terminal (\`isdlc escalation approve --phase ${phase}\`); then declare the phase complete again. ` +
          `It was escalated after repeated violations, and phase ${phase} cannot be declared complete before its constitutional validation is.\n`
        : `isdlc constitution-validator: Check phase ${phase}'s work against each article below and record each check with ` +
          `${RECORD_ARTICLE}; once every article is compliant, declare the phase complete again. ` +
          `The phase cannot be declared complete before its constitutional validation is (status: ${record?.started_at ? String(record.status ?? 'pending') : 'started now'}, iteration ${record?.iterations_used ?? 0} of ${max}).\n`) +
        checklist,
    );
  },
});
