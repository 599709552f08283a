// A guard is one small rule: which events it reacts to, and a check that looks at the event, the state
// and the config, then denies, notes, or records something in state. Guards never write files
// themselves; the engine applies their state updates in one locked transaction.
import type { ProjectConfig } from '../config/project-config.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import type { StateLocation } from '../state/locate.js';
import type { IsdlcState } from '../state/schema.js';
import { HOOK_EVENT_NAMES, TOOL_KINDS, type HookEvent, type HookEventName, type ToolKind } from '../events/hook-event.js';

export type GuardTriggers = Partial<Record<HookEventName, readonly ToolKind[] | true>>;

/** What a guard's check gets. Its functions are plain functions (no `this`): guards destructure them. */
export interface GuardContext {
  event: HookEvent;
  /** The state as read once for this event (null when the project has none). Read it; do not change it. */
  readonly state: IsdlcState | null;
  config: ProjectConfig;
  location: StateLocation;
  /** What is guarded in this project: isdlc's files and what its agent hosts add. */
  guarded: GuardedSet;
  now: Date;
  /**
   * Whether the agent's shell runs in the host's sandbox with isdlc's files read-only (the project's
   * settings say so in a form that cannot fail open). Read from disk on first use, once per event.
   */
  shellSandboxed: () => boolean;
  /** `ISDLC_DRY_RUN`: decide as usual, but a guard that keeps a file of its own leaves it unwritten too. */
  readonly dryRun: boolean;
  /** Stop the action. Write the reason for the model: the rule, why, what to do instead. */
  deny: (reason: string) => void;
  /** A fact for the model to take into account. */
  note: (text: string) => void;
  /** A line for the human. */
  tellUser: (text: string) => void;
  /** PreToolUse: run the tool with this input instead (the whole input; the last guard to set it wins). */
  rewriteInput: (input: Record<string, unknown>) => void;
  /** Change state: applied under the lock to the newest state on disk, after all guards ran. */
  update: (mutate: (draft: IsdlcState) => void) => void;
  /** A detail for the activity log. */
  log: (detail: Record<string, unknown>) => void;
}

export interface Guard {
  id: string;
  description: string;
  on: GuardTriggers;
  check(context: GuardContext): void;
}

/** `^[a-z][a-z0-9-]*$`, tested by hand: every hook call checks every guard of its bundle, and a regular expression is compiled anew in each process. */
function isGuardId(id: string): boolean {
  if (id.length === 0) return false;
  for (let i = 0; i < id.length; i += 1) {
    const code = id.charCodeAt(i);
    const lower = code >= 97 && code <= 122;
    if (!(lower || (i > 0 && ((code >= 48 && code <= 57) || code === 45)))) return false;
  }
  return true;
}

/** Problems with a guard's definition: a wiring fault, reported by `doctor` and the tests. */
export function guardDefinitionProblems(guard: unknown): string[] {
  if (typeof guard !== 'object' || guard === null) return ['is not an object'];
  const g = guard as Partial<Guard>;
  const problems: string[] = [];
  if (typeof g.id !== 'string' || !isGuardId(g.id)) problems.push(`has an invalid id ${JSON.stringify(g.id)}`);
  if (typeof g.description !== 'string' || g.description.length === 0) problems.push('has no description');
  if (typeof g.check !== 'function') problems.push('has no check function');
  if (typeof g.on !== 'object' || g.on === null || Object.keys(g.on).length === 0) {
    problems.push('reacts to no event');
  } else {
    for (const [event, kinds] of Object.entries(g.on)) {
      if (!(HOOK_EVENT_NAMES as readonly string[]).includes(event)) problems.push(`names an unknown event ${event}`);
      if (kinds !== true && (!Array.isArray(kinds) || (kinds as unknown[]).some((kind) => !(TOOL_KINDS as readonly unknown[]).includes(kind)))) {
        problems.push(`lists unknown tool kinds for ${event}`);
      }
    }
  }
  return problems;
}

export function defineGuard(guard: Guard): Guard {
  return guard;
}

export function guardReactsTo(guard: Guard, event: HookEvent): boolean {
  const kinds = guard.on[event.name];
  if (kinds === undefined) return false;
  if (kinds === true) return true;
  return event.tool !== undefined && kinds.includes(event.tool.kind);
}
