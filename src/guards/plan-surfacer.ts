// The work after design follows a task plan the user can see. Delegating a phase past the early ones
// (quick scan to test strategy) is denied while `tasks.md` is missing; when it exists and implementation
// is delegated, what is wrong with its format comes back as a note.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowDelegationOf } from '../detect/phase-delegation.js';
import { defineGuard } from '../engine/guard.js';
import { workflowPhasesOf } from '../state/current-phase.js';
import { findTasksFile, planProblems, tasksPathCandidates } from '../plan/tasks-file.js';

/** The phases that come before a plan exists (the plan is generated at the end of them). */
export const EARLY_PHASES: ReadonlySet<string> = new Set([
  '00-quick-scan',
  '01-requirements',
  '02-impact-analysis',
  '02-tracing',
  '03-architecture',
  '04-design',
  '05-test-strategy',
]);

export const planSurfacer = defineGuard({
  id: 'plan-surfacer',
  description: 'Denies delegating a phase after the early ones while the task plan (tasks.md) is missing; notes format problems of the plan at implementation.',
  on: { PreToolUse: ['agent'] },
  check({ event, state, config, location, deny, note, log }) {
    const found = workflowDelegationOf(event, state, config);
    if (!found || EARLY_PHASES.has(found.target)) return;
    const { workflow, current, target } = found;
    // An out-of-order delegation is phase-sequence-guard's to explain; the plan matters for the phase at hand.
    const reached = workflowPhasesOf(state)[workflow.current_phase_index ?? -1];
    if (target !== current && target !== reached) return;
    const plan = findTasksFile(location);
    if (!plan) {
      const expected = tasksPathCandidates(location)[0]!;
      deny(
        `isdlc plan-surfacer: Write the task plan ${expected} first, then delegate again: from the requirements and design (the generate-plan step, ORCH-012), ` +
          'a `## Phase NN: Name` section per phase with `- [ ] T0001 task | traces: FR-01` lines. ' +
          `Phase ${target} cannot be delegated without it: the plan is what lets the user see the work ahead and what the agents follow. ` +
          'Until the file exists the same call is denied.',
      );
      return;
    }
    if (target !== '06-implementation') return;
    let text: string;
    try {
      text = readFileSync(join(location.root, plan), 'utf8');
    } catch {
      return;
    }
    const problems = planProblems(text);
    if (problems.length === 0) return;
    log({ plan, problems: problems.length });
    note(
      `isdlc plan-surfacer: the task plan ${plan} has problems the implementation should know of:\n${problems.map((p) => `- ${p}`).join('\n')}\nFix the plan, or tell the user why it stays as it is.`,
    );
  },
});
