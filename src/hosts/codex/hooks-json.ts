// isdlc's hook registrations in `.codex/hooks.json`, beside the person's. Codex runs each command as
// `$SHELL -lc "<command>"` and lets the tool run when a hook fails (a crash, a bad answer): the PreToolUse
// command turns any failure of isdlc's own into exit 2 with a reason, which Codex takes as a deny.

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SubagentStop'] as const;
const TOOL_EVENTS = new Set<string>(['PreToolUse', 'PostToolUse']);
/** Seconds; Stop and SubagentStop run a loop's rules (a test suite), the others answer in milliseconds. */
const TIMEOUTS: Record<string, number> = { Stop: 600, SubagentStop: 600, PreToolUse: 60, PostToolUse: 60, SessionStart: 30, UserPromptSubmit: 30 };

const FAILED_CLOSED = "isdlc's hook could not answer, so isdlc refuses this call; run isdlc doctor in the project";

/** A word for `sh -c`: single-quoted. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function hookCommand(node: string, bin: string, event: string): string {
  const run = `${shellWord(node)} ${shellWord(bin)} hook --host codex`;
  return event === 'PreToolUse' ? `${run} || { echo ${shellWord(FAILED_CLOSED)} >&2; exit 2; }` : run;
}

export const isOurCommand = (command: unknown): boolean => typeof command === 'string' && command.includes('isdlc.cjs') && command.includes('--host codex');

type Json = Record<string, unknown>;

/** The config without isdlc's handlers; groups and events left empty by that are dropped. */
export function withoutOurHooks(config: Json): Json {
  const hooks = config['hooks'];
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return config;
  const kept: Json = {};
  for (const [event, groups] of Object.entries(hooks as Json)) {
    if (!Array.isArray(groups)) {
      kept[event] = groups;
      continue;
    }
    const left = groups
      .map((group: Json) => {
        const handlers = Array.isArray(group?.['hooks']) ? (group['hooks'] as Json[]) : undefined;
        if (!handlers) return group;
        const others = handlers.filter((handler) => !isOurCommand(handler?.['command']));
        return others.length === handlers.length ? group : others.length === 0 ? undefined : { ...group, hooks: others };
      })
      .filter((group) => group !== undefined);
    if (left.length > 0) kept[event] = left;
  }
  const { hooks: _hooks, ...rest } = config;
  return Object.keys(kept).length > 0 ? { ...rest, hooks: kept } : rest;
}

/** The config with isdlc's handlers, one group per event, after the person's. */
export function withOurHooks(config: Json, node: string, bin: string): Json {
  const base = withoutOurHooks(config);
  const hooks = { ...((base['hooks'] as Json | undefined) ?? {}) };
  for (const event of HOOK_EVENTS) {
    const group: Json = {
      ...(TOOL_EVENTS.has(event) ? { matcher: '.*' } : {}),
      hooks: [{ type: 'command', command: hookCommand(node, bin, event), timeout: TIMEOUTS[event] }],
    };
    hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), group];
  }
  return { ...base, hooks };
}
