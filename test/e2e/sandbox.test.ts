// Claude Code's own sandbox (bubblewrap on Linux) around the agent's shell, with isdlc's folder denied
// to it, as `isdlc init` sets it up: the agent's commands cannot write isdlc's files, while isdlc's hooks
// and MCP server, which Claude Code runs outside the sandbox, go on recording.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { workflowState } from '../helpers/states.js';
import { FIXTURES } from '../helpers/project.js';
import { bash, call, say } from './harness/script.js';
import { activity, e2eProject, readState, runClaude, asPersonWrote } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

test('inside the sandbox the agent cannot write .isdlc; tests still run and are recorded by the hooks', async () => {
  const project = e2eProject({
    files: {
      'package.json': JSON.stringify({ name: 'boxed', version: '1.0.0', scripts: { test: 'node --test' } }),
      'test/one.test.js': "require('node:test')('one', () => { throw new Error('expected 1 to be 2'); });\n",
      'docs/isdlc/tasks.md': readFileSync(join(FIXTURES, 'plans', 'valid-v2.md'), 'utf8'),
    },
  });
  writeFileSync(join(project.dir, '.isdlc', 'state.json'), `${JSON.stringify(workflowState('feature', '06-implementation'), null, 2)}\n`);
  asPersonWrote(project);

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
  // Claude Code refuses it itself (it reads the write target through the variable and the deny rule
  // covers it), or the sandbox does.
  expect(variable!.isError).toBe(true);
  expect(variable!.text).toMatch(/Read-only file system|has been denied/);
  expect(script!.isError).toBe(true);
  expect(script!.text).toMatch(/EROFS|read-only/i);
  // isdlc's text rules let the script through (it names no state file); the sandbox stopped it.
  const preBash = activity(project).filter((entry) => entry.event === 'PreToolUse' && entry.tool === 'Bash');
  expect(preBash.map((entry) => entry.decision)).not.toContain('deny');
  expect(existsSync(join(project.dir, '.isdlc', 'forged.txt'))).toBe(false);
  expect(readState(project)['current_phase']).toBe('06-implementation');
  expect(plain!.isError).toBe(false);
  expect(plain!.text).toContain('fine');
  // The test run happened in the sandbox; the hook outside it recorded it.
  expect(tests!.isError).toBe(true);
  const record = (readState(project)['phases'] as Record<string, any>)['06-implementation'].iteration_requirements?.test_iteration;
  expect(record).toMatchObject({ last_test_result: 'failed', current_iteration: 1 });
  // A call Claude Code's permissions refuse never runs, so only the ones that ran and failed are reported.
  const failures = activity(project).filter((entry) => entry.event === 'PostToolUseFailure').length;
  expect(failures).toBe(
    run.api.calls.filter((sent) => run.api.toolResult(sent.id)!.isError && !/has been denied/.test(run.api.toolResult(sent.id)!.text)).length,
  );
});
