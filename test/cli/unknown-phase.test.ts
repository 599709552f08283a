// A phase name the project's config does not know is an error wherever a phase is named: a typo in
// `gate check --phase X && deploy` must not read as an open gate with nothing to meet.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, initedProject, writeJson } from '../helpers/project.js';
import { workflowState } from '../helpers/states.js';

describe('an unknown phase name', () => {
  const dir = initedProject('isdlc-unknown-phase-');
  writeJson(join(dir, '.isdlc/state.json'), workflowState('feature', '06-implementation'));

  it.each([
    [['gate', 'check', '--phase', '99-nope']],
    [['gate', 'check', '--phase', '99-nope', '--json']],
    [['constitution', 'record', '--phase', 'nope', '--article', 'I', '--result', 'compliant']],
    [['escalation', 'approve', '--phase', 'nope']],
    [['gate-requirements', '--phase', 'nope', '--artifact-folder', 'REQ-0001-x']],
    [['delegation-prompt', '--phase', 'nope']],
  ])('%j exits 2 and names the phases there are', (args) => {
    const run = cli([...args, '--dir', dir]);
    expect(run.status, run.stdout).toBe(2);
    expect(run.stderr).toMatch(/^isdlc: unknown phase "(?:99-)?nope": the phases are .*06-implementation/);
    expect(run.stdout).toBe('');
  });

  it('a known phase, in either spelling the framework used, still works', () => {
    expect(cli(['gate', 'check', '--phase', '06-implementation', '--dir', dir]).status).toBe(1);
    expect(cli(['gate', 'check', '--phase', '13-test-deploy', '--dir', dir]).status).not.toBe(2);
  });
});
