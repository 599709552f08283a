// While the phase's tests fail (TEST_CORRIDOR), or after they pass while its constitutional validation
// is unfinished (CONST_CORRIDOR), attempts to move the workflow on are denied. Everything else,
// including delegating to the phase's own agent to fix things, goes ahead.
import { articleChecklist } from '../config/constitution.js';
import { knownPhaseKeys } from '../config/phases.js';
import type { ProjectConfig } from '../config/project-config.js';
import { effectivePhaseRequirements } from '../config/requirements.js';
import { detectAdvanceAttempt, type AdvanceAttempt } from '../detect/advance.js';
import { phaseAgent } from '../config/agents.js';
import { defineGuard } from '../engine/guard.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';
import { iterationEnforcementOff } from '../state/enforcement.js';
import { constitutionalOf, ensureConstitutionalTracking, testIterationOf } from '../state/phase-records.js';
import { testsPassed } from '../state/requirement-records.js';
import type { IsdlcState } from '../state/schema.js';
import { iterationLimits } from '../testwatch/limits.js';
import { RECORD_ARTICLE } from '../config/agent-operations.js';
import { asText } from '../util/json.js';

export type Corridor = 'TEST_CORRIDOR' | 'CONST_CORRIDOR' | 'NONE';

/** The corridor in force, in priority order. */
export function corridorOf(state: IsdlcState, config: ProjectConfig, phase: string): Corridor {
  const requirements = effectivePhaseRequirements(config.iterationRequirements, phase, activeWorkflowOf(state)?.type);
  const tests = testIterationOf(state, phase);
  const testsEnabled = requirements?.test_iteration?.enabled === true;
  if (testsEnabled && tests?.last_test_result === 'failed' && tests.completed !== true && tests.status !== 'escalated') return 'TEST_CORRIDOR';
  const testsSatisfied = !testsEnabled || testsPassed(tests);
  const constitution = constitutionalOf(state, phase);
  if (testsSatisfied && requirements?.constitutional_validation?.enabled === true && constitution?.completed !== true && constitution?.status !== 'escalated') {
    return 'CONST_CORRIDOR';
  }
  return 'NONE';
}

function attemptText(attempt: AdvanceAttempt): string {
  if (attempt.kind === 'other-phase-agent') return `hands work to ${attempt.agent ?? 'an agent'} of phase ${attempt.targetPhase}`;
  if (attempt.kind === 'skill') return `asks the isdlc skill to ${attempt.text.trim().slice(0, 80)}`;
  return 'asks the orchestrator to move the workflow on';
}

export const iterationCorridor = defineGuard({
  id: 'iteration-corridor',
  description: 'While tests fail, or constitutional validation is unfinished after they pass, denies attempts to advance the workflow.',
  on: { PreToolUse: ['agent', 'skill'] },
  check({ event, state, config, now, deny, update, log }) {
    const phase = currentPhaseOf(state);
    if (!state || !phase || !activeWorkflowOf(state) || iterationEnforcementOff(state)) return;
    const corridor = corridorOf(state, config, phase);
    if (corridor === 'NONE') return;
    const attempt = detectAdvanceAttempt(event, { manifest: config.manifest, knownPhases: () => knownPhaseKeys(config), currentPhase: phase });
    if (!attempt) return;
    log({ corridor, attempt: attempt.kind });
    const ownAgent = phaseAgent(config.manifest, phase);
    const requirements = effectivePhaseRequirements(config.iterationRequirements, phase, activeWorkflowOf(state)?.type);

    if (corridor === 'TEST_CORRIDOR') {
      const tests = testIterationOf(state, phase) ?? {};
      const error = asText(tests['last_error']).split('\n').slice(0, 3).join(' / ');
      deny(
        `isdlc iteration-corridor: Fix the failing tests of phase ${phase} and run them again before moving the workflow on ` +
          `(editing, reading and running tests are all allowed${ownAgent ? `, and so is delegating the fix to ${ownAgent}` : ''}). ` +
          `TEST_CORRIDOR: while the phase's tests fail the workflow cannot move on, and this call ${attemptText(attempt)}. ` +
          `Iteration ${tests.current_iteration ?? 0} of ${tests.max_iterations ?? iterationLimits(state, requirements).max}; ` +
          `last command \`${tests.last_test_command ?? '?'}\`${error ? `; last error: ${error}` : ''}. ` +
          'This call will be denied again until the tests pass.',
      );
      return;
    }
    const constitution = constitutionalOf(state, phase) ?? {};
    const articles = constitution.articles_required ?? requirements?.constitutional_validation?.articles ?? [];
    const max = constitution.max_iterations ?? requirements?.constitutional_validation?.max_iterations ?? 5;
    // An attempt to move on is when constitutional tracking starts.
    if (!constitution.started_at) update((draft) => void ensureConstitutionalTracking(draft, phase, { articles, maxIterations: max, now: now.toISOString() }));
    deny(
      `isdlc iteration-corridor: Check phase ${phase}'s work against each article below and record each check with ` +
        `${RECORD_ARTICLE} before moving the workflow on. ` +
        `CONST_CORRIDOR: the tests are satisfied, but the constitutional validation is ` +
        `${constitution.started_at ? String(constitution.status ?? 'pending') : 'not started'} ` +
        `(iteration ${constitution.iterations_used ?? 0} of ${max}), and this call ${attemptText(attempt)}.\n` +
        `${articleChecklist(config.constitution, articles, new Set(constitution.articles_checked ?? []))}\n` +
        'This call will be denied again until every article is compliant.',
    );
  },
});
