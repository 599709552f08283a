// What the engine decided for one event, before any host renders it.

export interface Verdict {
  /** A deny stops the action (PreToolUse), keeps the agent working (Stop), or refuses a prompt. */
  deny?: { guard: string; reason: string };
  /** Facts for the model, in the order the guards gave them. */
  notes: string[];
  /** Lines for the human at the keyboard. */
  userMessages: string[];
  /** PreToolUse: the tool's whole input, as it should run instead (applied only when nothing denied). */
  updatedInput?: Record<string, unknown>;
}

export function emptyVerdict(): Verdict {
  return { notes: [], userMessages: [] };
}
