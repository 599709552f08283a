// Where the agent hosts' own guards (src/hosts/<host>/) run among the core's: after the core's rules that
// deny a tool call, before branch-evidence (which keeps the heads only for a command that will run) and
// the guards after it, which record what was allowed; at the end of a list without it. The faces pass the
// hosts' guards in; this folder names no host.
import type { Guard } from '../engine/guard.js';

const FIRST_AFTER_HOST_GUARDS = 'branch-evidence';

export function withHostGuards(core: readonly Guard[], hostGuards: readonly Guard[]): readonly Guard[] {
  if (hostGuards.length === 0) return core;
  const found = core.findIndex((guard) => guard.id === FIRST_AFTER_HOST_GUARDS);
  const at = found < 0 ? core.length : found;
  return Object.freeze([...core.slice(0, at), ...hostGuards, ...core.slice(at)]);
}
