// Which command runs a project's tests, and which one also measures coverage, guessed from the files that
// set the project up. `isdlc init` writes the guess into `.isdlc/config/testing.json`, where the person can
// correct it; the gate uses the guess only while that file is missing.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTextIfPresent } from '../util/read-text.js';

export interface DetectedTesting {
  /** null: nothing here says how the tests run. */
  command: string | null;
  coverage_command?: string;
  /** What the guess rests on, for the person. */
  basis: string;
}

/** What `npm init` writes as the test script: it fails on purpose, so it is no test command. */
const NPM_PLACEHOLDER = /no test specified/;

interface PackageJson {
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
  jest?: unknown;
}

function readPackageJson(root: string): PackageJson | undefined {
  try {
    const text = readTextIfPresent(join(root, 'package.json'));
    const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The package manager the lockfile names: its `test` is what a person of this project types. */
function packageManager(root: string): string {
  if (existsSync(join(root, 'pnpm-lock.yaml'))) return 'pnpm';
  if (existsSync(join(root, 'yarn.lock'))) return 'yarn';
  if (existsSync(join(root, 'bun.lockb')) || existsSync(join(root, 'bun.lock'))) return 'bun run';
  return 'npm';
}

function hasDependency(pkg: PackageJson, name: string | RegExp): boolean {
  const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})];
  return names.some((dep) => (typeof name === 'string' ? dep === name : name.test(dep)));
}

/** A coverage command for a Node project whose test script calls one runner we know. */
function nodeCoverage(pkg: PackageJson, script: string): string | undefined {
  const runner = /(?:^|[\s;&|])(vitest|jest|mocha|node --test)(?=\s|$)/.exec(script)?.[1];
  if (runner === 'vitest' && hasDependency(pkg, /^@vitest\/coverage-/))
    return `npx vitest run --coverage --coverage.reporter=text --coverage.reporter=json-summary`;
  if (runner === 'jest') return 'npx jest --coverage --coverageReporters=text --coverageReporters=json-summary';
  if (runner === 'node --test' && /^node\s/.test(script.trim())) return script.trim().replace(/^node\s+/, 'node --experimental-test-coverage ');
  if (hasDependency(pkg, 'c8')) return `npx c8 --reporter=text --reporter=json-summary ${script}`;
  return undefined;
}

function fileMentions(root: string, file: string, pattern: RegExp): boolean {
  try {
    return pattern.test(readFileSync(join(root, file), 'utf8'));
  } catch {
    return false;
  }
}

function pythonTests(root: string): DetectedTesting | undefined {
  const configured =
    existsSync(join(root, 'pytest.ini')) ||
    existsSync(join(root, 'conftest.py')) ||
    fileMentions(root, 'pyproject.toml', /^\[tool\.pytest/m) ||
    fileMentions(root, 'setup.cfg', /^\[tool:pytest\]/m) ||
    fileMentions(root, 'tox.ini', /^\[pytest\]/m);
  if (!configured) return undefined;
  const cov = ['pyproject.toml', 'requirements.txt', 'requirements-dev.txt', 'setup.cfg'].some((file) => fileMentions(root, file, /pytest-cov/));
  return {
    command: 'python -m pytest',
    ...(cov ? { coverage_command: 'python -m pytest --cov --cov-report=term --cov-report=xml' } : {}),
    basis: 'pytest is configured',
  };
}

export function detectTesting(root: string): DetectedTesting {
  const pkg = readPackageJson(root);
  const script = pkg?.scripts?.['test'];
  if (pkg && typeof script === 'string' && script.trim() && !NPM_PLACEHOLDER.test(script)) {
    const coverage = nodeCoverage(pkg, script);
    return {
      command: `${packageManager(root)} test`,
      ...(coverage ? { coverage_command: coverage } : {}),
      basis: `package.json's test script (${script.trim().slice(0, 80)})`,
    };
  }
  const python = pythonTests(root);
  if (python) return python;
  if (existsSync(join(root, 'go.mod'))) return { command: 'go test ./...', coverage_command: 'go test -cover ./...', basis: 'go.mod' };
  if (existsSync(join(root, 'Cargo.toml'))) return { command: 'cargo test', basis: 'Cargo.toml' };
  if (fileMentions(root, 'Makefile', /^test:/m)) return { command: 'make test', basis: "the Makefile's test target" };
  return { command: null, basis: 'nothing here says how the tests run (no test script, pytest config, go.mod, Cargo.toml or make test)' };
}
