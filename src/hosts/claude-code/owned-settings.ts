// Values isdlc sets in a settings file the user owns, and entries it adds to the user's lists, recorded so
// that `uninstall` (or `init --no-sandbox`) can give back exactly what was there before: a value the user
// had is restored, a value the user changed since is left alone, an entry the user had before is kept.
import { recordOrUndefined } from '../../util/json.js';

/** A dotted key path inside the settings object: `sandbox.filesystem.denyWrite`. */
export type KeyPath = string;

export interface OwnedEdits {
  /** Scalar values to set. */
  set: Record<KeyPath, unknown>;
  /** Entries to have in a list, added after the user's own: strings (a deny rule), or objects (a hook entry), compared by value. */
  add: Record<KeyPath, readonly unknown[]>;
}

/** What isdlc did, kept in install.json. */
export interface OwnedRecord {
  /** Per key set: the value isdlc set, and whether the user had a value there before isdlc first set it, and which. */
  set: Record<KeyPath, { ours: unknown } & ({ had: false } | { had: true; value: unknown })>;
  /** Per list: the entries isdlc added (not the ones the user already had). */
  added: Record<KeyPath, unknown[]>;
}

export class OwnedSettingsShapeError extends Error {}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether `list` holds an entry equal to `entry` (by value: a hook entry is an object). */
export function holdsEntry(list: readonly unknown[], entry: unknown): boolean {
  return list.some((item) => same(item, entry));
}

function splitPath(path: KeyPath): { parents: string[]; key: string } {
  const parts = path.split('.');
  return { parents: parts.slice(0, -1), key: parts[parts.length - 1]! };
}

/** The object at `parents`, made (and recorded in `created`) where missing; a non-object in the way is an error. */
function containerFor(root: Record<string, unknown>, parents: string[], created: string[]): Record<string, unknown> {
  let here = root;
  for (let i = 0; i < parents.length; i++) {
    const name = parents[i]!;
    const next = here[name];
    if (next === undefined) {
      here[name] = {};
      created.push(parents.slice(0, i + 1).join('.'));
    } else if (!recordOrUndefined(next)) {
      throw new OwnedSettingsShapeError(`"${parents.slice(0, i + 1).join('.')}" is not an object`);
    }
    here = here[name] as Record<string, unknown>;
  }
  return here;
}

function containerIfPresent(root: Record<string, unknown>, parents: string[]): Record<string, unknown> | undefined {
  let here: Record<string, unknown> | undefined = root;
  for (const name of parents) here = recordOrUndefined(here?.[name]);
  return here;
}

export interface AppliedOwned {
  settings: Record<string, unknown>;
  record: OwnedRecord;
  /** Containers (objects and lists) that did not exist before. */
  created: string[];
  /** Keys where a value of the user's was replaced: what it was. */
  replaced: { path: KeyPath; was: unknown }[];
}

/** The part of `record` that `edits` no longer asks for. */
function stalePart(record: OwnedRecord, edits: OwnedEdits): OwnedRecord {
  const stale: OwnedRecord = { set: {}, added: {} };
  for (const [path, before] of Object.entries(record.set)) if (!Object.hasOwn(edits.set, path)) stale.set[path] = before;
  for (const [path, added] of Object.entries(record.added)) {
    const still = edits.add[path] ?? [];
    const gone = added.filter((entry) => !holdsEntry(still, entry));
    if (gone.length > 0) stale.added[path] = gone;
  }
  return stale;
}

/**
 * The settings with `edits` applied. `previous` is what an earlier init did: the value the user had before
 * that first init stays the one to give back, and what it did that `edits` no longer asks for (a sandbox
 * now left off, a setting this Claude Code does not have) is given back first. The input is not modified.
 */
export function applyOwned(input: Record<string, unknown>, edits: OwnedEdits, previous?: { record: OwnedRecord; created: readonly string[] }): AppliedOwned {
  const settings = previous ? removeOwned(input, stalePart(previous.record, edits), previous.created) : structuredClone(input);
  const created: string[] = [];
  const replaced: AppliedOwned['replaced'] = [];
  const record: OwnedRecord = { set: {}, added: {} };

  for (const [path, value] of Object.entries(edits.set)) {
    const { parents, key } = splitPath(path);
    const container = containerFor(settings, parents, created);
    const had = Object.hasOwn(container, key);
    const earlier = previous?.record.set[path];
    const before = earlier
      ? earlier.had
        ? { had: true as const, value: earlier.value }
        : { had: false as const }
      : had
        ? { had: true as const, value: container[key] }
        : { had: false as const };
    record.set[path] = { ours: structuredClone(value), ...before };
    if (had && !same(container[key], value)) replaced.push({ path, was: container[key] });
    container[key] = structuredClone(value);
  }

  for (const [path, entries] of Object.entries(edits.add)) {
    const { parents, key } = splitPath(path);
    const container = containerFor(settings, parents, created);
    const current = container[key];
    if (current !== undefined && !Array.isArray(current)) throw new OwnedSettingsShapeError(`"${path}" is not a list`);
    if (current === undefined) created.push(path);
    const list = (current as unknown[] | undefined) ?? [];
    const ours = previous?.record.added[path] ?? [];
    const added: unknown[] = [];
    for (const entry of entries) {
      if (!holdsEntry(list, entry)) {
        list.push(structuredClone(entry));
        added.push(structuredClone(entry));
      } else if (holdsEntry(ours, entry)) added.push(structuredClone(entry));
    }
    container[key] = list;
    record.added[path] = added;
  }
  return { settings, record, created, replaced };
}

/**
 * The settings without what `record` says isdlc put there: each value isdlc set and nobody changed since
 * goes back to what the user had (or goes); each entry isdlc added goes. A container that is left empty
 * goes if isdlc created it (`created`).
 */
export function removeOwned(input: Record<string, unknown>, record: OwnedRecord, created: readonly string[]): Record<string, unknown> {
  const settings = structuredClone(input);
  for (const [path, before] of Object.entries(record.set)) {
    const { parents, key } = splitPath(path);
    const container = containerIfPresent(settings, parents);
    if (!container || !Object.hasOwn(container, key)) continue;
    // A value someone changed after isdlc set it is theirs now.
    if (!same(container[key], before.ours)) continue;
    if (before.had) container[key] = before.value;
    else delete container[key];
  }
  for (const [path, added] of Object.entries(record.added)) {
    const { parents, key } = splitPath(path);
    const container = containerIfPresent(settings, parents);
    const list = container?.[key];
    if (!container || !Array.isArray(list)) continue;
    container[key] = list.filter((entry) => !holdsEntry(added, entry));
  }
  // Emptied containers isdlc created go, the deepest first.
  const candidates = [...created];
  candidates.sort((a, b) => b.split('.').length - a.split('.').length);
  for (const path of candidates) {
    const { parents, key } = splitPath(path);
    const container = containerIfPresent(settings, parents);
    const value = container?.[key];
    const empty = Array.isArray(value) ? value.length === 0 : recordOrUndefined(value) !== undefined && Object.keys(value as object).length === 0;
    if (container && empty) delete container[key];
  }
  return settings;
}
