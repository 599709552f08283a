// A commit landed while human code review is off on a team of more than one: the person should know.
// Solo projects (team_size 1, the default) hear nothing. Never blocks.
import { gitCommitsIn } from '../detect/git-commands.js';
import { defineGuard } from '../engine/guard.js';
import { activeWorkflowOf } from '../state/current-phase.js';

export const reviewReminder = defineGuard({
  id: 'review-reminder',
  description: 'After a git commit, reminds the user when code review is off although the team has more than one developer.',
  on: { PostToolUse: ['shell'] },
  check({ event, state, tellUser, log }) {
    const command = typeof event.tool?.input['command'] === 'string' ? event.tool.input['command'] : '';
    if (!activeWorkflowOf(state) || gitCommitsIn(command).length === 0) return;
    const review = state?.['code_review'] as { enabled?: unknown; team_size?: unknown } | undefined;
    const teamSize = typeof review?.team_size === 'number' ? review.team_size : 1;
    if (review?.enabled === true || teamSize <= 1) return;
    log({ team_size: teamSize });
    tellUser(
      `isdlc: that commit was not reviewed by a person: code review is off, and your team has ${teamSize} developers. ` +
        'To have commits reviewed, set code_review.enabled to true in .isdlc/state.json (edit it yourself; the agent may not).',
    );
  },
});
