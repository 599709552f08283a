import { expect } from 'vitest';
import { guardTable } from '../../test/helpers/guard-table.js';
import { bashFailed, bashPassed } from '../../test/helpers/payloads.js';
import { workflowState } from '../../test/helpers/states.js';

const P = '/project';
const withReview = (review: Record<string, unknown> | undefined) => ({
  ...workflowState('feature', '08-code-review'),
  ...(review ? { code_review: review } : {}),
});
const committed = bashPassed(P, 'git commit -m "Add CSV export"', '[feature/x 1a2b3c4] Add CSV export\n 2 files changed\n');
const silent = ({ decision }: { decision: { systemMessage?: string; context?: string } }) => {
  expect(decision.systemMessage).toBeUndefined();
  expect(decision.context).toBeUndefined();
};

guardTable('review-reminder', {
  valid: [
    {
      name: 'a commit with review off on a team of four: the user is told',
      state: withReview({ enabled: false, team_size: 4 }),
      payload: committed,
      expect: 'allow',
      then: ({ decision }) => {
        expect(decision.systemMessage).toContain('your team has 4 developers');
        expect(decision.systemMessage).toContain('code_review.enabled');
      },
    },
    { name: 'review on: nothing to say', state: withReview({ enabled: true, team_size: 4 }), payload: committed, expect: 'allow', then: silent },
    {
      name: 'a team of one (the default): nothing to say',
      state: withReview({ enabled: false, team_size: 1 }),
      payload: committed,
      expect: 'allow',
      then: silent,
    },
    { name: 'no code_review section: a team of one', state: withReview(undefined), payload: committed, expect: 'allow', then: silent },
    {
      name: 'not a commit',
      state: withReview({ enabled: false, team_size: 4 }),
      payload: bashPassed(P, 'git status', 'On branch main\n'),
      expect: 'allow',
      then: silent,
    },
    {
      name: 'an echoed "git commit"',
      state: withReview({ enabled: false, team_size: 4 }),
      payload: bashPassed(P, 'echo "git commit" > NOTES.md', ''),
      expect: 'allow',
      then: silent,
    },
    {
      name: 'a commit that failed did not land',
      state: withReview({ enabled: false, team_size: 4 }),
      payload: bashFailed(P, 'git commit -m x', 1, 'nothing to commit, working tree clean'),
      expect: 'allow',
      then: silent,
    },
    {
      name: 'no active workflow',
      state: { state_version: 1, active_workflow: null, code_review: { enabled: false, team_size: 4 } },
      payload: committed,
      expect: 'allow',
      then: silent,
    },
  ],
  invalid: [],
});
