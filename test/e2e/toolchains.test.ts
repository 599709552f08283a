// Ordinary work in other toolchains inside the sandbox `isdlc init` turns on, with the real Claude Code.
// pytest runs from the agent's shell as it is. go test and cargo test keep caches in the home folder, which
// Claude Code's sandbox keeps read-only: with the person's own settings sending them to Claude Code's temp
// folder (`env` in .claude/settings.local.json, the recipe the README gives) they run and pass. A toolchain
// missing here is skipped by name.
import { toolchainProject, type ToolchainProject } from '../helpers/toolchain-projects.js';
import { describe, expect, test } from 'vitest';
import { bash, call, say } from './harness/script.js';
import { e2eProject, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

/** Claude Code's temp folder for this user, which its sandbox leaves writable. */
const CLAUDE_TMP = `/tmp/claude-${process.getuid?.() ?? 0}`;

const CASES: { project: ToolchainProject; command: string; passed: RegExp; env?: Record<string, string> }[] = [
  { project: toolchainProject('pytest'), command: 'python3 -m pytest -q', passed: /1 passed/ },
  { project: toolchainProject('go'), command: 'go test ./...', passed: /^ok\s+example\.com\/sum/m, env: { GOCACHE: `${CLAUDE_TMP}/go-build` } },
  {
    project: toolchainProject('cargo'),
    command: 'cargo test -q',
    passed: /test result: ok\. 1 passed/,
    // RUSTUP_HOME: the test's home folder is a fresh one; a person's holds their toolchains already.
    env: { CARGO_HOME: `${CLAUDE_TMP}/cargo`, RUSTUP_HOME: `${process.env['HOME'] ?? '/root'}/.rustup` },
  },
];

describe('other toolchains inside the sandbox', () => {
  for (const c of CASES) {
    test.skipIf(!c.project.present)(`${c.command} runs and passes from the agent's shell`, { timeout: 180_000 }, async () => {
      const project = e2eProject({
        trusted: true,
        files: { ...c.project.files, ...(c.env ? { '.claude/settings.local.json': JSON.stringify({ env: c.env }, null, 2) } : {}) },
      });
      const run = await runClaude(project, {
        prompt: 'Run the tests.',
        timeoutMs: 150_000,
        scripts: [{ name: 'main', turns: [call(bash(`${c.command} 2>&1; echo "exit=$?"`)), say('Done.')] }],
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const result = run.api.toolResult(run.api.toolUseIds('Bash')[0]!)!;
      expect(result.text, result.text).toMatch(c.passed);
      expect(result.text).toContain('exit=0');
    });
  }
});
