// The words and names that mark an attempt to move a workflow on, in a module of their own: the
// executable's last-resort answer (src/entry/without-bundles.ts) needs them without the rest of detect/.

/** The corridor's set: advance, pass the gate, delegate, hand off, declare complete. */
export const ADVANCE_KEYWORDS =
  /\b(?:advance|gate|next\s+phase|proceed|move\s+to\s+phase|progress\s+to|delegate|hand\s*-?\s*off|phase\s+complete|declare\s+complete)\b/i;

/** isdlc's MCP tools that move a phase or the workflow forward. */
export const ADVANCING_TOOLS: ReadonlySet<string> = new Set(['phase_activate', 'phase_complete', 'workflow_finalize']);

/** The same operations as commands, however isdlc is started (npx, node .isdlc/bin/isdlc.cjs, the bin name). */
export const ADVANCING_COMMAND = /(?:^|[\s/"'])(?:isdlc(?:\.cjs)?|cli\.cjs)["']?\s+(?:phase\s+(?:activate|complete|skip)|workflow\s+finalize)\b/;

/** Actions of the workflow skill that run beside a workflow and never move it (the original's BUG-0031). */
const INLINE_ACTIONS = /^\s*(?:--?[\w-]+\s+)*(?:add|analyze)(?=\s|$)/i;
/** What a shell or a chained request would read as a second request: `;`, `&&`, `||`, a new line. */
const CHAINED = /[;\n]|&&|\|\|/;
const QUOTED = /"[^"]*"|'[^']*'|\u201c[^\u201d]*\u201d/g;
/** `gate check`, with `gate check`'s own options or a phase key only: asking where the gate stands. */
const GATE_QUESTION = /^[ \t]*gate[ \t-]+check(?:[ \t]+(?:--json|--verbose|-h|--help|(?:--phase|--project|-p)(?:[ \t]+|=)[\w.-]+|\d{2}-[a-z][\w-]*))*[ \t]*$/i;
/** A line break of any kind: what follows it is read as a request of its own, quoted or not. */
const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
/** Flags before `add`/`analyze` that ask for more than the item (`--advance add "x"`). */
const ASKING_FLAG = /pass|complete|skip|force|finali[sz]e|approve/i;

/**
 * Whether the workflow skill's arguments ask for something that never moves the workflow on, whatever words
 * its text holds: adding or analysing a backlog item (`add "make the gate faster"`) or asking about the gate
 * (`gate check`). The description after `add`/`analyze` is the item's text; only a second request chained
 * after it (`add "x"; advance`, `add "x" advance`, a new line) makes the call an attempt again.
 */
export function skillArgsNeverAdvance(args: string): boolean {
  if (LINE_BREAK.test(args)) return false;
  // A flag of the question may not ask for more (`gate check --then-advance`).
  if (GATE_QUESTION.test(args)) return !ADVANCE_KEYWORDS.test(args.replace(/^\s*gate[\s-]+check/i, ''));
  const action = INLINE_ACTIONS.exec(args);
  if (!action) return false;
  const flags = action[0].replace(/(?:add|analyze)$/i, '');
  if (ADVANCE_KEYWORDS.test(flags) || ASKING_FLAG.test(flags)) return false;
  const rest = args.slice(action[0].length);
  const unquoted = rest.replace(QUOTED, ' ');
  if (CHAINED.test(unquoted)) return false;
  // A quoted description: words outside the quotes are requests of their own.
  return unquoted === rest || !ADVANCE_KEYWORDS.test(unquoted);
}

/** The isdlc (or older sdlc) skill, also under a plugin namespace. */
export function isWorkflowSkill(skill: string): boolean {
  const name = skill.trim().toLowerCase().split(':').pop() ?? '';
  return name === 'isdlc' || name === 'sdlc';
}
