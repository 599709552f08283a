// Counts the A/R/C menu presentations in what agents say (a subagent's result, the main agent's last
// message) and takes the user's choice from what the user typed next, where the choice really comes
// from. Save completes the elicitation.
import { effectivePhaseRequirements } from '../config/requirements.js';
import { completedStepsIn, menuChoiceIn, presentsMenu, stepNameOf, type CompletedStep, type MenuChoice } from '../detect/menus.js';
import type { HookEvent } from '../events/hook-event.js';
import { defineGuard } from '../engine/guard.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';
import { iterationEnforcementOff } from '../state/enforcement.js';
import { elicitationDraft, elicitationOf, phaseStatusOf, type ElicitationState } from '../state/phase-records.js';
import { normaliseFailure } from '../testwatch/text.js';

/** The text an agent showed, for the events that carry one. */
function agentText(event: HookEvent): string | undefined {
  if (event.name === 'PostToolUse' && event.tool?.kind === 'agent') return event.outcome?.text;
  if (event.name === 'Stop' || event.name === 'SubagentStop') return event.stop?.lastMessage;
  return undefined;
}

/** The same menu reported twice (a subagent's PostToolUse and its SubagentStop) counts once. */
function fingerprint(text: string): string {
  return normaliseFailure(text).slice(-300);
}

const TOTAL_STEPS = 7;

/** Steps newly done join `steps_completed` in the order reported, as the JavaScript framework kept them. */
function addSteps(record: ElicitationState, steps: CompletedStep[], now: string): void {
  const done = [...new Set((record.steps_completed ?? []).map(stepNameOf))];
  for (const step of steps) {
    if (done.includes(step.name)) continue;
    done.push(step.name);
    record.last_step_completed = { step: step.step, name: step.name };
    record.last_step_at = now;
  }
  record.steps_completed = done;
}

function applyChoice(record: ElicitationState, choice: MenuChoice, now: string): boolean {
  record.menu_interactions = (record.menu_interactions ?? 0) + 1;
  record.selections = [...(record.selections ?? []), { selection: choice, timestamp: now }].slice(-50);
  record.last_selection = choice;
  record.last_selection_at = now;
  record.awaiting_selection = false;
  const finishes = choice === 'save' || (choice === 'continue' && (record.steps_completed ?? []).length >= TOTAL_STEPS);
  if (finishes && record.completed !== true) {
    record.completed = true;
    record.final_selection = choice;
    record.completed_at = now;
    return true;
  }
  return false;
}

export const menuTracker = defineGuard({
  id: 'menu-tracker',
  description: 'Counts A/R/C elicitation menus the agents present and the choices the user makes; Save completes the elicitation.',
  on: { PostToolUse: ['agent'], Stop: true, SubagentStop: true, UserPromptSubmit: true },
  check({ event, state, config, now, note, tellUser, update }) {
    const phase = currentPhaseOf(state);
    // A completed phase's elicitation is the evidence its gate passed on; it is not added to afterwards.
    // Nor is anything recorded while the person has switched iteration enforcement off (as in the JavaScript framework).
    if (!state || !phase || !activeWorkflowOf(state) || phaseStatusOf(state, phase) === 'completed' || iterationEnforcementOff(state)) return;
    const wanted = effectivePhaseRequirements(config.iterationRequirements, phase, activeWorkflowOf(state)?.type)?.interactive_elicitation;
    if (!wanted?.enabled) return;
    const timestamp = now.toISOString();
    const record = elicitationOf(state, phase);

    if (event.name === 'UserPromptSubmit') {
      if (record?.awaiting_selection !== true) return;
      // A background task's notification arrives without a prompt (the adapter keeps it apart): nobody chose.
      const choice = menuChoiceIn(event.prompt ?? '');
      if (!choice) return;
      const predicted = structuredClone(record);
      const completes = applyChoice(predicted, choice, timestamp);
      update((draft) => void applyChoice(elicitationDraft(draft, phase), choice, timestamp));
      if (completes) {
        const message = `INTERACTIVE ELICITATION COMPLETED: phase ${phase}, final selection "${choice}" after ${predicted.menu_interactions} menu interaction${predicted.menu_interactions === 1 ? '' : 's'}.`;
        note(`isdlc menu-tracker: ${message}`);
        tellUser(`isdlc: ${message}`);
      } else {
        note(
          `isdlc menu-tracker: the user chose "${choice}" (menu interaction ${predicted.menu_interactions} of at least ${wanted.min_menu_interactions ?? 1} for phase ${phase}).`,
        );
      }
      return;
    }

    const text = agentText(event);
    if (!text) return;
    const steps = completedStepsIn(text);
    const menu = presentsMenu(text) && !(record?.awaiting_selection === true && record['last_menu_fingerprint'] === fingerprint(text));
    if (!menu && steps.length === 0) return;
    update((draft) => {
      const draftRecord = elicitationDraft(draft, phase);
      draftRecord.required = true;
      draftRecord.started_at ??= timestamp;
      draftRecord.completed ??= false;
      if (steps.length > 0) addSteps(draftRecord, steps, timestamp);
      if (menu) {
        draftRecord.menu_presentations = (draftRecord.menu_presentations ?? 0) + 1;
        draftRecord.awaiting_selection = true;
        draftRecord.last_menu_at = timestamp;
        draftRecord['last_menu_fingerprint'] = fingerprint(text);
      }
    });
  },
});
