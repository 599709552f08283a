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

export function bundleFile(family: EventFamily): string {
  return `hook-${family}.cjs`;
}

/** The global where the bundle that does answer finds the names of those that could not (src/entry/bundle-fallback.ts). */
export const MISSING_BUNDLES = '__isdlcMissingBundles';
