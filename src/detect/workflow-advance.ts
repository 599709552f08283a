// Does this tool call try to move the workflow on? The attempts gate-blocker and iteration-corridor know
// (the isdlc skill with advance words, the orchestrator asked to advance, another phase's agent), plus
// isdlc's own transition tools and the same operations typed in a shell. Used where isdlc cannot judge
// the attempt properly (its install is broken) and so refuses it outright.
import { knownPhaseKeys } from '../config/phases.js';
import type { ProjectConfig } from '../config/project-config.js';
import type { HookEvent } from '../events/hook-event.js';
import { detectAdvanceAttempt } from './advance.js';
import { ADVANCE_KEYWORDS, ADVANCING_COMMAND, ADVANCING_TOOLS } from './advance-words.js';
import { isdlcRunsIn } from './isdlc-commands.js';

/** A short description of the attempt, or null for ordinary work. */
export function workflowAdvanceIn(event: HookEvent, config: ProjectConfig, currentPhase: string | null): string | null {
  if (event.name !== 'PreToolUse' || !event.tool) return null;
  const tool = event.tool;
  if (tool.kind === 'isdlc') return tool.operation && ADVANCING_TOOLS.has(tool.operation) ? `${tool.name}` : null;
  if (tool.kind === 'shell') {
    const line = typeof tool.input['command'] === 'string' ? tool.input['command'] : '';
    // Run, not mentioned: `git commit -m "... isdlc phase complete ..."` moves nothing.
    const found = isdlcRunsIn(line, { powershell: tool.name === 'PowerShell' }).find(({ run }) => ADVANCING_COMMAND.test(run));
    return found ? `\`${found.command}\`` : null;
  }
  if (tool.kind !== 'skill' && tool.kind !== 'agent') return null;
  const attempt = detectAdvanceAttempt(event, { manifest: config.manifest, knownPhases: () => knownPhaseKeys(config), currentPhase }, ADVANCE_KEYWORDS);
  // Delegating to a phase's agent is ordinary work in that phase: with no known current phase it cannot be
  // told from a jump ahead, and is left alone.
  if (!attempt || (attempt.kind === 'other-phase-agent' && !currentPhase)) return null;
  if (attempt.kind === 'skill') return 'the isdlc skill asked to advance';
  if (attempt.kind === 'orchestrator') return 'a delegation asking the orchestrator to advance';
  return `a delegation to ${attempt.agent ?? 'the agent'} of phase ${attempt.targetPhase}`;
}
