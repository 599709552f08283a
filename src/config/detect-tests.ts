// Which command runs a project's tests, and which one also measures coverage (detect-coverage.ts), guessed
// from the files that set the project up. `isdlc init` writes the guess into `.isdlc/config/testing.json`, where the person can
// correct it; the gate uses the guess only while that file is missing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { detectCoverage } from './detect-coverage.js';
import { fileMentions, packageManager, readPackageJson, testScript } from './project-files.js';

export interface DetectedTesting {
  /** null: nothing here says how the tests run. */
  command: string | null;
  coverage_command?: string;
  /** What the guess rests on, for the person. */
  basis: string;
}

function pythonTests(root: string): DetectedTesting | undefined {
  const configured =
    existsSync(join(root, 'pytest.ini')) ||
    existsSync(join(root, 'conftest.py')) ||
    fileMentions(root, 'pyproject.toml', /^\[tool\.pytest/m) ||
    fileMentions(root, 'setup.cfg', /^\[tool:pytest\]/m) ||
    fileMentions(root, 'tox.ini', /^\[pytest\]/m);
  if (!configured) return undefined;
  return { command: 'python -m pytest', basis: 'pytest is configured' };
}

/** The test command alone: what `init` writes as `command`, and what the gate falls back on without testing.json. */
function detectTestCommand(root: string): DetectedTesting {
  const script = testScript(readPackageJson(root));
  if (script) return { command: `${packageManager(root)} test`, basis: `package.json's test script (${script.slice(0, 80)})` };
  const python = pythonTests(root);
  if (python) return python;
  if (existsSync(join(root, 'go.mod'))) return { command: 'go test ./...', basis: 'go.mod' };
  if (existsSync(join(root, 'Cargo.toml'))) return { command: 'cargo test', basis: 'Cargo.toml' };
  if (fileMentions(root, 'Makefile', /^test:/m)) return { command: 'make test', basis: "the Makefile's test target" };
  return { command: null, basis: 'nothing here says how the tests run (no test script, pytest config, go.mod, Cargo.toml or make test)' };
}

export function detectTesting(root: string, path = process.env['PATH']): DetectedTesting {
  const detected = detectTestCommand(root);
  if (detected.command === null) return detected;
  const coverage = detectCoverage(root, detected.command, path);
  return coverage.command ? { ...detected, coverage_command: coverage.command } : detected;
}
