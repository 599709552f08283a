// Whether the gate can measure a project's coverage, and how: the command that prints a coverage figure for
// the project's test command, or, where the project lacks what it takes, why and the one step that provides
// it. `init` and `doctor` say the step to the person; the gate uses the command while testing.json names none,
// so that installing the tool is all it takes.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { firstOnPath } from '../util/program-path.js';
import {
  addDevDependency,
  fileMentions,
  hasDependency,
  installedVersion,
  packageManager,
  readPackageJson,
  testScript,
  type PackageJson,
} from './project-files.js';

export interface CoverageSetup {
  /** A command that runs the tests and prints a coverage figure isdlc reads. */
  command?: string;
  /** Why there is none, and the one step that provides one. */
  missing?: { why: string; step: string };
}

/** Runners a test script calls, in the order they are looked for; `node --test` is Node's own. */
const NODE_RUNNERS = ['vitest', 'jest', 'mocha', 'ava', 'uvu', 'tap', 'node --test', 'jasmine', 'playwright'] as const;
type NodeRunner = (typeof NODE_RUNNERS)[number];

/** Coverage tools that wrap a whole command, and the flags that make a runner measure on its own. */
const MEASURES_ALREADY = /(?:^|[\s;&|/])(?:c8|nyc)(?=\s|$)|--coverage\b|--experimental-test-coverage|--cov\b/;

export const C8_REPORTERS = '--reporter=text --reporter=json-summary';

export function nodeRunnerOf(script: string): NodeRunner | undefined {
  for (const runner of NODE_RUNNERS) {
    const words = runner.split(' ').map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    if (new RegExp(`(?:^|[\\s;&|/])${words.join('\\s+')}(?=\\s|$)`).test(script)) return runner;
  }
  return undefined;
}

/** The `test` command of the project's package manager: the detected test command of a Node project. */
function packageTest(root: string): string {
  return `${packageManager(root)} test`;
}

function nodeCoverage(root: string, pkg: PackageJson, script: string, command: string): CoverageSetup {
  const viaPackage = command === packageTest(root);
  // The test script measures already (`c8 mocha`, `jest --coverage`): running the tests is measuring them.
  if (viaPackage && MEASURES_ALREADY.test(script)) return { command };
  const runner = viaPackage ? nodeRunnerOf(script) : undefined;
  if (runner === 'jest') return { command: 'npx jest --coverage --coverageReporters=text --coverageReporters=json-summary' };
  if (runner === 'vitest' && hasDependency(pkg, /^@vitest\/coverage-/))
    return { command: 'npx vitest run --coverage --coverage.reporter=text --coverage.reporter=json-summary' };
  if (runner === 'node --test' && /^node\s/.test(script)) return { command: script.replace(/^node\s+/, 'node --experimental-test-coverage ') };
  // c8 measures whatever Node runs underneath it, whichever runner that is.
  if (hasDependency(pkg, 'c8')) return { command: `npx c8 ${C8_REPORTERS} ${command}` };
  if (runner === 'vitest') {
    const version = installedVersion(root, 'vitest');
    return {
      missing: {
        why: 'vitest measures coverage only with a coverage provider, and none is installed',
        step: addDevDependency(root, `@vitest/coverage-v8${version ? `@${version}` : ''}`),
      },
    };
  }
  return {
    missing: {
      why: `${runner ? `${runner} prints` : `\`${command}\` prints`} no coverage figure`,
      step: addDevDependency(root, 'c8'),
    },
  };
}

/** pytest-cov, named where the project lists what it installs, or installed in the project's virtualenv. */
function hasPytestCov(root: string): boolean {
  if (['pyproject.toml', 'requirements.txt', 'requirements-dev.txt', 'setup.cfg', 'tox.ini'].some((file) => fileMentions(root, file, /pytest-cov/)))
    return true;
  for (const venv of ['.venv', 'venv']) {
    try {
      for (const python of readdirSync(join(root, venv, 'lib'))) if (existsSync(join(root, venv, 'lib', python, 'site-packages', 'pytest_cov'))) return true;
    } catch {
      // no such virtualenv
    }
  }
  return false;
}

/** How the gate can measure the coverage of `command`, the project's test command. */
export function detectCoverage(root: string, command: string, path = process.env['PATH']): CoverageSetup {
  const pkg = readPackageJson(root);
  const script = testScript(pkg);
  if (pkg && script) return nodeCoverage(root, pkg, script, command);
  if (/^python3? -m pytest\b|^pytest\b/.test(command)) {
    return hasPytestCov(root)
      ? { command: `${command} --cov --cov-report=term --cov-report=xml` }
      : {
          missing: { why: 'pytest measures coverage only with the pytest-cov plugin', step: 'pip install pytest-cov (into the environment the tests run in)' },
        };
  }
  // Node's own runner measures with a flag of its own.
  if (/^node\s(?:.*\s)?--test(?:\s|$)/.test(command) && !command.includes('--experimental-test-coverage'))
    return { command: command.replace(/^node\s+/, 'node --experimental-test-coverage ') };
  if (/^go test\b/.test(command)) return { command: command.replace(/^go test\b/, 'go test -cover') };
  if (/^cargo test\b/.test(command)) {
    return firstOnPath('cargo-tarpaulin', path)
      ? { command: 'cargo tarpaulin' }
      : { missing: { why: 'cargo measures no coverage on its own', step: 'cargo install cargo-tarpaulin' } };
  }
  return {
    missing: {
      why: `isdlc does not know how \`${command}\` measures coverage`,
      step: `isdlc config set testing coverage_command "<a command that runs the tests and prints a coverage summary>"`,
    },
  };
}
