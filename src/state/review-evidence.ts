// What a review has to have seen: the files changed while a phase was active (by anyone, with the host's
// file tools, with when each last changed), and which of them each subagent run read afterwards. The
// independent-review check (src/gates/article-recorders.ts) counts a reviewer's checks only when its run
// read every file the phase changed after its last change: a check recorded without looking is a stamp.
import { isAbsolute, relative, sep } from 'node:path';
import type { IsdlcState, PhaseState, SkillUsageEntry } from './schema.js';

/** A phase keeps the newest of its changed files only; a review then covers those. */
export const CHANGED_FILES_LIMIT = 100;

/** `file` relative to `root` with forward slashes, or undefined when it lies outside. */
export function projectPath(root: string, file: string): string | undefined {
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
}

const isTimes = (value: unknown): value is Record<string, string> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The files changed in `phase` with when each last changed. */
export function changedFiles(phase: PhaseState | undefined): Record<string, string> {
  const files = phase?.['changed_files'];
  return isTimes(files) ? files : {};
}

/** The files of `phase` the run read, with when it last read each. */
export function readFiles(entry: SkillUsageEntry, phase: string): Record<string, string> {
  const read = entry['read_in'];
  const inPhase = isTimes(read) ? (read as Record<string, unknown>)[phase] : undefined;
  return isTimes(inPhase) ? inPhase : {};
}

/** Records that `path` changed at `at` in `phase` (on a draft). */
export function noteChange(draft: IsdlcState, phase: string, path: string, at: string): void {
  const phases = (draft.phases ??= {});
  const record = (phases[phase] ??= {});
  const files = { ...changedFiles(record) };
  delete files[path];
  files[path] = at;
  const kept = Object.entries(files).slice(-CHANGED_FILES_LIMIT);
  record['changed_files'] = Object.fromEntries(kept);
}

/** Records that the run read `path` at `at` in `phase` (on a draft entry). */
export function noteRead(entry: SkillUsageEntry, phase: string, path: string, at: string): void {
  const existing: unknown = entry['read_in'];
  const read: Record<string, unknown> =
    typeof existing === 'object' && existing !== null && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
  read[phase] = { ...readFiles(entry, phase), [path]: at };
  entry['read_in'] = read;
}

/** The files changed in the phase that the run has not read since their last change. */
export function unreadChanges(changed: Record<string, string>, entry: SkillUsageEntry | undefined, phase: string): string[] {
  const read = entry ? readFiles(entry, phase) : {};
  return Object.entries(changed)
    .filter(([path, at]) => !(typeof read[path] === 'string' && read[path] >= at))
    .map(([path]) => path);
}
