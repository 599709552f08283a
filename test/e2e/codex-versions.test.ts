// Both pinned Codex versions are fetched by the suite, say their version the way `codex --version`
// prints it, and run a session the harness drives (hooks included), so version scenarios can build on them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ensureCodex } from './harness/codex-install.js';
import { call, shell, say } from './harness/codex-script.js';
import { codexProject, jsonLines, runCodex, usesCodex, writeHooks } from './harness/codex-session.js';
import { CODEX_PINNED } from './harness/codex-versions.js';

usesCodex(...CODEX_PINNED);

describe.each(CODEX_PINNED)('Codex %s', (version) => {
  test('prints `codex-cli <version>` and nothing else for --version', () => {
    const run = spawnSync(ensureCodex(version).command, ['--version'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`codex-cli ${version}\n`);
  });

  test('runs a scripted session with a project hook', async () => {
    const project = codexProject({ version });
    const calls = join(project.dir, '..', 'calls.jsonl');
    writeHooks(project, { PreToolUse: [{ command: `{ cat; echo; } >> '${calls}'` }] });
    const run = await runCodex(project, { turns: [call(shell('echo from-the-shell')), say('Done.')] });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.api.output(run.api.callIds('exec_command')[0]!)).toContain('from-the-shell');
    expect(jsonLines(calls).map((payload) => payload['tool_input'])).toEqual([{ command: 'echo from-the-shell' }]);
  });
});
