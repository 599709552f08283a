// Codex runs a hook of a project or of the person's config only once the person has trusted it: a
// `[hooks.state."<key>"] trusted_hash = "sha256:…"` entry in CODEX_HOME/config.toml, what its `/hooks`
// review writes. The key is `<absolute file the hook is declared in>:<event in snake case>:<index of the
// matcher group>:<index of the handler in the group>`. The hash is not of the file's text but of the
// hook's normalized identity: the event, the matcher where the event has one, and the one handler with
// its defaults filled in, as JSON with sorted keys and no whitespace, through SHA-256. Change a byte of
// the command, the matcher or the timeout and the hook is skipped again, without a word.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { personConfig, tomlString, type CodexProject } from './codex-session.js';

export interface CommandHandler {
  type?: 'command';
  command: string;
  timeout?: number;
  async?: boolean;
  statusMessage?: string;
  additionalContextLimit?: number;
  /** Used instead of `command` on Windows only; not part of the identity elsewhere. */
  commandWindows?: string;
}

export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHandler[];
}

/** Events whose matcher Codex drops (it would match nothing there): not part of their identity. */
const WITHOUT_MATCHER = new Set(['UserPromptSubmit', 'Stop', 'Interrupt', 'PreModelRequest', 'PostModelRequest']);
/** Events Codex gives a 1-second default and a 3-second ceiling. */
const SHORT_TIMEOUT = new Set(['SessionEnd', 'Interrupt']);

/** `PreToolUse` → `pre_tool_use`. */
export function eventKey(event: string): string {
  return event.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const field = (value as Record<string, unknown>)[key];
      if (field !== undefined) sorted[key] = canonical(field);
    }
    return sorted;
  }
  return value;
}

function effectiveTimeout(event: string, timeout: number | undefined): number {
  if (SHORT_TIMEOUT.has(event)) return Math.min(Math.max(timeout ?? 1, 1), 3);
  return Math.max(timeout ?? 600, 1);
}

/** The `trusted_hash` Codex expects for one handler of one matcher group of `event` (`PreToolUse`). */
export function hookTrustHash(event: string, matcher: string | undefined, handler: CommandHandler): string {
  const identity = {
    event_name: eventKey(event),
    matcher: WITHOUT_MATCHER.has(event) ? undefined : matcher,
    hooks: [
      {
        type: 'command',
        command: handler.command,
        timeout: effectiveTimeout(event, handler.timeout),
        async: handler.async ?? false,
        statusMessage: handler.statusMessage,
        additionalContextLimit: handler.additionalContextLimit,
      },
    ],
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(canonical(identity)))
    .digest('hex')}`;
}

/** The `[hooks.state]` key of one handler: the declaring file, the event, the group's and the handler's index. */
export function hookStateKey(file: string, event: string, group: number, handler: number): string {
  return `${file}:${eventKey(event)}:${group}:${handler}`;
}

/** What trusting every hook of a hooks.json file writes: key → hash. */
export function trustEntries(file: string): Record<string, string> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { hooks?: Record<string, MatcherGroup[]> };
  const entries: Record<string, string> = {};
  for (const [event, groups] of Object.entries(parsed.hooks ?? {})) {
    groups.forEach((group, g) => {
      group.hooks.forEach((handler, h) => {
        entries[hookStateKey(file, event, g, h)] = hookTrustHash(event, group.matcher, handler);
      });
    });
  }
  return entries;
}

/** Trusts the project's `.codex/hooks.json` as it is now, as the person's `/hooks` review would. */
export function trustProjectHooks(project: CodexProject): Record<string, string> {
  const entries = trustEntries(join(project.dir, '.codex', 'hooks.json'));
  personConfig(
    project,
    Object.entries(entries)
      .map(([key, hash]) => `[hooks.state.${tomlString(key)}]\ntrusted_hash = ${tomlString(hash)}\n`)
      .join('\n'),
  );
  return entries;
}

/** Groups of the events isdlc registers nothing for, with handler fields of every kind: hashed the same as isdlc's. */
export const OTHER_EVENT_GROUPS: Record<string, { matcher?: string; hooks: CommandHandler[] }[]> = {
  SessionEnd: [
    {
      hooks: [
        { type: 'command', command: 'end' },
        { type: 'command', command: 'end', timeout: 30 },
      ],
    },
  ],
  PermissionRequest: [{ matcher: '.*', hooks: [{ type: 'command', command: 'perm' }] }],
  SubagentStart: [{ hooks: [{ type: 'command', command: 'sub' }] }],
  SubagentStop: [{ matcher: 'worker', hooks: [{ type: 'command', command: 'sub' }] }],
  PreCompact: [{ hooks: [{ type: 'command', command: 'compact' }] }],
};
