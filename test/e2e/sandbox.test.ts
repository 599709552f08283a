// Claude Code's own sandbox (bubblewrap on Linux) around the agent's shell, with isdlc's folder denied
// to it: the agent's commands cannot write isdlc's files, while isdlc's hooks and MCP server, which
// Claude Code runs outside the sandbox, go on recording. (The sandbox settings are written here by
// hand; the sandbox issue makes init write them.)
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { workflowState } from '../helpers/states.js';
import { FIXTURES } from '../helpers/project.js';
import { bash, call, say } from './harness/script.js';
import { activity, e2eProject, readState, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

const SANDBOX = { enabled: true, failIfUnavailable: true, allowUnsandboxedCommands: false, filesystem: { denyWrite: ['.isdlc'] } };

test('inside the sandbox the agent cannot write .isdlc; tests still run and are recorded by the hooks', async () => {
  const project = e2eProject({
    files: {
      'package.json': JSON.stringify({ name: 'boxed', version: '1.0.0', scripts: { test: 'node --test' } }),
      'test/one.test.js': "require('node:test')('one', () => { throw new Error('expected 1 to be 2'); });\n",
      'docs/isdlc/tasks.md': readFileSync(join(FIXTURES, 'plans', 'valid-v2.md'), 'utf8'),
    },
  });
  writeFileSync(join(project.dir, '.isdlc', 'state.json'), `${JSON.stringify(workflowState('feature', '06-implementation'), null, 2)}\n`);
  const settingsFile = join(project.dir, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(settingsFile, `${JSON.stringify({ ...settings, sandbox: SANDBOX }, null, 2)}\n`);

  const run = await runClaude(project, {
    prompt: 'Try things.',
    scripts: [
      {
        name: 'main',
        turns: [
          // Routes no text rule of isdlc's names: a variable and a script of the agent's own.
          call(bash('d=.isdlc; echo forged > "$d/forged.txt"')),
          call(bash('echo cmVxdWlyZSgiZnMiKS53cml0ZUZpbGVTeW5jKCIuaXNkbGMvc3RhdGUuanNvbiIsICJ7fSIp | base64 -d > "$TMPDIR/w.js" && node "$TMPDIR/w.js"')),
          call(bash('npm test')),
          call(bash('echo fine > notes.txt && cat notes.txt')),
          say('Done.'),
        ],
      },
    ],
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const [variable, script, tests, plain] = run.api.calls.map((sent) => run.api.toolResult(sent.id)!);
  expect(variable!.isError).toBe(true);
  expect(variable!.text).toMatch(/Read-only file system/);
  expect(script!.isError).toBe(true);
  expect(script!.text).toMatch(/EROFS|read-only/i);
  // isdlc's text rules let both through (they name no state file); the sandbox stopped them.
  const preBash = activity(project).filter((entry) => entry.event === 'PreToolUse' && entry.tool === 'Bash');
  expect(preBash.slice(0, 2).map((entry) => entry.decision)).toEqual(['allow', 'allow']);
  expect(existsSync(join(project.dir, '.isdlc', 'forged.txt'))).toBe(false);
  expect(readState(project)['current_phase']).toBe('06-implementation');
  expect(plain!.isError).toBe(false);
  expect(plain!.text).toContain('fine');
  // The test run happened in the sandbox; the hook outside it recorded it.
  expect(tests!.isError).toBe(true);
  const record = (readState(project)['phases'] as Record<string, any>)['06-implementation'].iteration_requirements?.test_iteration;
  expect(record).toMatchObject({ last_test_result: 'failed', current_iteration: 1 });
  expect(activity(project).filter((entry) => entry.event === 'PostToolUseFailure').length).toBe(3);
});
