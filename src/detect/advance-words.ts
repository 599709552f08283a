// The words and names that mark an attempt to move a workflow on, in a module of their own: the
// executable's last-resort answer (src/entry/without-bundles.ts) needs them without the rest of detect/.

/** The corridor's set (seed 000 AC-IE-008: advance, pass the gate, delegate, hand off, declare complete). */
export const ADVANCE_KEYWORDS = /\b(?:advance|gate|next\s+phase|proceed|move\s+to\s+phase|progress\s+to|delegate|hand\s*-?\s*off|phase\s+complete|declare\s+complete)\b/i;

/** isdlc's MCP tools that move a phase or the workflow forward. */
export const ADVANCING_TOOLS: ReadonlySet<string> = new Set(['phase_activate', 'phase_complete', 'workflow_finalize']);

/** The same operations as commands, however isdlc is started (npx, node .isdlc/bin/isdlc.cjs, the bin name). */
export const ADVANCING_COMMAND = /(?:^|[\s/"'])(?:isdlc(?:\.cjs)?|cli\.cjs)["']?\s+(?:phase\s+(?:activate|complete|skip)|workflow\s+finalize)\b/;

/** The isdlc (or older sdlc) skill, also under a plugin namespace. */
export function isWorkflowSkill(skill: string): boolean {
  const name = skill.trim().toLowerCase().split(':').pop() ?? '';
  return name === 'isdlc' || name === 'sdlc';
}
