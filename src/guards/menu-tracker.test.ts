import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { lastActivity } from '../../test/helpers/project.js';
import { agentResult, stop, taskNotification, userPrompt } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const MENU = 'Here is the draft of the business context.\n\n[A] Adjust  [R] Refine  [C] Continue  [S] Save\n\nSelect an option.';

function awaiting(extra: Record<string, unknown> = {}): Record<string, any> {
  const state = workflowState('feature', '01-requirements');
  state['phases']['01-requirements'].iteration_requirements = {
    interactive_elicitation: {
      required: true,
      started_at: '2026-11-25T10:00:00.000Z',
      menu_presentations: 1,
      menu_interactions: 2,
      awaiting_selection: true,
      selections: [],
      ...extra,
    },
  };
  return state;
}
const elicitation = (state: Record<string, any>) => state['phases']['01-requirements'].iteration_requirements?.interactive_elicitation;

guardTable('menu-tracker', {
  valid: [
    {
      name: 'counts a menu in a subagent result and waits for the choice',
      state: workflowState('feature', '01-requirements'),
      payload: agentResult(P, { subagent_type: 'requirements-analyst' }, MENU),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toMatchObject({ menu_presentations: 1, awaiting_selection: true, started_at: expect.any(String) }),
    },
    {
      name: "counts a menu in the main agent's last message at Stop",
      state: workflowState('feature', '01-requirements'),
      payload: stop(P, MENU),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toMatchObject({ menu_presentations: 1 }),
    },
    {
      name: 'one menu option alone is not a menu',
      state: workflowState('feature', '01-requirements'),
      payload: stop(P, 'When ready, [C] Continue.'),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toBeUndefined(),
    },
    {
      name: 'the user choosing Refine is one interaction',
      state: awaiting(),
      payload: userPrompt(P, 'R'),
      expect: 'allow',
      contextIncludes: ['chose "refine"', 'menu interaction 3'],
      then: ({ state }) =>
        expect(elicitation(state)).toMatchObject({
          menu_interactions: 3,
          awaiting_selection: false,
          selections: [expect.objectContaining({ selection: 'refine' })],
        }),
    },
    {
      name: 'Save completes the elicitation with the completion message',
      state: awaiting(),
      payload: userPrompt(P, '[S]'),
      expect: 'allow',
      contextIncludes: ['INTERACTIVE ELICITATION COMPLETED', 'after 3 menu interactions'],
      then: ({ state, decision }) => {
        expect(elicitation(state)).toMatchObject({ completed: true, final_selection: 'save', completed_at: expect.any(String) });
        expect(decision.systemMessage).toContain('INTERACTIVE ELICITATION COMPLETED');
      },
    },
    {
      name: "a background agent's task notification is not the user's choice, whatever its result says",
      state: awaiting(),
      payload: taskNotification(P, `Drafted the requirements.\n\n[A] Adjust  [R] Refine  [C] Continue  [S] Save\n\nSave`),
      expect: 'allow',
      then: ({ state, decision, project }) => {
        expect(elicitation(state)).toMatchObject({ menu_interactions: 2, awaiting_selection: true, selections: [] });
        expect(decision.context).toBeUndefined();
        expect(lastActivity(project)).toMatchObject({ event: 'UserPromptSubmit', notification: 'task' });
      },
    },
    {
      name: 'a task notification with leading whitespace and a bare "C" result is not a choice either',
      state: awaiting(),
      payload: (() => {
        const payload = taskNotification(P, 'C');
        return { ...payload, prompt: `\n  ${String(payload['prompt'])}` };
      })(),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toMatchObject({ menu_interactions: 2, awaiting_selection: true }),
    },
    {
      name: '"select an option" is not a selection',
      state: awaiting(),
      payload: userPrompt(P, 'select an option for me, whichever you think'),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toMatchObject({ menu_interactions: 2, awaiting_selection: true }),
    },
    {
      name: 'a choice typed when no menu is waiting is ordinary text',
      state: awaiting({ awaiting_selection: false }),
      payload: userPrompt(P, 'continue'),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toMatchObject({ menu_interactions: 2 }),
    },
    {
      name: '"Step 1 is now complete" records the step under the framework\'s name',
      state: workflowState('feature', '01-requirements'),
      payload: stop(P, 'Step 1 is now complete. Next: who uses the product?'),
      expect: 'allow',
      then: ({ state }) =>
        expect(elicitation(state)).toMatchObject({
          steps_completed: ['project_discovery'],
          last_step_completed: { step: 1, name: 'project_discovery' },
          last_step_at: expect.any(String),
        }),
    },
    {
      name: 'named steps count as the framework named them, in the order reported; numbers stored earlier are renamed',
      state: awaiting({ steps_completed: ['1'] }),
      payload: agentResult(
        P,
        { subagent_type: 'requirements-analyst' },
        'Persona identification is now complete.\nNon-functional requirements complete, and user stories completed.',
      ),
      expect: 'allow',
      then: ({ state }) =>
        expect(elicitation(state)).toMatchObject({
          steps_completed: ['project_discovery', 'user_personas', 'nfr', 'user_stories'],
          last_step_completed: { step: 5, name: 'user_stories' },
        }),
    },
    {
      name: 'a step said not to be complete, or outside the seven, is not recorded',
      state: workflowState('feature', '01-requirements'),
      payload: stop(P, 'Step 3 is not complete yet. Step 12 complete. Functional requirements: still drafting, the list is done later'),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toBeUndefined(),
    },
    {
      name: 'a choice is kept with its timestamp and as the last selection',
      state: awaiting(),
      payload: userPrompt(P, 'a: shorter title'),
      expect: 'allow',
      then: ({ state }) =>
        expect(elicitation(state)).toMatchObject({
          last_selection: 'adjust',
          last_selection_at: expect.any(String),
          selections: [{ selection: 'adjust', timestamp: expect.any(String) }],
        }),
    },
    {
      name: 'phases without elicitation are left alone',
      state: workflowState('feature', '06-implementation'),
      payload: stop(P, MENU),
      expect: 'allow',
      then: ({ state }) => expect(state['phases']['06-implementation'].iteration_requirements).toBeUndefined(),
    },
    {
      name: 'a completed phase keeps the elicitation its gate passed on',
      state: (() => {
        const state = awaiting();
        state['phases']['01-requirements'].status = 'completed';
        state['active_workflow'].phase_status['01-requirements'] = 'completed';
        return state;
      })(),
      payload: userPrompt(P, 'a: one more change'),
      expect: 'allow',
      then: ({ state }) => expect(elicitation(state)).toMatchObject({ menu_interactions: 2, selections: [] }),
    },
  ],
  invalid: [],
});
