// Reading parsed JSON whose shape is not guaranteed (state and config files a person or an agent may
// have edited): a value is taken only when it has the expected type.

export type JsonRecord = Record<string, unknown>;

/** Whether the value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a plain object, else undefined. */
export function recordOrUndefined(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

/** The value when it is a plain object, else an empty one. */
export function asRecord(value: unknown): JsonRecord {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : {};
}

/** The value when it is a finite number. */
export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * A value read from JSON, as text for a message or a comparison: a string as it is, a number or a boolean
 * printed, anything else as JSON (never `[object Object]`); `fallback` for null or a missing value.
 */
export function asText(value: unknown, fallback = ''): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? fallback;
  } catch {
    return fallback;
  }
}
