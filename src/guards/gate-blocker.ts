// An attempt to pass the current phase's gate (the orchestrator asked to advance, or the isdlc skill run
// with advance or gate) is denied until every check holds, with each unmet requirement and what to do
// about it. The outcome is recorded in `phases[p].gate_validation`.
import { effectivePhaseRequirements } from '../config/requirements.js';
import { GATE_KEYWORDS, orchestratorCall, workflowSkillCall } from '../detect/advance.js';
import { defineGuard } from '../engine/guard.js';
import { loadGate } from '../gates/load-gate.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';
import { addEscalation } from '../state/escalations.js';
import { iterationEnforcementOff } from '../state/enforcement.js';
import { ensureConstitutionalTracking, phaseDraft } from '../state/phase-records.js';
import { forAgent, toolRef } from '../config/agent-operations.js';

export const gateBlocker = defineGuard({
  id: 'gate-blocker',
  description: 'Denies attempts to pass the current phase gate while its test, constitutional, elicitation, delegation or artifact requirements are unmet.',
  on: { PreToolUse: ['agent', 'skill'] },
  check({ event, state, config, location, now, deny, note, update, log }) {
    const phase = currentPhaseOf(state);
    const workflow = activeWorkflowOf(state);
    if (!state || !phase || !workflow) return;
    // Switched off by the person: the gate is not judged here (nor was it in the JavaScript framework).
    // `isdlc phase complete` still refuses on isdlc's own integrity checks (gates/evaluate.ts).
    if (iterationEnforcementOff(state)) return;
    const attempt = workflowSkillCall(event, GATE_KEYWORDS) ?? orchestratorCall(event, config.manifest, GATE_KEYWORDS);
    if (attempt === null) return;

    const { evaluateGate, describeUnmet } = loadGate();
    const evaluation = evaluateGate({ state, config, phase, root: location.root, docsBase: location.docsBase });
    const timestamp = now.toISOString();
    log({ phase, open: evaluation.open, unmet: evaluation.unmet.map((check) => check.requirement) });
    const requirements = effectivePhaseRequirements(config.iterationRequirements, phase, workflow.type);

    if (!evaluation.open) {
      update((draft) => {
        phaseDraft(draft, phase).gate_validation = {
          status: 'blocked',
          blocked_at: timestamp,
          blocking_requirements: evaluation.unmet.map((check) => check.requirement),
          details: evaluation.unmet.map((check) => `${check.requirement}: ${check.detail}`),
        };
        // Constitutional tracking starts the first time the gate is asked for.
        const constitutional = requirements?.constitutional_validation;
        if (constitutional?.enabled && evaluation.unmet.some((check) => check.requirement === 'constitutional_validation')) {
          ensureConstitutionalTracking(draft, phase, {
            articles: constitutional.articles ?? [],
            maxIterations: constitutional.max_iterations ?? 5,
            now: timestamp,
          });
        }
        addEscalation(draft, {
          type: 'gate_blocked',
          hook: 'gate-blocker',
          phase,
          detail: evaluation.unmet.map((check) => check.requirement).join(', '),
          timestamp,
        });
      });
      deny(
        `isdlc gate-blocker: Meet the requirements below before asking to pass the gate of phase ${phase} again. ` +
          `The gate is closed: ${evaluation.unmet.length} of ${evaluation.checks.length} requirements are unmet:\n` +
          `${forAgent(describeUnmet(evaluation))}\n` +
          `${toolRef('gate_check')} shows the same list. Asking again before they are met will be denied again.`,
      );
      return;
    }

    const trigger = (requirements?.['on_gate_pass'] as { trigger_cloud_config?: { enabled?: boolean } } | undefined)?.trigger_cloud_config;
    const cloud = (state['cloud_configuration'] as { provider?: string } | undefined)?.provider;
    update((draft) => {
      phaseDraft(draft, phase).gate_validation = { status: 'passed', passed_at: timestamp, checks: evaluation.checks.map((check) => check.requirement) };
      if (trigger?.enabled && cloud === 'undecided') {
        const triggers = (Array.isArray(draft['pending_triggers']) ? draft['pending_triggers'] : []) as { type?: string; phase?: string }[];
        if (!triggers.some((t) => t.type === 'cloud_configuration' && t.phase === phase)) {
          triggers.push({ type: 'cloud_configuration', phase, created_at: timestamp } as { type: string; phase: string });
        }
        draft['pending_triggers'] = triggers;
      }
    });
    if (trigger?.enabled && cloud === 'undecided') {
      note(
        `isdlc gate-blocker: the gate of ${phase} is open. The cloud provider is still undecided: ask the user how to configure it before deployment phases (a cloud_configuration trigger is pending).`,
      );
    }
  },
});
