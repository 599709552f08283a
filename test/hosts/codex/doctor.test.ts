// `isdlc doctor --json` for a project set up for Codex, through the built CLI, with a CODEX_HOME of the
// test's own: whether Codex will run each of isdlc's hooks, read from the person's config before any
// session (trusted at its key with the hash Codex computes, edited since, moved by a group put before it,
// switched off one by one or all at once), and the version of the `codex` on PATH. The hashes the tests
// trust with come from the e2e harness's own implementation (checked against the real Codex there), not
// from isdlc's.
import { chmodSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustEntries } from '../../e2e/harness/codex-hook-trust.js';
import { cli, readJson, tempDir, writeFile, writeJson, type Run } from '../../helpers/project.js';

type Finding = { severity: 'ok' | 'warn' | 'fail'; what: string; fix?: string };

const HOOKS = '.codex/hooks.json';
const CONFIG = '.codex/config.toml';
const ALL = 'SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, SubagentStop';

/** A folder holding a `codex` that prints what `codex --version` prints. */
function fakeCodex(version: string): string {
  const dir = tempDir('isdlc-fake-codex-');
  writeFile(join(dir, 'codex'), `#!/bin/sh\nprintf 'codex-cli %s\\n' '${version}'\n`);
  chmodSync(join(dir, 'codex'), 0o755);
  return `${dir}${delimiter}${process.env['PATH'] ?? ''}`;
}

/** A project `init --host codex` set up, by its real path (Codex keys hooks by it). */
function codexProject(): string {
  const dir = realpathSync(tempDir('isdlc-codex-doctor-'));
  writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } });
  const run = cli(['init', dir, '--host', 'codex', '--codex-version', '0.171.0']);
  if (run.status !== 0) throw new Error(run.stderr);
  return dir;
}

/** A CODEX_HOME whose config.toml trusts the project and holds `extra`. */
function codexHome(dir: string, extra = ''): string {
  const home = tempDir('isdlc-codex-home-');
  writeFile(join(home, 'config.toml'), `[projects.${JSON.stringify(dir)}]\ntrust_level = "trusted"\n\n${extra}`);
  return home;
}

/** TOML for the person's `/hooks` review having trusted every hook of the project's hooks.json as it is now. */
function trusted(dir: string): string {
  return Object.entries(trustEntries(join(dir, HOOKS)))
    .map(([key, hash]) => `[hooks.state.${JSON.stringify(key)}]\ntrusted_hash = ${JSON.stringify(hash)}\n`)
    .join('\n');
}

function doctor(dir: string, home: string, version = '0.171.0'): Run & { findings: Finding[] } {
  const run = cli(['doctor', dir, '--json'], { env: { CODEX_HOME: home, PATH: fakeCodex(version) } });
  return { ...run, findings: (JSON.parse(run.stdout) as { findings: Finding[] }).findings };
}

const about = (findings: Finding[], words: string): Finding[] => findings.filter((finding) => finding.what.includes(words));
const skipped = (findings: Finding[]): Finding[] => about(findings, "Codex will skip isdlc's hooks");

