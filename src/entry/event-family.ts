// Which hook bundle answers an event. Tool calls, tool results and the rest each have their own bundle
// (docs/hot-path.md); the executable picks one from the payload before loading any of them.

export const FAMILIES = ['tool-call', 'tool-result', 'turn'] as const;
export type EventFamily = (typeof FAMILIES)[number];

export function familyOf(eventName: string | undefined): EventFamily {
  if (eventName === 'PreToolUse') return 'tool-call';
  if (eventName === 'PostToolUse' || eventName === 'PostToolUseFailure') return 'tool-result';
  return 'turn';
}

/** `hook_event_name` read straight from the payload's bytes, without parsing the rest. */
export function peekEventName(bytes: Buffer): string | undefined {
  const at = bytes.indexOf('"hook_event_name"');
  if (at < 0) return undefined;
  return /^"hook_event_name"\s*:\s*"([A-Za-z]+)"/.exec(bytes.toString('latin1', at, at + 80))?.[1];
}

/** Whether a guard reacts to an event this family's bundle answers. */
export function reactsInFamily(guard: { on: Partial<Record<string, unknown>> }, family: EventFamily): boolean {
  return Object.keys(guard.on).some((event) => familyOf(event) === family);
}

/**
 * Each bundle keeps one code cache per kind of call (src/util/code-cache.ts), warmed by sample calls of
 * that kind only: a cache holds what such a call runs and little more, and every call deserialises its
 * whole cache (measured: PreToolUse's shell cache is 208 KB where one for every kind was 245 KB, 1.8
 * million instructions less per Bash call). The choice only picks a cache: whatever it guesses, the call
 * is the same.
 */
export const CACHE_VARIANTS: Readonly<Record<EventFamily, readonly string[]>> = Object.freeze({
  'tool-call': ['agent', 'shell', 'edit', 'other'],
  'tool-result': ['agent', 'shell', 'edit', 'other'],
  turn: ['stop', 'other'],
});

/** The cache of a call: its family, its event, and the canonical kind of its tool (the host reads that). */
export function cacheVariant(family: EventFamily, eventName: string | undefined, toolKind: string | undefined): string {
  if (family === 'turn') return eventName === 'Stop' || eventName === 'SubagentStop' ? 'stop' : 'other';
  if (toolKind === 'agent' || toolKind === 'shell') return toolKind;
  if (toolKind === 'write' || toolKind === 'edit' || toolKind === 'notebook' || toolKind === 'patch') return 'edit';
  return 'other';
}

export function bundleFile(family: EventFamily): string {
  return `hook-${family}.cjs`;
}

/** The global where the bundle that does answer finds the names of those that could not (src/entry/bundle-fallback.ts). */
export const MISSING_BUNDLES = '__isdlcMissingBundles';
