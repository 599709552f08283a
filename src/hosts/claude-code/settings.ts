// Our entries in `.claude/settings.json`, merged into whatever the user has there. The user's hooks and
// permission rules are never reordered, rewritten or removed; ours are recognisable by the command they
// run (`.isdlc/bin/isdlc.cjs hook`) and are added once.

import type { ClaudeCapabilities } from './versions.js';
import { STOP_HOOK_TIMEOUT_SECONDS } from '../../loop/timing.js';
import { recordOrUndefined } from '../../util/json.js';
import { MCP_SERVER, toolName } from '../../config/agent-operations.js';

export const BIN_RELATIVE = '.isdlc/bin/isdlc.cjs';
/**
 * isdlc's MCP tools that only read (server `isdlc` in .mcp.json), without a prompt each time. A tool that
 * changes the workflow or a loop asks the person first, in the permission modes that ask.
 */
export const READ_ONLY_TOOLS: readonly string[] = Object.freeze([
  'status',
  'gate_check',
  'delegation_prompt',
  'escalations',
  'iteration_status',
  'task_get',
  'checkpoint_resume',
]);
export const PERMISSION_RULES: readonly string[] = Object.freeze(READ_ONLY_TOOLS.map(toolName));
/**
 * What older versions allowed: the whole isdlc command line (which, once the sandbox is on, cannot write
 * from the agent's shell anyway) and every tool of the server. Recognised so upgrade and uninstall take them out.
 */
const LEGACY_PERMISSION_RULES: readonly string[] = Object.freeze([`Bash(node ${BIN_RELATIVE}:*)`, `mcp__${MCP_SERVER}`]);

export type HookForm = 'exec' | 'shell';

export interface HookCommand {
  type: 'command';
  command: string;
  args?: string[];
  timeout: number;
  [key: string]: unknown;
}

export interface MatcherEntry {
  matcher?: string;
  hooks: HookCommand[];
  [key: string]: unknown;
}

export type Settings = Record<string, unknown>;

/**
 * With it on, Claude Code tells PostToolUse(Bash) which files the command changed (`bashEditDiff`) in
 * every permission mode, not only in bypass and auto. Claude Code reads it only from user and managed
 * settings, so init does not write it into the project; init and doctor tell the person.
 */
export const BASH_EDIT_DIFF_SETTING = 'bashEditDiffEnabled';

export interface Registration {
  event: string;
  matcher?: string;
  timeout: number;
}

/**
 * isdlc's own MCP tools. Their payloads say who called: the activity log records each call with its
 * session and subagent (at PreToolUse, so a call the tool refuses is there too), and after a call that
 * changed the workflow the caller is added to what it recorded (guards/tool-caller.ts); a loop one of them
 * started is bound to its caller (guards/loop-binder.ts). A regular expression, so an entry of its own:
 * joined to an exact-name list the whole matcher would be an unanchored regex (Write matching TodoWrite).
 */
const ISDLC_TOOLS = `${toolName('')}.*`;

/** Where our hook is registered on the newest Claude Code: event, matcher (none for Stop), timeout in seconds. */
export const REGISTRATIONS: readonly Registration[] = Object.freeze([
  { event: 'PreToolUse', matcher: 'Agent|Task', timeout: 10 },
  { event: 'PreToolUse', matcher: 'Skill', timeout: 10 },
  { event: 'PreToolUse', matcher: 'Bash|PowerShell', timeout: 10 },
  { event: 'PreToolUse', matcher: 'Write|Edit|MultiEdit|NotebookEdit', timeout: 10 },
  { event: 'PreToolUse', matcher: ISDLC_TOOLS, timeout: 10 },
  // Read: a reviewer's run must be seen to read what the phase changed (guards/agent-work-tracker.ts).
  { event: 'PostToolUse', matcher: 'Agent|Task|Skill|Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read', timeout: 30 },
  { event: 'PostToolUse', matcher: ISDLC_TOOLS, timeout: 30 },
  { event: 'PostToolUseFailure', matcher: 'Agent|Task|Skill|Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit', timeout: 30 },
  // A running loop's rules (a test suite, a build) run inside the Stop hook.
  { event: 'Stop', timeout: STOP_HOOK_TIMEOUT_SECONDS },
  { event: 'SubagentStop', timeout: STOP_HOOK_TIMEOUT_SECONDS },
  { event: 'UserPromptSubmit', timeout: 10 },
  { event: 'UserPromptExpansion', timeout: 10 },
  // Every way a session starts: the guards decide which sources they answer.
  { event: 'SessionStart', matcher: 'startup|resume|clear|compact', timeout: 10 },
]);

