// A guard's tests read as a table: each case is a state, a payload and the verdict the guard must give,
// run through the real `isdlc hook` with only that guard (`--guards ID`), in a project on disk.
import { describe, expect, it } from 'vitest';
import { decisionOf, hook, readJson, tempDir, writeFile, writeJson, type Decision } from './project.js';

export interface GuardCase {
  name: string;
  /** state.json content; undefined means no state file at all. */
  state?: Record<string, unknown>;
  /** Files to place in the project before the call (relative path → content). */
  files?: Record<string, string | Record<string, unknown>>;
  /** The payload's cwd, relative to the project (the project itself when unset). */
  cwd?: string;
  /** Anything else the project needs before the call (a git repository, say). */
  setup?: (project: string) => void;
  /** The payload; a function when it must name the project's own paths. */
  payload: Record<string, unknown> | ((project: string) => Record<string, unknown>);
  expect: 'allow' | 'deny' | 'block';
  /** Every string must appear in the reason. */
  reasonIncludes?: string[];
  contextIncludes?: string[];
  /** Further checks on the decision and on the state the call left behind. */
  then?: (result: { decision: Decision; state: Record<string, any>; project: string }) => void;
}

/**
 * How every deny and held Stop starts, whatever the guard: isdlc and where it comes from, then the action
 * to take (or not to take). The model reads the first sentence first; the rule and the why come after.
 */
export const ACTION_FIRST = /^isdlc [^:\n]{1,40}: (?:Do not|Stop|Run|Call|Fix|Delegate|Carry on|Switch|Check|Leave|Write|Record|Meet|Use|Ask|Keep|End|Wait)\b/;

/** The project settings `isdlc init` writes where the sandbox can run: the shell cannot write `.isdlc/`. */
export const SANDBOXED_PROJECT: Record<string, Record<string, unknown>> = {
  '.claude/settings.json': {
    sandbox: { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, filesystem: { denyWrite: ['.isdlc'] } },
    permissions: { deny: ['Edit(/.isdlc/**)'] },
  },
};

export function guardTable(guardId: string, cases: { valid: GuardCase[]; invalid: GuardCase[] }): void {
  const run = (c: GuardCase) => {
    const project = tempDir(`isdlc-${guardId}-`);
    if (c.state !== undefined) writeJson(`${project}/.isdlc/state.json`, c.state);
    else writeJson(`${project}/.isdlc/config/.keep.json`, {});
    for (const [path, content] of Object.entries(c.files ?? {})) {
      if (typeof content === 'string') writeFile(`${project}/${path}`, content);
      else writeJson(`${project}/${path}`, content);
    }
    c.setup?.(project);
    const payload = typeof c.payload === 'function' ? c.payload(project) : c.payload;
    const result = hook(project, { ...payload, cwd: c.cwd === undefined ? project : `${project}/${c.cwd}` }, ['--guards', guardId]);
    expect(result.status, result.stderr).toBe(0);
    const decision = decisionOf(result);
    expect(decision.kind, decision.reason).toBe(c.expect);
    if (decision.kind !== 'allow') expect(decision.reason, 'a deny starts with what to do').toMatch(ACTION_FIRST);
    for (const text of c.reasonIncludes ?? []) expect(decision.reason).toContain(text);
    for (const text of c.contextIncludes ?? []) expect(decision.context).toContain(text);
    if (c.then) {
      let state: Record<string, any> = {};
      try {
        state = readJson(`${project}/.isdlc/state.json`);
      } catch {
        // no state file
      }
      c.then({ decision, state, project });
    }
  };
  // Guards that only observe have no denying cases.
  if (cases.valid.length > 0) describe(`${guardId}: allows`, () => cases.valid.forEach((c) => it(c.name, () => run(c))));
  if (cases.invalid.length > 0) describe(`${guardId}: denies`, () => cases.invalid.forEach((c) => it(c.name, () => run(c))));
}
