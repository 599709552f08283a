// doctor on testing.json, the command the gate runs itself: a broken file, no command at all, and a package
// script that is not there each fail, before a phase finds out; config list and show know the file; the
// recipe init writes for editing config leads to no incident.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashPassed } from '../helpers/payloads.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { describe, expect, it } from 'vitest';
import { cli, initedProject, tempDir, writeFile, writeJson } from '../helpers/project.js';

type Finding = { severity: string; what: string; fix?: string };
const findingsOf = (dir: string): Finding[] =>
  (JSON.parse(cli(['doctor', dir, '--json', '--claude-version', '2.1.332']).stdout) as { findings: Finding[] }).findings;
const about = (dir: string) => findingsOf(dir).filter((finding) => /testing\.json|the gate runs/.test(finding.what));

function project(): string {
  const dir = initedProject('isdlc-doctor-testing-');
  writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', scripts: { test: 'node --test' } });
  return dir;
}

describe('doctor and testing.json', () => {
  it('says which command the gate runs', () => {
    const dir = project();
    writeJson(join(dir, '.isdlc/config/testing.json'), { command: 'npm test', timeout_minutes: 10, require_counts: true });
    expect(about(dir)).toEqual([{ severity: 'ok', what: 'the gate runs `npm test` (timeout 10 min; from .isdlc/config/testing.json)' }]);
  });

  it.each([
    ['wrong types', { command: 'npm tset', timeout_minutes: 'ten' }, /testing\.json.*timeout_minutes/],
    ['no command, none detectable', { command: null, timeout_minutes: 10 }, /names no test command and none can be detected/],
    [
      'a package script that is not there',
      { command: 'npm run tset', timeout_minutes: 10 },
      /runs the package script "tset", which package\.json does not have/,
    ],
  ])('fails on %s, and says how to fix it as a person', (_name, file, said) => {
    const dir = project();
    if ((file as { command: unknown }).command === null) writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0' });
    writeJson(join(dir, '.isdlc/config/testing.json'), file);
    const found = about(dir);
    expect(found).toEqual([
      expect.objectContaining({ severity: 'fail', what: expect.stringMatching(said), fix: expect.stringContaining('isdlc changes accept') }),
    ]);
    expect(cli(['doctor', dir, '--claude-version', '2.1.332']).status).toBe(1);
  });

  it('does not parse: fails, naming the file', () => {
    const dir = project();
    writeFile(join(dir, '.isdlc/config/testing.json'), '{ "command": ');
    expect(about(dir)).toEqual([expect.objectContaining({ severity: 'fail', what: expect.stringContaining('does not parse') })]);
  });

  it('config list and config show know it', () => {
    const dir = project();
    writeJson(join(dir, '.isdlc/config/testing.json'), { command: 'npm test', timeout_minutes: 5, require_counts: true });
    expect(cli(['config', 'list', '--dir', dir]).stdout).toMatch(/^testing\s+.*\.isdlc\/config\/testing\.json$/m);
    const shown = cli(['config', 'show', 'testing', '--dir', dir]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ command: 'npm test', timeout_minutes: 5 });
    expect(cli(['config', 'show', 'nope', '--dir', dir]).stderr).toContain('one of: ');
  });
});

describe('the config recipe init writes into .isdlc/config/README.md', () => {
  it('followed as written, causes no incident: the edit stands at the next hook call', () => {
    const dir = project();
    const readme = readFileSync(join(dir, '.isdlc/config/README.md'), 'utf8');
    expect(readme).toContain('isdlc changes accept');
    // `isdlc config show testing > .isdlc/config/testing.json`, edited in the person's editor.
    const shown = JSON.parse(cli(['config', 'show', 'testing', '--dir', dir]).stdout) as Record<string, unknown>;
    writeFileSync(join(dir, '.isdlc/config/testing.json'), `${JSON.stringify({ ...shown, timeout_minutes: 5 }, null, 2)}\n`);
    const accepted = cli(['changes', 'accept', '--dir', dir]);
    expect(accepted.status, accepted.stderr).toBe(0);
    const hook = runRegisteredHook(dir, bashPassed(dir, 'ls', ''));
    expect(hook.stdout).not.toContain('tamper-evidence');
    expect(JSON.parse(readFileSync(join(dir, '.isdlc/config/testing.json'), 'utf8'))).toMatchObject({ timeout_minutes: 5 });
    expect(JSON.parse(cli(['changes', 'list', '--json', '--dir', dir]).stdout)).toMatchObject({ incidents: [] });
  });
});