/**
 * Our registrations for a Claude Code with these capabilities. UserPromptExpansion is left out where it
 * never fires, and above all where its mere key would switch off every hook in the file.
 */
export function registrationsFor(capabilities: ClaudeCapabilities): readonly Registration[] {
  return capabilities.userPromptExpansionFires ? REGISTRATIONS : REGISTRATIONS.filter((r) => r.event !== 'UserPromptExpansion');
}

/** The events `registrations` cover, once each, in registration order. */
export function eventsOf(registrations: readonly Registration[]): string[] {
  return [...new Set(registrations.map((r) => r.event))];
}

export function ourHookCommand(form: HookForm, timeout: number): HookCommand {
  return form === 'exec'
    ? { type: 'command', command: 'node', args: [`\${CLAUDE_PROJECT_DIR}/${BIN_RELATIVE}`, 'hook'], timeout }
    : { type: 'command', command: `node "$CLAUDE_PROJECT_DIR/${BIN_RELATIVE}" hook`, timeout };
}

export function isOurHook(hook: unknown): boolean {
  if (typeof hook !== 'object' || hook === null) return false;
  const h = hook as Partial<HookCommand>;
  if (typeof h.command !== 'string') return false;
  const words = [h.command, ...(Array.isArray(h.args) ? h.args.map(String) : [])].join(' ');
  return words.includes(BIN_RELATIVE) && /\bhook\b/.test(words.split(BIN_RELATIVE)[1] ?? '');
}

export function isOurPermission(rule: unknown): boolean {
  return typeof rule === 'string' && (PERMISSION_RULES.includes(rule) || LEGACY_PERMISSION_RULES.includes(rule));
}

export class SettingsShapeError extends Error {}

function requireShape(settings: Settings): void {
  if (settings['hooks'] !== undefined && !recordOrUndefined(settings['hooks'])) {
    throw new SettingsShapeError('"hooks" is not an object');
  }
  for (const [event, entries] of Object.entries(recordOrUndefined(settings['hooks']) ?? {})) {
    if (!Array.isArray(entries)) throw new SettingsShapeError(`"hooks.${event}" is not an array`);
  }
  const permissions = settings['permissions'];
  if (permissions !== undefined && !recordOrUndefined(permissions)) throw new SettingsShapeError('"permissions" is not an object');
  const allow = recordOrUndefined(permissions)?.['allow'];
  if (allow !== undefined && !Array.isArray(allow)) throw new SettingsShapeError('"permissions.allow" is not an array');
}

/** `entries` without our hooks, except in entries `spare` keeps; an entry left empty by that goes. */
function stripOurHooks(entries: MatcherEntry[], spare: (entry: MatcherEntry) => boolean = () => false): MatcherEntry[] {
  return entries.flatMap((entry) => {
    if (spare(entry) || !Array.isArray(entry.hooks) || !entry.hooks.some(isOurHook)) return [entry];
    const remaining = entry.hooks.filter((hook) => !isOurHook(hook));
    return remaining.length > 0 ? [{ ...entry, hooks: remaining }] : [];
  });
}

const registrationKey = (event: string, matcher: string | undefined): string => `${event}\u0000${matcher ?? ''}`;

/**
 * Returns the settings with `registrations` present exactly once each (one of ours from an older install
 * is brought up to date in place) and none of our others. The input is not modified. `created` names
 * the containers that did not exist before.
 */
