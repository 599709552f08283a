// What the engine needs from the agent host that sent a hook call: its wire format in and out, and the few
// things only the host can say (which project the call is for, whether the agent's shell is sandboxed).
// Each host implements it in its own folder (src/hosts/<host>/); the entry picks the one that sent the call
// and passes it in, so the engine, the guards and everything below see canonical events and verdicts only.
import type { HookEvent, HookEventName, ToolCall } from '../events/hook-event.js';
import type { Verdict } from './verdict.js';

export type ParseResult = { ok: true; event: HookEvent } | { ok: false; reason: string };

export interface HookHost {
  /** A short name, as `isdlc hook --host` takes it. */
  readonly id: string;
  /** How people call it, for messages. */
  readonly name: string;
  /** The project folder the host names for its hook calls (an environment variable it sets), if any. */
  projectDir(env: NodeJS.ProcessEnv): string | undefined;
  /** A parsed stdin payload as the canonical event; `eventOverride` (`--event`) wins over the payload's own name. */
  parse(raw: unknown, eventOverride?: string): ParseResult;
  /** The decision as the host's wire carries it, for the activity log. */
  decision(eventName: HookEventName, verdict: Verdict): 'allow' | 'deny' | 'block';
  /**
   * What to print on stdout for a verdict; '' for a plain allow. `tool` is the call as parse gave it: an
   * adapter that renamed a tool's input fields for the guards maps a rewritten input back with it.
   */
  render(eventName: HookEventName, verdict: Verdict, tool?: ToolCall): string;
  /**
   * Whether the agent's shell runs in the host's sandbox with isdlc's files read-only, as the project's
   * settings say in a form that cannot fail open.
   */
  shellSandboxed(root: string): boolean;
}
