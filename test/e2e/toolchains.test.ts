// Ordinary work in other toolchains inside the sandbox `isdlc init` turns on, with the real Claude Code.
// pytest runs from the agent's shell as it is. go test and cargo test keep caches in the home folder, which
// Claude Code's sandbox keeps read-only: with the person's own settings sending them to Claude Code's temp
// folder (`env` in .claude/settings.local.json, the recipe the README gives) they run and pass. A toolchain
// missing here is skipped by name.
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { bash, call, say } from './harness/script.js';
import { e2eProject, runClaude } from './harness/session.js';
import { usesClaudeCode } from './harness/pinned.js';

usesClaudeCode();

const has = (program: string, ...args: string[]): boolean => spawnSync(program, args, { stdio: 'ignore' }).status === 0;

/** Claude Code's temp folder for this user, which its sandbox leaves writable. */
const CLAUDE_TMP = `/tmp/claude-${process.getuid?.() ?? 0}`;

const CASES: { name: string; present: boolean; files: Record<string, string>; command: string; passed: RegExp; env?: Record<string, string> }[] = [
  {
    name: 'pytest',
    present: has('python3', '-m', 'pytest', '--version'),
    files: { 'pytest.ini': '[pytest]\n', 'test_sum.py': 'def test_adds():\n    assert 1 + 2 == 3\n' },
    command: 'python3 -m pytest -q',
    passed: /1 passed/,
  },
  {
    name: 'go test',
    present: has('go', 'version'),
    files: {
      'go.mod': 'module example.com/sum\n\ngo 1.19\n',
      'sum.go': 'package sum\n\nfunc Add(a, b int) int { return a + b }\n',
      'sum_test.go': 'package sum\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("wrong")\n\t}\n}\n',
    },
    command: 'go test ./...',
    passed: /^ok\s+example\.com\/sum/m,
    env: { GOCACHE: `${CLAUDE_TMP}/go-build` },
  },
  {
    name: 'cargo test',
    present: has('cargo', '--version'),
    files: {
      'Cargo.toml': '[package]\nname = "sum"\nversion = "0.1.0"\nedition = "2021"\n',
      'src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n',
    },
    command: 'cargo test -q',
    passed: /test result: ok\. 1 passed/,
    // RUSTUP_HOME: the test's home folder is a fresh one; a person's holds their toolchains already.
    env: { CARGO_HOME: `${CLAUDE_TMP}/cargo`, RUSTUP_HOME: `${process.env['HOME'] ?? '/root'}/.rustup` },
  },
];

describe('other toolchains inside the sandbox', () => {
  for (const c of CASES) {
    test.skipIf(!c.present)(`${c.name} runs and passes from the agent's shell`, { timeout: 180_000 }, async () => {
      const project = e2eProject({
        trusted: true,
        files: { ...c.files, ...(c.env ? { '.claude/settings.local.json': JSON.stringify({ env: c.env }, null, 2) } : {}) },
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
