// Reading parsed JSON whose shape is not guaranteed (state and config files a person or an agent may
// have edited): a value is taken only when it has the expected type.

export type JsonRecord = Record<string, unknown>;

/** The value when it is a plain object, else an empty one. */
export function asRecord(value: unknown): JsonRecord {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : {};
}

/** The value when it is a finite number. */
export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
