// The agent-facing files `isdlc init` installs: the /isdlc command that runs the phase loop with isdlc's
// MCP tools, and one definition per phase agent of the skills manifest. Generated from the project's
// config so names, phases and limits cannot drift from what the guards enforce.
import type { ProjectConfig } from '../../config/project-config.js';
import { DEFAULT_REVIEWER } from '../../config/agents.js';
import { toolRef } from '../../config/agent-operations.js';
import { bulleted, neverByHand, phaseAgentGuide, phaseAgents, reviewerDuties, type HostWords } from '../../install/agent-guide.js';

/** A tool of isdlc's MCP server, as the model calls it. */
const T = toolRef;

export const COMMAND_FILE = '.claude/commands/isdlc.md';
export const AGENT_DIR = '.claude/agents';

const WORDS: HostWords = { shell: 'the Bash tool' };
const NEVER_BY_HAND = neverByHand(WORDS);

const PHASE_LOOP = `---
description: Run an isdlc workflow (feature, fix, test-run, test-generate, upgrade) phase by phase, through its gates
argument-hint: <workflow type> "<what it is for>"
---
# /isdlc: the phase loop

Arguments: $ARGUMENTS

You coordinate; the phase agents do the work; isdlc keeps the record. Workflow state changes only through
the tools of isdlc's MCP server named below (${T('status')} and its siblings).
${NEVER_BY_HAND}
Some decisions are the user's alone: the user runs those in their own terminal, never you.

## STEP 1: initialise
Delegate to the **sdlc-orchestrator** agent first (Agent tool, subagent_type "sdlc-orchestrator") with the
arguments above. It starts the workflow (${T('workflow_start')}) or reports the one already
active. Do not do the requested work yourself.

## STEP 2: read where the workflow stands
${T('status')} shows the phases, the current one, its gate and the next step.

## STEP 3: for each phase, in order
- **3a.** ${T('status')}. When every phase is completed, go to STEP 4.
- **3b.** ${T('escalations')}. If any are open, show them to the user and ask them to choose: retry
  (${T('escalations_clear')}, then go on), skip (the user runs \`isdlc phase skip --reason "..."\` in their
  own terminal) or cancel (${T('workflow_cancel')} with their reason).
- **3c.** A supervised workflow may be waiting for the user's review of the last phase: show them the
  phase summary and ask for continue (the user runs \`isdlc phase review continue\` in their own terminal),
  review or redo (${T('phase_review')} with decision "review" or "redo" and their note).
- **3c-prime.** ${T('phase_activate')} — before any delegation. It names the phase's agent.
- **3c-plan.** From implementation on, isdlc wants the task plan \`docs/isdlc/tasks.md\`: one
  \`## Phase NN: Name\` section per phase with \`- [ ] T0001 task | traces: FR-01\` lines, and under each
  implementation task its \`  files:\` and \`  blocked_by: [T....]\` lines. Write it at the end of the test
  strategy phase if it is missing.
- **3d.** ${T('delegation_prompt')} gives the prompt for the phase (artifact folder, modifiers, gate
  requirements) and its agent. Delegate to that agent (Agent tool) with that prompt and the user's request,
  unchanged. When the prompt has no GATE REQUIREMENTS block (isdlc could not read its config),
  delegate without it: the guards still check the gate, and isdlc adds the block itself when it can.
- **3e.** When the agent reports back, ${T('gate_check')}. If the gate is open:
  ${T('phase_complete')} with a one-line summary of what the phase produced. If it is closed, send the
  agent back with the unmet requirements; after repeated failures isdlc escalates to the user. When it asks
  for an independent review of the articles, delegate that to **${DEFAULT_REVIEWER}** (Agent tool): it
  reads what the phase changed and records each article; neither you nor the phase's agent can.

## STEP 4: finish
${T('workflow_finalize')} archives the workflow with its phase snapshots and metrics. Tell the
user what was done, phase by phase.
`;

const ORCHESTRATOR = `---
name: sdlc-orchestrator
description: Starts and finishes isdlc workflows; use it first whenever /isdlc is run.
---
You start and finish isdlc workflows. You do not do the phases' work.

- To start: check ${T('status')}. With no active workflow, call ${T('workflow_start')} with the
  type and a description of what the user asked for (and branch, when the work happens on a branch of its
  own; supervised, when the user wants to review each phase). Report the phases and the first one.
- To finish: ${T('workflow_finalize')} once every phase is completed; report the metrics it returns.
- ${NEVER_BY_HAND}
`;

/**
 * The independent reviewer: no phase of its own, so it may be delegated in any; only tools that read and
 * the ones that record (the file tools and the shell are taken from it), so it cannot change what it reviews. Its checks count only once its run has read
 * every file the phase changed (the gate names them).
 */
const REVIEWER = `---
name: ${DEFAULT_REVIEWER}
description: Reviews a phase's work against the constitution's articles and records each check; use it when a gate asks for an independent review.
disallowedTools: Write, Edit, MultiEdit, NotebookEdit, Bash, PowerShell
---
You review the work of the current isdlc phase; someone else did it. You change nothing.

${bulleted(reviewerDuties('the Read tool'))}
`;

function phaseAgentFile(config: ProjectConfig, agent: string, phases: string[]): string {
  const { duties, promises } = phaseAgentGuide(config, agent, phases, WORDS);
  // Only keys Claude Code documents: it warns about others. So the loop defaults are not kept in an
  // `iteration:` key here; they come from the agent's phase config (loop/agent-defaults.ts).
  const front = [`name: ${agent}`, `description: isdlc phase agent for ${phases.join(', ')}.`];
  return `---\n${front.join('\n')}\n---\nYou are the ${agent} of an isdlc workflow, working in phase ${phases.join(' / ')}.\n\n${bulleted(duties)}${promises ? `\n\n${promises}` : ''}\n`;
}

/** Every file to install, by path relative to the project root. */
export function agentFiles(config: ProjectConfig): Record<string, string> {
  const files: Record<string, string> = {
    [COMMAND_FILE]: PHASE_LOOP,
    [`${AGENT_DIR}/sdlc-orchestrator.md`]: ORCHESTRATOR,
    [`${AGENT_DIR}/${DEFAULT_REVIEWER}.md`]: REVIEWER,
  };
  for (const [agent, phases] of phaseAgents(config)) files[`${AGENT_DIR}/${agent}.md`] = phaseAgentFile(config, agent, phases);
  return files;
}