describe('the same edit without `changes accept` (the control)', () => {
  it('is put back at the next hook call and reported', () => {
    const dir = project();
    const shown = JSON.parse(cli(['config', 'show', 'testing', '--dir', dir]).stdout) as Record<string, unknown>;
    writeFileSync(join(dir, '.isdlc/config/testing.json'), `${JSON.stringify({ ...shown, timeout_minutes: 5 }, null, 2)}\n`);
    expect(runRegisteredHook(dir, bashPassed(dir, 'ls', '')).stdout).toContain('tamper-evidence');
  });
});

describe('a test command whose counts the gate cannot read', () => {
  const uncounted = (findings: Finding[]) => findings.filter((finding) => finding.what.includes('cannot count'));
  const withScript = (test: string): string => {
    const dir = tempDir('isdlc-uncounted-');
    writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test } });
    return dir;
  };

  it('init says so when it writes the command, and doctor says it again, with what to set and what it costs', () => {
    const dir = withScript('node --test --test-reporter=dot');
    const init = cli(['init', dir]);
    expect(init.status, init.stderr).toBe(0);
    expect(init.stdout).toContain(
      "The gate cannot count the tests `npm test` runs (node --test): the dot reporter prints no test counts; as it is, a passing run counts for nothing (require_counts is true), so no phase that needs passing tests can complete. To fix: use --test-reporter=spec (or tap), or add it beside the one you have in package.json's script.",
    );
    expect(uncounted(findingsOf(dir))).toEqual([
      {
        severity: 'warn',
        what: 'the gate cannot count the tests `npm test` runs (node --test): the dot reporter prints no test counts; as it is, a passing run counts for nothing (require_counts is true), so no phase that needs passing tests can complete',
        fix: "use --test-reporter=spec (or tap), or add it beside the one you have in package.json's script",
      },
    ]);
    // Fixed as told: nothing more to say.
    writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test --test-reporter=spec' } });
    expect(uncounted(findingsOf(dir))).toEqual([]);
  });

  it('a runner it counts, as init found it: nothing said', () => {
    for (const test of ['node --test', 'uvu tests', 'tap', 'ava', 'mocha --reporter dot']) {
      const dir = withScript(test);
      const init = cli(['init', dir]);
      expect(init.stdout, test).not.toContain('cannot count');
      expect(uncounted(findingsOf(dir)), test).toEqual([]);
    }
  });

  it("in testing.json's own command, through a script it calls, and with require_counts false: where to change it, and what exit status alone costs", () => {
    const dir = withScript('npm run unit');
    writeJson(join(dir, 'package.json'), { name: 'x', version: '1.0.0', private: true, scripts: { test: 'npm run unit', unit: 'c8 mocha --reporter json' } });
    expect(cli(['init', dir]).stdout).toContain('(mocha): the json reporter prints no summary');
    writeFile(join(dir, '.isdlc/config/testing.json'), JSON.stringify({ command: 'npx tap --reporter=dot', timeout_minutes: 10, require_counts: false }));
    const [finding] = uncounted(findingsOf(dir));
    expect(finding?.what).toBe(
      'the gate cannot count the tests `npx tap --reporter=dot` runs (node-tap): the dot reporter prints no test counts; the gate judges by exit status alone (require_counts is false): it cannot see tests disappear between runs (the count floor needs numbers) nor name the failing ones',
    );
    expect(finding?.fix).toBe(
      "drop --reporter, or use --reporter=terse (or base, or tap) in .isdlc/config/testing.json's command, then `isdlc changes accept` in your own terminal, so isdlc takes the edit as yours",
    );
  });
});