export function mergeOurSettings(
  input: Settings,
  form: HookForm,
  registrations: readonly Registration[] = REGISTRATIONS,
): { settings: Settings; created: string[] } {
  requireShape(input);
  const settings = structuredClone(input);
  const created: string[] = [];
  if (!recordOrUndefined(settings['hooks'])) created.push('hooks');
  const hooks = (recordOrUndefined(settings['hooks']) ?? {}) as Record<string, MatcherEntry[]>;
  const wanted = new Set(registrations.map((r) => registrationKey(r.event, r.matcher)));

  // Ours where we no longer register (an older layout, a matcher that changed, an event this Claude Code
  // does not have) go first. An event list that held only ours goes with them: an empty
  // `UserPromptExpansion: []` still switches off every hook of the file on Claude Code 2.1.100.
  for (const [event, entries] of Object.entries(hooks)) {
    const kept = stripOurHooks(entries, (entry) => wanted.has(registrationKey(event, entry.matcher)));
    if (kept.length === 0 && entries.length > 0) delete hooks[event];
    else hooks[event] = kept;
  }

  for (const registration of registrations) {
    const desired = ourHookCommand(form, registration.timeout);
    if (!hooks[registration.event] && !created.includes(`hooks.${registration.event}`)) created.push(`hooks.${registration.event}`);
    const entries = (hooks[registration.event] ??= []);
    const holds = (entry: MatcherEntry): boolean =>
      (entry.matcher ?? '') === (registration.matcher ?? '') && Array.isArray(entry.hooks) && entry.hooks.some(isOurHook);
    const first = entries.find(holds);
    if (!first) {
      entries.push({ ...(registration.matcher ? { matcher: registration.matcher } : {}), hooks: [desired] });
      continue;
    }
    // Keep our first hook under this matcher, brought up to date; any further copies go.
    const ours = first.hooks.findIndex(isOurHook);
    if (JSON.stringify(first.hooks[ours]) !== JSON.stringify(desired)) first.hooks[ours] = desired;
    const kept = first.hooks[ours];
    hooks[registration.event] = entries
      .map((entry) => (holds(entry) ? { ...entry, hooks: entry.hooks.filter((hook) => hook === kept || !isOurHook(hook)) } : entry))
      .filter((entry) => !holds(entry) || entry.hooks.length > 0);
  }
  settings['hooks'] = hooks;

  if (!recordOrUndefined(settings['permissions'])) created.push('permissions');
  const permissions = (recordOrUndefined(settings['permissions']) ?? {}) as Record<string, unknown>;
  if (!Array.isArray(permissions['allow'])) created.push('permissions.allow');
  // An older install's rules go: they allowed more than the read-only tools.
  const allow = (Array.isArray(permissions['allow']) ? (permissions['allow'] as unknown[]) : []).filter(
    (rule) => !LEGACY_PERMISSION_RULES.includes(rule as string),
  );
  for (const rule of PERMISSION_RULES) if (!allow.includes(rule)) allow.push(rule);
  permissions['allow'] = allow;
  settings['permissions'] = permissions;
  return { settings, created };
}

/**
 * Returns the settings without anything of ours; everything the user had stays exactly as it was. An
 * entry that only held ours goes. A container (`hooks`, an event's list, `permissions`, its `allow`)
 * that our removal leaves empty goes if init created it: `created` is what init recorded; without that
 * record, a container emptied by the removal is taken to be ours.
 */
export function removeOurSettings(input: Settings, created?: readonly string[]): Settings {
  requireShape(input);
  const settings = structuredClone(input);
  const ours = (path: string): boolean => (created ? created.includes(path) : true);
  const hooks = recordOrUndefined(settings['hooks']) as Record<string, MatcherEntry[]> | undefined;
  if (hooks) {
    let emptied = false;
    for (const [event, entries] of Object.entries(hooks)) {
      const kept = stripOurHooks(entries);
      if (kept.length === 0 && entries.length > 0 && ours(`hooks.${event}`)) {
        delete hooks[event];
        emptied = true;
      } else hooks[event] = kept;
    }
    if (emptied && Object.keys(hooks).length === 0 && ours('hooks')) delete settings['hooks'];
  }
  const permissions = recordOrUndefined(settings['permissions']);
  if (permissions && Array.isArray(permissions['allow'])) {
    const before = permissions['allow'] as unknown[];
    const after = before.filter((rule) => !isOurPermission(rule));
    permissions['allow'] = after;
    if (after.length === 0 && before.length > 0 && ours('permissions.allow')) {
      delete permissions['allow'];
      if (Object.keys(permissions).length === 0 && ours('permissions')) delete settings['permissions'];
    }
  }
  return settings;
}

/** Our registrations as they stand in `settings`: for `doctor` and the tests. */
export function findOurHooks(settings: Settings): { event: string; matcher?: string; hook: HookCommand }[] {
  const found: { event: string; matcher?: string; hook: HookCommand }[] = [];
  for (const [event, entries] of Object.entries(recordOrUndefined(settings['hooks']) ?? {})) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries as MatcherEntry[]) {
      for (const hook of Array.isArray(entry.hooks) ? entry.hooks : []) {
        if (isOurHook(hook)) found.push({ event, ...(entry.matcher !== undefined ? { matcher: entry.matcher } : {}), hook });
      }
    }
  }
  return found;
}
