// What Codex writes when a person trusts a hook in its `/hooks` review, and so what isdlc looks for to know
// beforehand whether Codex will run its hooks. The entry is `[hooks.state."<key>"] trusted_hash = "sha256:…"`
// in the person's CODEX_HOME/config.toml (a project cannot trust its own hooks). The key is positional:
// `<absolute path of the file declaring the hook>:<event in snake case>:<index of the matcher group in the
// event's list>:<index of the handler in the group>`, so a group put before isdlc's moves isdlc's key. The
// hash is not of the file's text but of the hook's normalized identity: the event, the matcher where the
// event keeps one, and the one handler with Codex's defaults filled in, as JSON with sorted keys and no
// whitespace, through SHA-256. Any change to the command, the matcher or the timeout makes another hash,
// and Codex then skips the hook without a word until the person trusts it again.
import { createHash } from 'node:crypto';

/** A command handler as `.codex/hooks.json` declares it. */
export interface CodexCommandHandler {
  type?: unknown;
  command?: unknown;
  timeout?: unknown;
  async?: unknown;
  statusMessage?: unknown;
  additionalContextLimit?: unknown;
  /** Used instead of `command` on Windows; not part of the identity elsewhere. */
  commandWindows?: unknown;
}

/** Events whose matcher Codex drops (nothing to match there), so it is no part of their identity. */
const WITHOUT_MATCHER = new Set(['UserPromptSubmit', 'Stop', 'Interrupt', 'PreModelRequest', 'PostModelRequest']);
/** Events Codex gives a 1-second default timeout and a 3-second ceiling; the clamped value is hashed. */
const SHORT_TIMEOUT = new Set(['SessionEnd', 'Interrupt']);
const DEFAULT_TIMEOUT = 600;

/** `PreToolUse` → `pre_tool_use`, as the key spells an event. */
export function eventKeyName(event: string): string {
  return event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
}

/** The `[hooks.state]` key of one handler. */
export function hookStateKey(file: string, event: string, group: number, handler: number): string {
  return `${file}:${eventKeyName(event)}:${group}:${handler}`;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const field = (value as Record<string, unknown>)[key];
    if (field !== undefined) out[key] = sortedKeys(field);
  }
  return out;
}

function timeoutOf(event: string, timeout: unknown): number {
  const given = typeof timeout === 'number' ? timeout : undefined;
  if (SHORT_TIMEOUT.has(event)) return Math.min(Math.max(given ?? 1, 1), 3);
  return Math.max(given ?? DEFAULT_TIMEOUT, 1);
}

/** The `trusted_hash` Codex stores for one command handler of a matcher group of `event` (`PreToolUse`). */
export function hookTrustHash(event: string, matcher: unknown, handler: CodexCommandHandler): string {
  const identity = {
    event_name: eventKeyName(event),
    matcher: WITHOUT_MATCHER.has(event) || typeof matcher !== 'string' ? undefined : matcher,
    hooks: [
      {
        type: 'command',
        command: handler.command,
        timeout: timeoutOf(event, handler.timeout),
        async: handler.async ?? false,
        statusMessage: handler.statusMessage ?? undefined,
        additionalContextLimit: handler.additionalContextLimit ?? undefined,
      },
    ],
  };
  // JSON.stringify escapes what serde_json escapes for these strings (quotes, backslashes, control
  // characters) and leaves other characters as they are, as serde_json does.
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sortedKeys(identity)))
    .digest('hex')}`;
}
