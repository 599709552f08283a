// One tiny project per toolchain isdlc detects, with one test, made to pass or to fail: for the gate's own
// run and for the agent's shell inside Claude Code's sandbox alike. `present` says whether this machine
// has the toolchain (a test skips by name where it does not).
import { spawnSync } from 'node:child_process';

const has = (program: string, ...args: string[]): boolean => spawnSync(program, args, { stdio: 'ignore' }).status === 0;

export type ToolchainName = 'npm' | 'pytest' | 'go' | 'cargo';

export interface ToolchainProject {
  name: ToolchainName;
  present: boolean;
  /** The project whose one test passes. */
  files: Record<string, string>;
  /** What to write over it so that the test fails. */
  failing: Record<string, string>;
}

const nodeTest = (sum: number) =>
  `const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 2, ${sum}));\n`;
const goTest = (sum: number) => `package sum\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n\tif Add(1, 2) != ${sum} {\n\t\tt.Fatal("wrong")\n\t}\n}\n`;
const rustLib = (sum: number) =>
  `pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), ${sum}); }\n}\n`;

export const TOOLCHAIN_PROJECTS: readonly ToolchainProject[] = [
  {
    name: 'npm',
    present: true,
    files: {
      'package.json': JSON.stringify({ name: 'sum', version: '1.0.0', private: true, scripts: { test: 'node --test' } }),
      'test/sum.test.js': nodeTest(3),
    },
    failing: { 'test/sum.test.js': nodeTest(4) },
  },
  {
    name: 'pytest',
    present: has('python3', '-m', 'pytest', '--version'),
    files: { 'pytest.ini': '[pytest]\n', 'test_sum.py': 'def test_adds():\n    assert 1 + 2 == 3\n' },
    failing: { 'test_sum.py': 'def test_adds():\n    assert 1 + 2 == 4\n' },
  },
  {
    name: 'go',
    present: has('go', 'version'),
    files: { 'go.mod': 'module example.com/sum\n\ngo 1.19\n', 'sum.go': 'package sum\n\nfunc Add(a, b int) int { return a + b }\n', 'sum_test.go': goTest(3) },
    failing: { 'sum_test.go': goTest(4) },
  },
  {
    name: 'cargo',
    present: has('cargo', '--version'),
    files: { 'Cargo.toml': '[package]\nname = "sum"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': rustLib(3) },
    failing: { 'src/lib.rs': rustLib(4) },
  },
];

export function toolchainProject(name: ToolchainName): ToolchainProject {
  return TOOLCHAIN_PROJECTS.find((project) => project.name === name)!;
}
