// Test definition integrity through the commands people run and the hooks Claude Code runs: `workflow
// start` records what defines the test command, the gate names a change to it (`"test": "exit 0"`), the
// agent cannot accept it, and a person's `isdlc tests accept` makes the new definition the baseline.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { skillCall, bashCall } from '../helpers/payloads.js';
import { cli, decisionOf, initedProject, readJson, writeJson } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { compliant, delegated, testRecord, withConstitution, withTests, workflowState } from '../helpers/states.js';

type State = Record<string, any>;
const state = (dir: string): State => readJson(join(dir, '.isdlc/state.json'));
const packageJson = (scripts: Record<string, string>, version = '1.0.0') => `${JSON.stringify({ name: 'shop', version, scripts }, null, 2)}\n`;
const check = (dir: string, requirement: string) => {
  const run = cli(['gate', 'check', '--phase', '06-implementation', '--json', '--dir', dir]);
  return (JSON.parse(run.stdout) as { checks: { requirement: string; met: boolean; detail: string }[] }).checks.find((c) => c.requirement === requirement);
};
const clock = (iso: string) => `${iso.slice(11, 16)} UTC`;

describe("the test definition of a workflow, from start to a person's acceptance", () => {
  let dir: string;
  let startedAt: string;
  beforeAll(() => {
    dir = initedProject('isdlc-testdef-');
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'npm run lint && vitest run', lint: 'eslint .' }));
    writeFileSync(join(dir, 'vitest.config.ts'), 'export default { test: { include: ["test/**"] } }\n');
    const run = cli(['workflow', 'start', 'feature', '--description', 'Export', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    startedAt = state(dir)['active_workflow'].started_at;
  });

  it('workflow start records what defines `npm test`: the scripts it reaches, the config present and the config that could appear', () => {
    const recorded = state(dir)['active_workflow'].test_definition;
    expect(recorded).toMatchObject({ command: 'npm test', recorded_at: startedAt, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(recorded.files).toMatchObject({
      'package.json#scripts.test': expect.stringMatching(/^[0-9a-f]{64}$/),
      'package.json#scripts.lint': expect.stringMatching(/^[0-9a-f]{64}$/),
      'package.json#scripts.pretest': null,
      'vitest.config.ts': expect.stringMatching(/^[0-9a-f]{64}$/),
      'vite.config.ts': null,
      '.npmrc': null,
    });
    expect(Object.keys(recorded.files)).not.toContain('package.json');
  });

  it('a version bump and a new dependency leave it as it was', () => {
    const manifest = JSON.parse(packageJson({ test: 'npm run lint && vitest run', lint: 'eslint .' }, '1.1.0')) as State;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, dependencies: { zod: '^4.0.0' } }, null, 2));
    expect(check(dir, 'test_definition')).toMatchObject({ met: true, detail: '`npm test` is defined as when the workflow started' });
  });

  it('`"test": "exit 0"` closes the gate, and `gate check` names the change and who decides', () => {
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'exit 0', lint: 'eslint .' }, '1.1.0'));
    const run = cli(['gate', 'check', '--phase', '06-implementation', '--dir', dir]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`test_definition: what defines the test command changed since the workflow started at ${clock(startedAt)}: `);
    expect(run.stdout).toContain('package.json scripts.test changed');
    expect(run.stdout).toContain('vitest.config.ts is no longer part of the test command');
    expect(run.stdout).toContain('a person (not the agent) reviews it and runs `isdlc tests accept` in their own terminal');
  });

  it('`isdlc tests` shows the definition, the change, and how to accept it', () => {
    const run = cli(['tests', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `Test command \`npm test\`, defined as when the workflow started at ${clock(startedAt)} by:\n  .npmrc`.replace('  .npmrc', '  package.json scripts.lint'),
    );
    expect(run.stdout).toMatch(/Watched while absent \(one that appears is a change\): .*\.npmrc, .*vite\.config\.\{cjs,cts,js,mjs,mts,ts\}/);
    expect(run.stdout).toContain("Waiting for a person's acceptance (the gate stays closed until then):\n  What defines `npm test` changed since");
    expect(run.stdout).toContain('    package.json scripts.test changed');
    expect(run.stdout).toContain('run `isdlc tests accept` in your own terminal');
    const listed = JSON.parse(cli(['tests', '--json', '--dir', dir]).stdout) as State;
    expect(listed['pending']).toHaveLength(1);
    expect(listed['pending'][0].kind).toBe('test_definition');
    expect(listed['changes']).toContain('package.json scripts.test changed');
  });

  it('inside Claude Code the acceptance is refused, by the hook and by the command, and nothing changes', () => {
    const before = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    const hook = decisionOf(runRegisteredHook(dir, bashCall(dir, 'node .isdlc/bin/isdlc.cjs tests accept')));
    // In the sandbox init sets up, the command could not write; the model is told it is the person's decision.
    expect(hook.context).toContain('is a decision for a person (accepting a change to what defines the test command');
    const inside = cli(['tests', 'accept', '--dir', dir], { env: { CLAUDECODE: '1' } });
    expect(inside.status).toBe(2);
    expect(inside.stderr).toContain('tests accept is a decision for a person: run it in your own terminal');
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(before);
    expect(check(dir, 'test_definition')).toMatchObject({ met: false });
  });

  it("a person's acceptance is recorded and becomes the baseline: the requirement is met", () => {
    const pending = JSON.parse(cli(['tests', '--json', '--dir', dir]).stdout) as State;
    const run = cli(['tests', 'accept', '--dir', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Accepted:\n  What defines `npm test` changed since');
    expect(run.stdout).toContain('package.json scripts.test changed');
    const recorded = state(dir)['active_workflow'].test_definition;
    expect(recorded.accepted).toMatchObject({ digest: pending['current'].digest, by: expect.any(String), at: expect.any(String), changed: pending['changes'] });
    expect(recorded.digest).toBe(pending['current'].digest);
    expect(recorded.files['package.json#scripts.test']).toBe(pending['current'].files['package.json#scripts.test']);
    expect(recorded.recorded_at).toBe(startedAt);
    expect(check(dir, 'test_definition')).toMatchObject({ met: true, detail: `\`npm test\` is defined as ${recorded.accepted.by} accepted it` });
    expect(state(dir)['history'].at(-1).action).toMatch(/accepted a change to the tests \(test_definition\): .*package\.json scripts\.test changed/);
    const again = cli(['tests', 'accept', '--dir', dir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('nothing about the tests is waiting for acceptance');
  });

  it('a later change is measured from the acceptance', () => {
    const accepted = state(dir)['active_workflow'].test_definition.accepted;
    writeFileSync(join(dir, '.npmrc'), 'script-shell=true\n');
    expect(check(dir, 'test_definition')).toMatchObject({
      met: false,
      detail: `what defines the test command changed since ${accepted.by} accepted it at ${clock(accepted.at)}: .npmrc appeared`,
    });
  });
});

describe('the test definition at the gate the agent asks to pass', () => {
  it('the gate-blocker denies the advance, naming the changed script', () => {
    const dir = initedProject('isdlc-testdef-gate-');
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'node --test' }));
    expect(cli(['workflow', 'start', 'feature', '--dir', dir]).status).toBe(0);
    const recorded = state(dir)['active_workflow'].test_definition;
    // The workflow moved on to implementation, where the tests passed and the developer ran.
    const moved = delegated(
      withTests(workflowState('feature', '06-implementation'), '06-implementation', testRecord('passed', 2)),
      'software-developer',
      '06-implementation',
    );
    withConstitution(moved, '06-implementation', compliant(['I', 'II', 'III', 'V', 'VI', 'VII', 'VIII', 'IX', 'X']));
    moved['active_workflow'].test_definition = recorded;
    writeJson(join(dir, '.isdlc/state.json'), moved);
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'exit 0' }));
    const advance = decisionOf(runRegisteredHook(dir, skillCall(dir, 'isdlc', 'advance')));
    expect(advance.kind).toBe('deny');
    expect(advance.reason).toContain('test_definition: what defines the test command changed since the workflow started at');
    expect(advance.reason).toContain('package.json scripts.test changed');
    expect(advance.reason).toContain('`isdlc tests accept`');
  });

  it('testing.json names the command and the files; a changed command is a change too', () => {
    const dir = initedProject('isdlc-testdef-config-');
    writeFileSync(join(dir, 'pytest.ini'), '[pytest]\naddopts = -q\n');
    writeJson(join(dir, '.isdlc/config/testing.json'), { command: 'pytest', timeout_minutes: 10, definition_files: ['pytest.ini'] });
    expect(cli(['workflow', 'start', 'fix', '--dir', dir]).status).toBe(0);
    expect(state(dir)['active_workflow'].test_definition).toMatchObject({
      command: 'pytest',
      files: { 'pytest.ini': expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    writeJson(join(dir, '.isdlc/config/testing.json'), { command: 'pytest --co', timeout_minutes: 10, definition_files: ['pytest.ini'] });
    expect(check(dir, 'test_definition')).toMatchObject({
      met: false,
      detail: expect.stringContaining('the test command changed from `pytest` to `pytest --co`'),
    });
  });

  it('without a test command nothing is recorded, and the gate has no such requirement', () => {
    const dir = initedProject('isdlc-testdef-none-');
    expect(cli(['workflow', 'start', 'feature', '--dir', dir]).status).toBe(0);
    expect(state(dir)['active_workflow']).not.toHaveProperty('test_definition');
    expect(check(dir, 'test_definition')).toBeUndefined();
    expect(cli(['tests', '--dir', dir]).stdout).toContain('No test definition was recorded for this workflow');
  });
});

describe('a changed test definition survives a restart', () => {
  it('cancelled and started again by the agent, the workflow still holds the change until a person accepts it', () => {
    const dir = initedProject('isdlc-testdef-restart-');
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'vitest run' }));
    expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--dir', dir]).status).toBe(0);
    const recordedAt = state(dir)['active_workflow'].test_definition.recorded_at as string;
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'exit 0' }));
    const agent = { CLAUDECODE: '1' };
    expect(cli(['workflow', 'cancel', '--reason', 'start over', '--dir', dir], { env: agent }).status).toBe(0);
    expect(cli(['workflow', 'start', 'feature', '--description', 'Export again', '--dir', dir], { env: agent }).status).toBe(0);
    const recorded = state(dir)['active_workflow'].test_definition;
    expect(recorded).toMatchObject({ recorded_at: recordedAt, carried_from: expect.stringContaining('feature workflow cancelled') });
    expect(state(dir)['test_definition_carried']).toBeUndefined();
    const run = cli(['gate', 'check', '--phase', '06-implementation', '--dir', dir]);
    expect(run.stdout).toContain(
      `test_definition: what defines the test command changed since it was recorded at ${clock(recordedAt)}, in the feature workflow cancelled at`,
    );
    expect(run.stdout).toContain('package.json scripts.test changed');
    // A person's acceptance in the new workflow settles it.
    expect(cli(['tests', 'accept', '--dir', dir]).status).toBe(0);
    expect(check(dir, 'test_definition')).toMatchObject({ met: true });
  });

  it('a workflow that ends with nothing pending leaves nothing behind: the next one records the project as it is', () => {
    const dir = initedProject('isdlc-testdef-restart-');
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'vitest run' }));
    expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--dir', dir]).status).toBe(0);
    expect(cli(['workflow', 'cancel', '--reason', 'not now', '--dir', dir]).status).toBe(0);
    writeFileSync(join(dir, 'package.json'), packageJson({ test: 'vitest run --coverage' }));
    expect(cli(['workflow', 'start', 'feature', '--description', 'Export', '--dir', dir]).status).toBe(0);
    expect(state(dir)['active_workflow'].test_definition['carried_from']).toBeUndefined();
    expect(check(dir, 'test_definition')).toMatchObject({ met: true });
  });
});
