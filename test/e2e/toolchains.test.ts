// Ordinary work in other toolchains inside the sandbox `isdlc init` turns on, with the real Claude Code,
// in the project as init leaves it. pytest runs from the agent's shell as it is. go test and cargo test
// keep caches in the home folder, which Claude Code's sandbox keeps read-only: init's SessionStart hook
// sends them to Claude Code's temp folder (src/hosts/claude-code/sandbox-caches.ts), and they run and
// pass with nothing set by the person. A toolchain missing here is skipped by name.
import { toolchainProject, type ToolchainProject } from '../helpers/toolchain-projects.js';
import { describe, expect, test } from 'vitest';
import { bash, call, say } from './harness/script.js';
import { e2eProject, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

const CASES: { project: ToolchainProject; command: string; passed: RegExp; env?: Record<string, string> }[] = [
  { project: toolchainProject('pytest'), command: 'python3 -m pytest -q', passed: /1 passed/ },
  { project: toolchainProject('go'), command: 'go test ./...', passed: /^ok\s+example\.com\/sum/m },
  {
    project: toolchainProject('cargo'),
    command: 'cargo test -q',
    passed: /test result: ok\. 1 passed/,
    // The test's home folder is a fresh one; a person's holds their toolchains already.
    env: { RUSTUP_HOME: `${process.env['HOME'] ?? '/root'}/.rustup` },
  },
];

describe('other toolchains inside the sandbox', () => {
  for (const c of CASES) {
    test.skipIf(!c.project.present)(`${c.command} runs and passes from the agent's shell`, { timeout: 180_000 }, async () => {
      const project = e2eProject({ trusted: true, files: c.project.files });
      const run = await runClaude(project, {
        prompt: 'Run the tests.',
        timeoutMs: 150_000,
        ...(c.env ? { env: c.env } : {}),
        scripts: [{ name: 'main', turns: [call(bash(`${c.command} 2>&1; echo "exit=$?"`)), say('Done.')] }],
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const result = run.api.toolResult(run.api.toolUseIds('Bash')[0]!)!;
      expect(result.text, result.text).toMatch(c.passed);
      expect(result.text).toContain('exit=0');
    });
  }
});