describe("doctor: will Codex run isdlc's hooks", () => {
  it('none trusted: every event named, with the one step', () => {
    const dir = codexProject();
    const run = doctor(dir, codexHome(dir));
    expect(run.status).toBe(1);
    expect(skipped(run.findings)).toEqual([
      {
        severity: 'fail',
        what: expect.stringContaining(`at ${ALL} (never trusted)`),
        fix: expect.stringMatching(/open `codex` in the project, type \/hooks and trust isdlc's hooks/),
      },
    ]);
  });

  it('trusted as the /hooks review writes it: ok, and nothing about skipping', () => {
    const dir = codexProject();
    const run = doctor(dir, codexHome(dir, trusted(dir)));
    expect(skipped(run.findings)).toEqual([]);
    expect(run.findings).toContainEqual({ severity: 'ok', what: `Codex trusts isdlc's hooks (${ALL})` });
    // Only the canary is left short of ok (but for the step that installs Stryker): no session has started yet.
    expect(run.findings.filter((finding) => finding.severity !== 'ok' && !finding.what.includes('need a mutation score'))).toEqual([
      expect.objectContaining({ severity: 'warn', what: expect.stringContaining('have not run') }),
    ]);
    expect(run.status).toBe(0);
  });

  it('a hook edited since it was trusted is named, and only it', () => {
    const dir = codexProject();
    const home = codexHome(dir, trusted(dir));
    const hooks = readJson<{ hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> }>(join(dir, HOOKS));
    hooks.hooks['Stop']![0]!.hooks[0]!.timeout = 900;
    writeJson(join(dir, HOOKS), hooks);
    const run = doctor(dir, home);
    expect(skipped(run.findings)).toEqual([
      expect.objectContaining({ severity: 'fail', what: expect.stringContaining('at Stop (changed since they were trusted):') }),
    ]);
  });

  it("a group of the person's put before isdlc's moves isdlc's key: that event is named, the others still run", () => {
    const dir = codexProject();
    const home = codexHome(dir, trusted(dir));
    const hooks = readJson<{ hooks: Record<string, unknown[]> }>(join(dir, HOOKS));
    hooks.hooks['PreToolUse']!.unshift({ matcher: '^Bash$', hooks: [{ type: 'command', command: './lint.sh' }] });
    writeJson(join(dir, HOOKS), hooks);
    const run = doctor(dir, home);
    expect(skipped(run.findings)).toEqual([
      expect.objectContaining({ severity: 'fail', what: expect.stringContaining("at PreToolUse (trusted, but a hook group put before isdlc's moved them") }),
    ]);
    // The person's own hook at the end changes nothing for isdlc's.
    const after = readJson<{ hooks: Record<string, unknown[]> }>(join(dir, HOOKS));
    after.hooks['PreToolUse']!.push(after.hooks['PreToolUse']!.shift());
    writeJson(join(dir, HOOKS), after);
    expect(skipped(doctor(dir, home).findings)).toEqual([]);
  });

  it('a trusted hook switched off in the person config is named', () => {
    const dir = codexProject();
    const key = `${join(dir, HOOKS)}:stop:0:0`;
    const home = codexHome(dir, trusted(dir).replace(`[hooks.state.${JSON.stringify(key)}]\n`, `[hooks.state.${JSON.stringify(key)}]\nenabled = false\n`));
    const run = doctor(dir, home);
    expect(skipped(run.findings)).toEqual([]);
    expect(about(run.findings, "switches off isdlc's hooks at Stop")).toEqual([
      expect.objectContaining({ severity: 'fail', fix: expect.stringContaining('take those `enabled = false` lines out of') }),
    ]);
  });

  it.each([
    ['the person config', 'person', '[features]\nhooks = false\n', 'sets [features] hooks = false'],
    ["the project's config.toml, under the older name", 'project', '[features]\ncodex_hooks = false\n', 'sets [features] codex_hooks = false'],
    ["the project's config.toml, as a dotted key", 'project', 'features.hooks = false\n', 'sets [features] hooks = false'],
  ])('all hooks switched off in %s: a failure, trusted or not', (_where, where, toml, says) => {
    const dir = codexProject();
    let home = codexHome(dir, trusted(dir));
    if (where === 'person') home = codexHome(dir, `${toml}\n${trusted(dir)}`);
    else writeFile(join(dir, CONFIG), readFileSync(join(dir, CONFIG), 'utf8').replace('\n\n# >>> isdlc', `\n\n${toml}\n# >>> isdlc`));
    const run = doctor(dir, home);
    expect(run.status).toBe(1);
    expect(about(run.findings, says)).toEqual([
      expect.objectContaining({
        severity: 'fail',
        what: expect.stringContaining("Codex runs no hook at all, isdlc's included"),
        fix: expect.stringContaining('take that line out'),
      }),
    ]);
    // Control: the same config with the feature on says nothing of it.
    const on = codexProject();
    expect(about(doctor(on, codexHome(on, trusted(on))).findings, 'Codex runs no hook at all')).toEqual([]);
  });

  it('a person config that does not parse is said once, with where', () => {
    const dir = codexProject();
    const home = tempDir('isdlc-codex-home-');
    writeFile(join(home, 'config.toml'), '[projects\n');
    const run = doctor(dir, home);
    expect(about(run.findings, 'does not parse')).toEqual([
      expect.objectContaining({ severity: 'fail', what: expect.stringContaining(join(home, 'config.toml')) }),
    ]);
  });
});

describe('doctor: the version of the `codex` on PATH', () => {
  it.each([
    ['0.171.0', 'ok', 'Codex 0.171.0: hooks and permission profiles', undefined],
    [
      '0.124.0',
      'warn',
      "Codex 0.124.0 has no permission profiles (from 0.145.0): the agent's shell can write isdlc's files",
      'npm i -g @openai/codex@latest, then isdlc init --host codex',
    ],
    ['0.100.0', 'fail', 'Codex 0.100.0 runs no project hooks (from 0.124.0)', 'npm i -g @openai/codex@latest'],
  ])('codex-cli %s: %s', (version, severity, what, fix) => {
    const dir = codexProject();
    const run = doctor(dir, codexHome(dir, trusted(dir)), version);
    expect(run.findings[0]).toEqual({ severity, what: expect.stringContaining(what), ...(fix ? { fix } : {}) });
    if (severity === 'fail') expect(run.status).toBe(1);
  });
});
