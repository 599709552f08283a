// Inside an agent host's sandbox isdlc's files are read-only to the agent's shell, so every isdlc command
// that would write fails there, on purpose. The raw error ("EROFS: read-only file system, open
// '.isdlc/state.json.lock'") tells an agent nothing it can act on; this says what does work instead.
import { agentShellHost, projectDirFromEnv } from '../hosts/index.js';

/** The agent-facing commands and the isdlc MCP tool that does the same from outside the sandbox. */
const MCP_TOOL_FOR: readonly [command: RegExp, tool: string][] = [
  [/^workflow start\b/, 'workflow_start'],
  [/^workflow finalize\b/, 'workflow_finalize'],
  [/^workflow cancel\b/, 'workflow_cancel'],
  [/^phase activate\b/, 'phase_activate'],
  [/^phase complete\b/, 'phase_complete'],
  [/^phase review (?:redo|review)\b/, 'phase_review'],
  [/^constitution record\b/, 'constitution_record'],
  [/^escalations\b/, 'escalations_clear'],
  [/^loop (?:start|claim)\b/, 'loop_start'],
];

/** A person's decisions: never an MCP tool, and refused in the agent's shell by the sandbox. */
const PERSON_ONLY: readonly RegExp[] = [
  /^escalations? approve\b/,
  /^phase skip\b/,
  /^phase review continue\b/,
  /^loop (?:cancel|approve)\b/,
  /^(?:init|uninstall)\b/,
  /^tests accept\b/,
];

const READ_ONLY = /\bEROFS\b|read-only file system|readonly database|SQLITE_READONLY/i;
/**
 * What else a write into a read-only mount can look like: a rename or unlink of a file bound read-only
 * (EBUSY; Node 24 words some of them only as "Device or resource busy"), SQLite unable to make its
 * journal next to a store it opens. These count only when the folder really is read-only here.
 */
const MAYBE_READ_ONLY = /\bEBUSY\b|resource busy|SQLITE_CANTOPEN|unable to open database file/i;

/** Whether a project's `.isdlc/` the command may have meant cannot be written by this process (a read-only mount). */
function isdlcReadOnly(argv: readonly string[]): boolean {
  const { accessSync, constants, existsSync } = process.getBuiltinModule('node:fs');
  const path = process.getBuiltinModule('node:path');
  const places = [projectDirFromEnv(process.env), process.cwd(), ...argv.slice(2).filter((word) => !word.startsWith('-'))];
  return places.some((place) => {
    if (!place) return false;
    const dir = path.join(path.resolve(place), '.isdlc');
    if (!existsSync(dir)) return false;
    try {
      accessSync(dir, constants.W_OK);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EROFS';
    }
  });
}

/** The command words, up to the first option: `phase complete --summary x` → `phase complete`. */
function commandWords(argv: readonly string[]): string {
  const words = argv.slice(2);
  const firstOption = words.findIndex((word) => word.startsWith('-'));
  return (firstOption < 0 ? words : words.slice(0, firstOption)).join(' ');
}

/**
 * The message for a write refused because isdlc's files are read-only here, or undefined when `error`
 * is something else. `argv` is the process's (node, script, words...).
 */
export function readOnlyMessage(error: unknown, argv: readonly string[]): string | undefined {
  const text = error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? ''} ${error.message}` : String(error);
  if (!READ_ONLY.test(text) && !(MAYBE_READ_ONLY.test(text) && isdlcReadOnly(argv))) return undefined;
  const words = commandWords(argv);
  const host = agentShellHost(process.env)?.hook.name;
  const intro = `isdlc's files are read-only here (${host ? `${host}'s` : "the agent host's"} sandbox keeps them from the agent's shell), so \`isdlc ${words}\` changed nothing.`;
  if (PERSON_ONLY.some((pattern) => pattern.test(words))) {
    return `${intro} It is a decision for a person: ask the user to run it in their own terminal, not through the agent.`;
  }
  const tool = MCP_TOOL_FOR.find(([pattern]) => pattern.test(words))?.[1];
  if (tool) return `${intro} Use the isdlc MCP tool mcp__isdlc__${tool} instead: it does the same from outside the sandbox.`;
  return `${intro} An agent changes the workflow through the isdlc MCP tools (mcp__isdlc__*); a person runs isdlc in their own terminal.`;
}
