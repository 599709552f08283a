// `isdlc config set` and `unset`: a person's change to a config file, through the built CLI. It stands at the
// next hook call (isdlc wrote it through its journal), a value the schema refuses writes nothing, the agent's
// shell cannot use it, and a file changed behind isdlc's back is reviewed first.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashPassed } from '../helpers/payloads.js';
import { cli, initedProjectWithTests, readJson } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';

const TESTING = '.isdlc/config/testing.json';
const bytes = (dir: string, rel: string): string => readFileSync(join(dir, rel), 'utf8');
const incidents = (dir: string): unknown[] => (JSON.parse(cli(['changes', 'list', '--json', '--dir', dir]).stdout) as { incidents: unknown[] }).incidents;

describe('isdlc config set', () => {
  it('sets a value the next hook call keeps: no incident, and config show has it', () => {
    const dir = initedProjectWithTests('isdlc-config-set-');
    const run = cli(['config', 'set', 'testing', 'coverage_command', 'npx c8 --reporter=text npm test', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Set testing.coverage_command to "npx c8 --reporter=text npm test" in .isdlc/config/testing.json');
    const hook = runRegisteredHook(dir, bashPassed(dir, 'ls', ''));
    expect(hook.stdout).not.toContain('tamper-evidence');
    expect(incidents(dir)).toEqual([]);
    expect(readJson(join(dir, TESTING))).toMatchObject({ command: 'npm test', coverage_command: 'npx c8 --reporter=text npm test' });
    expect(JSON.parse(cli(['config', 'show', 'testing', '--dir', dir]).stdout)).toMatchObject({ coverage_command: 'npx c8 --reporter=text npm test' });
  });

  it('takes numbers, null and JSON as JSON, and says when nothing changes', () => {
    const dir = initedProjectWithTests('isdlc-config-set-');
    expect(cli(['config', 'set', 'testing', 'timeout_minutes', '15', '--dir', dir]).status).toBe(0);
    expect(readJson(join(dir, TESTING))['timeout_minutes']).toBe(15);
    const again = cli(['config', 'set', 'testing', 'timeout_minutes', '15', '--json', '--dir', dir]);
    expect(JSON.parse(again.stdout)).toMatchObject({ config: 'testing', key: 'timeout_minutes', value: 15, changed: false });
    expect(cli(['config', 'unset', 'testing', 'timeout_minutes', '--dir', dir]).status).toBe(0);
    expect(readJson(join(dir, TESTING))).not.toHaveProperty('timeout_minutes');
    expect(incidents(dir)).toEqual([]);
  });

  it('refuses a value the schema refuses, and writes nothing', () => {
    const dir = initedProjectWithTests('isdlc-config-set-');
    const before = bytes(dir, TESTING);
    const run = cli(['config', 'set', 'testing', 'timeout_minutes', 'ten', '--dir', dir]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('would not be valid, so nothing was written');
    expect(run.stderr).toContain('timeout_minutes');
    expect(bytes(dir, TESTING)).toBe(before);
    expect(cli(['config', 'set', 'nope', 'a', '1', '--dir', dir]).stderr).toContain('unknown config "nope"');
  });

  it('a nested key of another config: the project file starts from the config in use and the gate reads it', () => {
    const dir = initedProjectWithTests('isdlc-config-set-');
    const key = 'phase_requirements.06-implementation.test_iteration.max_iterations';
    const run = cli(['config', 'set', 'iteration-requirements', key, '4', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    const written = readJson<Record<string, any>>(join(dir, '.isdlc/config/iteration-requirements.json'));
    expect(written['phase_requirements']['06-implementation'].test_iteration.max_iterations).toBe(4);
    // The rest is the bundled config, so nothing else changed meaning.
    expect(written['phase_requirements']['06-implementation'].test_iteration.success_criteria.min_coverage_percent).toEqual({
      light: 60,
      standard: 80,
      epic: 95,
    });
    expect(cli(['config', 'list', '--dir', dir]).stdout).toMatch(/^iteration-requirements\s+.*\.isdlc\/config\/iteration-requirements\.json$/m);
    expect(runRegisteredHook(dir, bashPassed(dir, 'ls', '')).stdout).not.toContain('tamper-evidence');
    // The bundled default it started from is untouched: another project in the same process still has 10.
    const other = initedProjectWithTests('isdlc-config-set-');
    const shown = JSON.parse(cli(['config', 'show', 'iteration-requirements', '--dir', other]).stdout) as Record<string, any>;
    expect(shown['phase_requirements']['06-implementation'].test_iteration.max_iterations).toBe(10);
  });

  it("is a person's command: the agent's shell is refused", () => {
    const dir = initedProjectWithTests('isdlc-config-set-');
    const before = bytes(dir, TESTING);
    const run = cli(['config', 'set', 'testing', 'command', 'exit 0', '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('is a decision for a person');
    expect(bytes(dir, TESTING)).toBe(before);
  });

  it('a file changed outside isdlc is reviewed first: set refuses and names `isdlc changes`', () => {
    const dir = initedProjectWithTests('isdlc-config-set-');
    writeFileSync(join(dir, TESTING), `${JSON.stringify({ command: 'exit 0' })}\n`);
    const run = cli(['config', 'set', 'testing', 'timeout_minutes', '3', '--dir', dir]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('was modified outside isdlc and waits for review: run `isdlc changes`');
    expect(readJson(join(dir, TESTING))).toEqual({ command: 'exit 0' });
  });
});
