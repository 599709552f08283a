// The protection on older Claude Code: 2.1.138, the oldest version init turns the sandbox on for, holds a
// reduced set of routes; 2.1.100's sandbox cannot run Bash at all, which is why init leaves it off there.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { routesById, runnable } from './harness/attack-routes.js';
import { attackFromMain, unrecognised } from './harness/attack-run.js';
import { BELOW_EXEC_FORM, BELOW_PROMPT_EXPANSION } from './harness/claude-versions.js';
import { guardedProject } from './harness/guarded.js';
import { bash, call, say } from './harness/script.js';
import { asPersonWrote, e2eProject, isdlc, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode(BELOW_EXEC_FORM, BELOW_PROMPT_EXPANSION);

// Programs beyond coreutils, git and node only where the machine has them.
const REDUCED = routesById(['S02', 'S07', 'S14', 'S39', 'L01', 'L05', 'C02', 'K04', 'P02', 'Q03', 'G05', 'R01', 'U01', 'F01', 'F13', 'F16']).filter(runnable);
/** Renaming a folder above a protected file: 2.1.332 refuses it (EBUSY), 2.1.138 does not. */
const ANCESTOR_RENAMES = routesById(['K07', 'K06', 'P06', 'G08']);

test(`Claude Code ${BELOW_EXEC_FORM}: ${REDUCED.length} routes leave every guarded file as it was`, async () => {
  const project = guardedProject({ version: BELOW_EXEC_FORM });
  const settings = JSON.parse(readFileSync(join(project.dir, '.claude', 'settings.json'), 'utf8')) as { sandbox?: { enabled?: boolean } };
  expect(settings.sandbox?.enabled).toBe(true);
  const { run, changed, seen } = await attackFromMain(project, REDUCED, BELOW_EXEC_FORM);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(changed).toEqual([]);
  expect(unrecognised(seen)).toEqual([]);
}, 120_000);

test(`Claude Code ${BELOW_PROMPT_EXPANSION}: init leaves the sandbox off, because there every sandboxed Bash call fails (exit 126)`, async () => {
  const project = e2eProject({ version: BELOW_PROMPT_EXPANSION });
  const file = join(project.dir, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as { sandbox?: Record<string, unknown> };
  expect(settings.sandbox).toBeUndefined();
  const script = [{ name: 'main', turns: [call(bash('true')), call(bash('echo ok')), say('Done.')] }];
  const plain = await runClaude(project, { prompt: 'Go.', scripts: script });
  expect(plain.exitCode, plain.stderr).toBe(0);
  expect(plain.api.calls.map((sent) => plain.api.toolResult(sent.id)!.isError)).toEqual([false, false]);

  // The sandbox as init writes it for 2.1.138: on 2.1.100 not even `true` runs.
  writeFileSync(file, JSON.stringify({ ...settings, sandbox: { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false } }, null, 2));
  asPersonWrote(project);
  const boxed = await runClaude(project, { prompt: 'Go.', scripts: script });
  expect(boxed.exitCode, boxed.stderr).toBe(0);
  for (const sent of boxed.api.calls) {
    const result = boxed.api.toolResult(sent.id)!;
    expect(result.isError).toBe(true);
    // The npm package ships its seccomp helper without the executable bit.
    expect(result.text).toMatch(/^Exit code 126\n[^\n]*vendor\/seccomp\/[^/]+\/apply-seccomp: Permission denied/);
  }
}, 120_000);

// A gap of 2.1.138's sandbox, which isdlc cannot close: it binds a protected *file* read-only but not the
// folders above it, so renaming `docs`, `docs/isdlc`, `.claude` or `.git` moves the constitution, the
// project's settings (isdlc's hooks and the sandbox itself), git's config and hooks aside, and a forged
// one takes its place. 2.1.332 binds those folders too (EBUSY). No deny entry closes it without making
// `docs` or `.git` read-only, so init, doctor and status say so and name the upgrade.
test(`on Claude Code ${BELOW_EXEC_FORM}, renaming a folder above a protected file moves it aside: a gap doctor and status report`, async () => {
  const project = guardedProject({ version: BELOW_EXEC_FORM });
  expect(isdlc(project, ['status'])).toContain(
    `Protection: sandboxed, with a gap: Claude Code ${BELOW_EXEC_FORM}'s sandbox lets the agent's shell rename a folder above a protected file`,
  );
  const { run, changed, seen } = await attackFromMain(project, ANCESTOR_RENAMES, BELOW_EXEC_FORM);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(seen.map((outcome) => outcome.layer)).toEqual(['unrecognised', 'unrecognised', 'unrecognised', 'unrecognised']);
  expect(changed.map((line) => line.split(': ')[0])).toEqual(
    expect.arrayContaining(['project:.claude/settings.json', 'project:.git/config', 'project:.git/hooks/pre-commit', 'project:docs/isdlc/constitution.md']),
  );
}, 120_000);
