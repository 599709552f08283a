// The file tools' paths are judged as the file system resolves them. Each alias of
// `<project>/.isdlc/state.json` goes through the hook `isdlc init` registered for Write, Edit and
// MultiEdit, forging passing tests; each must be judged as the state file and refused. A state file
// that is not this project's (a fixture in a subfolder, `.ISDLC` where case matters) is left alone.
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editCall, writeCall } from '../helpers/payloads.js';
import { decisionOf, initedProject, withoutSandbox, writeJson, type Decision } from '../helpers/project.js';
import { runRegisteredHook } from '../helpers/registered-hook.js';
import { testRecord, withTests, workflowState } from '../helpers/states.js';

type State = Record<string, any>;
const IMPL = '06-implementation';
const FAILED = '"last_test_result": "failed"';
const PASSED = '"last_test_result": "passed"';

function failingTests(): State {
  return withTests(workflowState('feature', IMPL), IMPL, testRecord('failed', 2));
}

function forgedText(): string {
  const state = failingTests();
  Object.assign(state['phases'][IMPL].iteration_requirements.test_iteration, { completed: true, last_test_result: 'passed', status: 'success' });
  return JSON.stringify(state, null, 2);
}

/** The three ways to forge the result: a whole new file, one Edit, a MultiEdit whose last edit forges. */
function forgeries(project: string, cwd: string, path: string): [string, Record<string, unknown>][] {
  const edit = editCall(project, path, FAILED, PASSED);
  return [
    ['Write', { ...writeCall(project, path, forgedText()), cwd }],
    ['Edit', { ...edit, cwd }],
    [
      'MultiEdit',
      {
        ...edit,
        cwd,
        tool_name: 'MultiEdit',
        tool_input: {
          file_path: path,
          edits: [
            { old_string: '"description": "test workflow"', new_string: '"description": "export"' },
            { old_string: FAILED, new_string: PASSED },
          ],
        },
      },
    ],
  ];
}

function project(): string {
  const dir = withoutSandbox(initedProject('isdlc-aliases-'));
  writeJson(join(dir, '.isdlc/state.json'), failingTests());
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'x'));
  symlinkSync('.isdlc/state.json', join(dir, 'link.json'));
  symlinkSync('.isdlc', join(dir, 'lnk'));
  return dir;
}

function send(dir: string, payload: Record<string, unknown>): Decision {
  const run = runRegisteredHook(dir, payload);
  expect(run.status, run.stderr).toBe(0);
  return decisionOf(run);
}

/** [how, path as the tool names it (`P` stands for the project), payload cwd relative to the project] */
const ALIASES: [string, string, string][] = [
  ['with ./ inside', 'P/.isdlc/./state.json', ''],
  ['with a doubled slash', 'P/.isdlc//state.json', ''],
  ['through x/..', 'P/x/../.isdlc/state.json', ''],
  ['relative to the payload cwd', '.isdlc/state.json', ''],
  ['relative to a subfolder the agent is in', '../.isdlc/state.json', 'src'],
  ['through a symlink to the file', 'P/link.json', ''],
  ['through a symlinked folder', 'P/lnk/state.json', ''],
  ['back out of the config folder', 'P/.isdlc/config/../state.json', ''],
];

describe('Write, Edit and MultiEdit of the state file under another name, through the registered hook', () => {
  it.each(ALIASES)('%s (%s) is the state file', (_, named, cwdRelative) => {
    const dir = project();
    const before = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    const cwd = join(dir, cwdRelative);
    for (const [tool, payload] of forgeries(dir, cwd, named.replace(/^P\//, `${dir}/`))) {
      const decision = send(dir, payload);
      expect(decision.kind, `${tool} ${named}`).toBe('deny');
      expect(decision.reason, `${tool} ${named}`).toContain(`isdlc state-write-validator: Use isdlc's tools to change state`);
      expect(decision.reason, `${tool} ${named}`).toContain(`instead of this ${tool}`);
      expect(decision.reason).toContain('test_iteration');
    }
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(before);
  });

  it("a state file that is not this project's is not judged as one: a fixture in a subfolder, and .ISDLC where case matters", () => {
    const dir = project();
    writeJson(join(dir, 'test/fixtures/old/.isdlc/state.json'), failingTests());
    const others = ['test/fixtures/old/.isdlc/state.json', `${dir}/test/fixtures/old/.isdlc/state.json`];
    if (process.platform === 'linux') {
      writeJson(join(dir, '.ISDLC/state.json'), failingTests());
      others.push('.ISDLC/state.json');
    }
    for (const named of others) {
      for (const [tool, payload] of forgeries(dir, dir, named)) expect(send(dir, payload).kind, `${tool} ${named}`).toBe('allow');
    }
  });
});
