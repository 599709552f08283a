// When a session starts or picks up again, the model knows nothing of isdlc's workflow or of a loop that
// holds it: after a compaction, a resume or /clear it has lost what it knew; a fresh start never knew.
// So it is told the workflow's phase and that phase's gate requirements (this can be turned off in
// config), and any live loop of the project. A fresh start in an idle project hears nothing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEvent } from '../events/hook-event.js';
import { defineGuard } from '../engine/guard.js';
import type { ProjectConfig } from '../config/project-config.js';
import { injectionEnabled } from '../gates/injection-settings.js';
import { blockForWorkflow } from '../gates/requirements-block.js';
import type { LiveLoop } from '../loop/api.js';
import { loadLoop } from '../loop/load.js';
import { activeWorkflowOf, currentPhaseOf, workflowPhasesOf } from '../state/current-phase.js';
import { phaseStatusOf } from '../state/phase-records.js';
import type { IsdlcState } from '../state/schema.js';
import { toolRef } from '../config/agent-operations.js';

/** Sessions that carry on from before, and so have lost or may have lost isdlc's context. */
const CONTINUATIONS = new Set(['resume', 'compact', 'clear']);
/** More live loops than this are left to `isdlc loop status`. */
const MAX_LOOPS = 3;

function workflowContext(event: HookEvent, state: IsdlcState | null, config: ProjectConfig): string | undefined {
  const workflow = activeWorkflowOf(state);
  const current = currentPhaseOf(state);
  if (!workflow || !current || !injectionEnabled(config, 'session_start')) return undefined;
  const phases = workflowPhasesOf(state);
  const status = String(phaseStatusOf(state, current) ?? 'pending');
  const next =
    status === 'in_progress' ? `carry on with it; ${toolRef('phase_complete')} once its gate is open` : `${toolRef('phase_activate')} starts the next phase`;
  const block = blockForWorkflow(config, workflow, current);
  const opening = CONTINUATIONS.has(event.source ?? '')
    ? `this session continues a ${String(workflow.type ?? '')} workflow`
    : `this project has an active ${String(workflow.type ?? '')} workflow`;
  return (
    `isdlc: ${opening} (${phases.join(' → ')}). The current phase is ${current}, ${status.replace('_', ' ')}: ${next}. ` +
    `${toolRef('status')} shows the rest.` +
    (block && status === 'in_progress' ? `\n\n${block}` : '')
  );
}

function holder(loop: LiveLoop, sessionId: string | undefined): string {
  if (!loop.sessionId) return `No session holds it yet (a person may ask you to run \`isdlc loop claim ${loop.id}\`).`;
  if (loop.sessionId !== sessionId) return 'It is bound to another session, so it does not hold this one.';
  if (loop.agentId) return `It holds a subagent of this session (${loop.agentType ?? loop.agentId}), not you.`;
  return (
    `It holds this session: your turn ends only when its rules pass and your final message ends with ${loop.completeTag}, ` +
    'or when you end it with <promise>BLOCKED</promise> and the reason.'
  );
}

function loopContext(loops: LiveLoop[], sessionId: string | undefined): string | undefined {
  if (loops.length === 0) return undefined;
  const lines = loops
    .slice(0, MAX_LOOPS)
    .map(
      (loop) =>
        `isdlc loop ${loop.id} is live ("${loop.taskTitle}"): iteration ${loop.iteration} of ${loop.maxIterations}, ` +
        `rules ${loop.rules.length > 0 ? loop.rules.join(', ') : 'none (the promise alone ends it)'}, completion promise ${loop.completeTag}. ` +
        holder(loop, sessionId),
    );
  const more = loops.length > MAX_LOOPS ? ` (${loops.length - MAX_LOOPS} more running)` : '';
  return `${lines.join('\n')}\n\`isdlc loop status\` shows the task, the history and the latest failure${more}.`;
}

export const sessionContext = defineGuard({
  id: 'session-context',
  description:
    "When a session starts, resumes, is compacted or cleared, tells the model its workflow, current phase and that phase's gate requirements, and any live loop; nothing in an idle project.",
  on: { SessionStart: true },
  check({ event, state, config, location, note, log }) {
    const parts: string[] = [];
    const workflow = workflowContext(event, state, config);
    if (workflow) parts.push(workflow);
    // The loop bundle (SQLite) loads only in a project that ever had a loop.
    if (existsSync(join(location.isdlcDir, 'loop.db'))) {
      const api = loadLoop();
      try {
        const loops = loopContext(api.liveLoops(location.isdlcDir), event.sessionId);
        if (loops) parts.push(loops);
      } catch (error) {
        if (!(error instanceof api.LoopDbError)) throw error;
        log({ loops: 'unreadable', problem: error.message });
      }
    }
    if (parts.length > 0) note(parts.join('\n\n'));
  },
});
