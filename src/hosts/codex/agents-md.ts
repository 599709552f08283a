// What Codex's agent reads instead of Claude Code's /isdlc command: isdlc's section of the project's
// `AGENTS.md` (Codex loads every AGENTS.md from the repository's top down to its working folder, into the
// first message of each session). It says how a workflow runs through isdlc's MCP tools, which agent works
// in which phase and how to delegate to it with spawn_agent, how the independent review goes, and that a
// person's decisions are the person's. Generated from the project's config; the person's own text around
// it is left as it is.
import { DEFAULT_REVIEWER, phaseAgent } from '../../config/agents.js';
import { MCP_SERVER, toolRef } from '../../config/agent-operations.js';
import type { ProjectConfig } from '../../config/project-config.js';
import { neverByHand } from '../../install/agent-guide.js';
import { MAX_IDLE_STOP_HOLDS } from '../../engine/stop-hold-cap.js';
import { CODEX_WORDS } from './agent-roles.js';

export const AGENTS_FILE = 'AGENTS.md';
/** isdlc's part of AGENTS.md lies between these lines (Markdown comments: nothing shows where it is rendered). */
export const MD_BEGIN = '<!-- >>> isdlc (managed by `isdlc init`; `isdlc uninstall` removes it) -->';
export const MD_END = '<!-- <<< isdlc -->';

const T = toolRef;

/** `feature: 00-quick-scan (quick-scan-agent) → 01-requirements (requirements-analyst) → …`, one line per workflow. */
function workflowLines(config: ProjectConfig): string[] {
  const lines: string[] = [];
  for (const [type, workflow] of Object.entries(config.workflows.workflows)) {
    if (typeof workflow !== 'object' || workflow === null || !Array.isArray(workflow.phases)) continue;
    const phases = workflow.phases.map((phase) => {
      const agent = phaseAgent(config.manifest, phase);
      return agent ? `${phase} (${agent})` : phase;
    });
    lines.push(`- \`${type}\`${workflow.label ? ` (${workflow.label})` : ''}: ${phases.join(' → ')}`);
  }
  return lines;
}

/** The section's text, markers included. */
export function agentsSection(config: ProjectConfig): string {
  return `${MD_BEGIN}
## isdlc: how work runs in this project

isdlc governs this project. Work runs as a workflow of phases; each phase ends at a gate that isdlc checks
from evidence it gathers itself (it runs the project's tests itself). You coordinate, the phase agents do
the work, isdlc keeps the record.

**isdlc's tools.** Workflow state changes only through the tools of isdlc's MCP server, in the namespace
\`mcp__${MCP_SERVER}\` (search for "isdlc" with tool search to load them); below they are named
\`mcp__${MCP_SERVER}__<tool>\`. ${neverByHand(CODEX_WORDS)}

**A person's decisions are the person's.** Skipping a phase (\`isdlc phase skip\`), going on after a
supervised review (\`isdlc phase review continue\`), approving an escalation (\`isdlc escalation approve\`),
accepting a change to isdlc's files or to the tests (\`isdlc changes accept\`, \`isdlc tests accept\`),
approving or cancelling a loop (\`isdlc loop approve\`, \`isdlc loop cancel\`): the person runs these in
their own terminal. Never run them and never work around them: say what is needed and ask the person.

### Running a workflow

The workflows and, for each phase, the agent that does its work:
${workflowLines(config).join('\n')}

1. ${T('status')} shows where things stand. With no active workflow, ${T('workflow_start')} with the type
   and a description of what the person asked for (and \`branch\` when the work gets a branch of its own,
   \`supervised\` when the person wants to review each phase).
2. For each phase, in order:
   - ${T('status')}; when every phase is completed, go to 3.
   - ${T('escalations')}: show open ones to the person and let them choose: retry
     (${T('escalations_clear')}, then go on), skip (they run \`isdlc phase skip --reason "..."\`) or
     cancel (${T('workflow_cancel')} with their reason).
   - A supervised workflow may wait for the person's review of the last phase: show them its summary;
     they continue (\`isdlc phase review continue\` in their terminal), or you record review or redo
     (${T('phase_review')} with their decision and note).
   - ${T('phase_activate')}, before any delegation. It names the phase's agent.
   - From implementation on isdlc wants the task plan \`docs/isdlc/tasks.md\`: one \`## Phase NN: Name\`
     section per phase with \`- [ ] T0001 task | traces: FR-01\` lines, and under each implementation task
     its \`  files:\` and \`  blocked_by: [T....]\` lines. Write it at the end of the test strategy phase.
   - ${T('delegation_prompt')} gives the phase's prompt (artifact folder, GATE REQUIREMENTS) and its agent.
     Delegate: \`spawn_agent\` (namespace \`multi_agent_v1\`) with \`agent_type\` the phase's agent and
     \`message\` that prompt, then the person's request, unchanged; then \`wait_agent\` for it. Do not do
     the phase's work yourself: the gate counts only what the phase's agent did in the phase (the files
     it changed with apply_patch, the tests it ran). isdlc refuses a delegation to a later phase's agent.
   - When the agent has finished, ${T('gate_check')}. Open: ${T('phase_complete')} with a one-line
     summary; it runs the project's tests itself and completes the phase only when they pass. Closed:
     send the agent back (another \`spawn_agent\`) with the unmet requirements; after repeated failures
     isdlc escalates to the person.
   - When the gate asks for an independent review of the constitution's articles, delegate it to
     \`${DEFAULT_REVIEWER}\` (\`spawn_agent\` with \`agent_type\` "${DEFAULT_REVIEWER}" and a message naming the
     phase): it reads every file the phase changed and records each article. Neither you nor the phase's
     agent can: isdlc counts only a reviewer that read what changed and changed nothing itself.
3. ${T('workflow_finalize')} archives the workflow. Tell the person what was done, phase by phase.

### When isdlc holds your turn

At the end of a turn isdlc may send you back, for an iteration loop whose rules still fail or a step still
owed; its message says what to do. Do that, then finish again. After ${MAX_IDLE_STOP_HOLDS} holds in a row
with no tool call between them isdlc lets the turn end and tells the person.
${MD_END}
`;
}

/**
 * AGENTS.md's text with isdlc's section in it: in place of the one there, else before the person's text.
 * First, because Codex reads at most `project_doc_max_bytes` (32 KiB) of these files and cuts the rest.
 */
export function withSection(text: string | undefined, section: string): string {
  if (text === undefined || text.trim() === '') return section;
  const found = sectionBounds(text);
  if (found) return text.slice(0, found.start) + section + text.slice(found.end);
  return `${section}\n${text}`;
}

/** AGENTS.md's text without isdlc's section (and the blank line isdlc put after it). */
export function withoutSection(text: string): string {
  const found = sectionBounds(text);
  if (!found) return text;
  const after = text.slice(found.end);
  return text.slice(0, found.start) + (found.start === 0 ? after.replace(/^\n/, '') : after);
}

/** Where isdlc's section is: from its first marker to the end of the line of its last. */
function sectionBounds(text: string): { start: number; end: number } | undefined {
  const start = text.indexOf(MD_BEGIN);
  if (start < 0 || (start > 0 && text[start - 1] !== '\n')) return undefined;
  const close = text.indexOf(MD_END, start);
  if (close < 0) return undefined;
  const lineEnd = text.indexOf('\n', close);
  return { start, end: lineEnd < 0 ? text.length : lineEnd + 1 };
}
