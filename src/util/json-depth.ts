// JSON that nests thousands of levels deep parses fine (V8's parser does not recurse), but every recursive
// walk afterwards — reading a tool's text, cutting long log fields, JSON.stringify, a schema check — runs out
// of stack. Nothing isdlc reads lies that deep, so the parts below a bound are replaced (hook payloads) or
// the whole message is refused (MCP requests). Both walks are iterative so the check cannot itself overflow.

/** Deeper than any payload a host or client sends on purpose; shallow enough for every recursive reader. */
export const MAX_JSON_DEPTH = 64;

export const DEEP_MARKER = `[nested deeper than ${MAX_JSON_DEPTH} levels; cut by isdlc]`;

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** Whether `value` has an object or array more than `limit` levels down (the top value is level 1). */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (!isContainer(value)) return false;
  const stack: Array<[Container, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [container, depth] = stack.pop()!;
    for (const inner of Object.values(container)) {
      if (!isContainer(inner)) continue;
      if (depth + 1 > limit) return true;
      stack.push([inner, depth + 1]);
    }
  }
  return false;
}

/**
 * Replaces, in place, every object or array more than `limit` levels down with `DEEP_MARKER`.
 * Returns how many were replaced (0: `value` is untouched).
 */
export function cutDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): number {
  if (!isContainer(value)) return 0;
  let cut = 0;
  const stack: Array<[Container, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [container, depth] = stack.pop()!;
    for (const [key, inner] of Object.entries(container)) {
      if (!isContainer(inner)) continue;
      if (depth + 1 > limit) {
        (container as Record<string, unknown>)[key] = DEEP_MARKER;
        cut += 1;
      } else {
        stack.push([inner, depth + 1]);
      }
    }
  }
  return cut;
}
