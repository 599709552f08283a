// A JSON object file of the person's that isdlc merges into (settings, server lists), read so that one
// isdlc cannot merge into stops init before any change, and written back in one layout.
import { readTextIfPresent } from '../util/read-text.js';
import { InstallError } from './host-setup.js';

/** The file's object, or an empty one when it is absent; anything else stops init with what to fix. */
export function readJsonObject(file: string): { value: Record<string, unknown>; existed: boolean } {
  const text = readTextIfPresent(file);
  if (text === undefined) return { value: {}, existed: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InstallError(`${file} is not valid JSON (${(error as Error).message}). Fix it first; isdlc changed nothing.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InstallError(`${file} does not hold a JSON object. Fix it first; isdlc changed nothing.`);
  }
  return { value: parsed as Record<string, unknown>, existed: true };
}

export function serialise(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
