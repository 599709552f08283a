// The workflow operations an agent may perform, and how it reaches them. With the agent host's sandbox the
// agent's shell cannot write `.isdlc/`, so an agent calls isdlc's MCP server (registered as `isdlc` with the
// host), which runs outside the sandbox; a person types the same operation as an `isdlc` command.
// The texts the two share (the refusals of src/workflow/*, the gate's next steps, `status`'s next step)
// are written once, with command names, and turned into tool names here for the agent. A person's
// decisions (`escalation approve`, `phase skip`, `phase review continue`, `loop cancel`, `uninstall`)
// have no tool and are never turned into one.

/** The server name init registers with the host; hosts name its tools `mcp__<server>__<tool>`. */
export const MCP_SERVER = 'isdlc';

/** A tool as the model calls it. */
export const toolName = (tool: string): string => `mcp__${MCP_SERVER}__${tool}`;

/** A tool as messages name it. */
export const toolRef = (tool: string): string => `\`${toolName(tool)}\``;

interface Operation {
  /** The `isdlc` command words a person types. */
  command: string;
  /** The MCP tool an agent calls instead. */
  tool: string;
  /** Arguments the command words themselves fix. */
  fixed?: string;
}

/** Longest command first, so `phase review redo` is not read as a shorter one. */
const OPERATIONS: readonly Operation[] = [
  { command: 'phase review redo', tool: 'phase_review', fixed: 'decision "redo"' },
  { command: 'phase review review', tool: 'phase_review', fixed: 'decision "review"' },
  { command: 'escalations --clear', tool: 'escalations_clear' },
  { command: 'workflow start', tool: 'workflow_start' },
  { command: 'workflow finalize', tool: 'workflow_finalize' },
  { command: 'workflow cancel', tool: 'workflow_cancel' },
  { command: 'phase activate', tool: 'phase_activate' },
  { command: 'phase complete', tool: 'phase_complete' },
  { command: 'gate check', tool: 'gate_check' },
  { command: 'constitution record', tool: 'constitution_record' },
  { command: 'delegation-prompt', tool: 'delegation_prompt' },
  { command: 'loop start', tool: 'loop_start' },
  { command: 'escalations', tool: 'escalations' },
  { command: 'status', tool: 'status' },
];

/** `--artifact-folder x` → artifactFolder, `<type>` → type: the tool's parameter names, in order. */
function parameterNames(rest: string): string[] {
  const names: string[] = [];
  for (const match of rest.matchAll(/--([a-z][a-z-]*)|<([a-z][a-z-]*)>/g)) {
    const name = (match[1] ?? match[2]!).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
    if (name !== 'json' && !names.includes(name)) names.push(name);
  }
  return names;
}

/** One backticked `isdlc ...` command as the tool call that does the same, or undefined for a person's command. */
function asToolCall(words: string): string | undefined {
  const operation = OPERATIONS.find((op) => words === op.command || words.startsWith(`${op.command} `));
  if (!operation) return undefined;
  const args = [...(operation.fixed ? [operation.fixed] : []), ...parameterNames(words.slice(operation.command.length))];
  return `${toolRef(operation.tool)}${args.length > 0 ? ` (${args.join(', ')})` : ''}`;
}

/**
 * A text written for a person's terminal, as the agent should read it: every agent-facing `isdlc ...`
 * command becomes its MCP tool ("run `isdlc phase activate`" → "call `mcp__isdlc__phase_activate`");
 * a person's commands stay as they are.
 */
export function forAgent(text: string): string {
  return text.replace(/(\b[Rr]un )?`isdlc ([^`]+)`/g, (whole, run: string | undefined, words: string) => {
    const call = asToolCall(words.trim());
    if (!call) return whole;
    return `${run ? `${run[0] === 'R' ? 'Call' : 'call'} ` : ''}${call}`;
  });
}

/** The tools that move a workflow on: what an agent uses instead of writing state, as the guards say. */
export const TRANSITION_TOOLS = ['phase_activate', 'phase_complete', 'workflow_finalize', 'workflow_cancel'].map(toolRef).join(', ');

/** How an agent records one article's check, as the guards that ask for it say. */
export const RECORD_ARTICLE = `${toolRef('constitution_record')} (article, result compliant or violation, note: what you checked)`;
