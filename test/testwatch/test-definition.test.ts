// What defines a test command, found in real project folders: the package.json scripts it reaches, the
// runners' config files (present or not yet), the script files it runs; and which later edits count as a
// change to it and which (a version bump, a new dependency) do not.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definitionChanges, definitionParts, describeChange, testDefinition } from '../../src/testwatch/test-definition.js';
import { testCommandOf } from '../../src/testwatch/test-command-config.js';
import { compareTestDefinition, recordTestDefinition } from '../../src/verify/test-definition.js';
import { tempDir } from '../helpers/project.js';

function project(files: Record<string, string | object>): string {
  const dir = tempDir('isdlc-testdef-');
  for (const [rel, content] of Object.entries(files)) put(dir, rel, content);
  return dir;
}

function put(dir: string, rel: string, content: string | object): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
}

const pkg = (scripts: Record<string, string>, extra: object = {}) => ({ name: 'app', version: '1.0.0', scripts, ...extra });
/** The parts that exist, and those watched while absent. */
function split(dir: string, command: string, explicit?: string[]) {
  const { files } = testDefinition(dir, command, explicit);
  return { present: Object.keys(files).filter((part) => files[part] !== null), absent: Object.keys(files).filter((part) => files[part] === null) };
}

describe('which parts define the command', () => {
  it.each<[string, Record<string, string | object>, string, string[], string[]]>([
    [
      'npm test: the test script, its hooks, .npmrc',
      { 'package.json': pkg({ test: 'node --test' }) },
      'npm test',
      ['package.json#scripts.test'],
      ['package.json#scripts.pretest', 'package.json#scripts.posttest', '.npmrc'],
    ],
    [
      'a chain of scripts through npm run, with a pre hook that exists',
      {
        'package.json': pkg({ test: 'npm run lint && npm run unit', lint: 'eslint .', unit: 'vitest run', preunit: 'node scripts/seed.mjs' }),
        'scripts/seed.mjs': 'seed()',
      },
      'npm test',
      ['package.json#scripts.test', 'package.json#scripts.lint', 'package.json#scripts.unit', 'package.json#scripts.preunit', 'scripts/seed.mjs'],
      ['package.json#scripts.postunit', 'vitest.config.ts', 'vite.config.ts'],
    ],
    [
      'yarn and pnpm run a script by its bare name',
      { 'package.json': pkg({ test: 'pnpm unit', unit: 'jest' }), 'jest.config.js': 'module.exports = {}' },
      'yarn test',
      ['package.json#scripts.test', 'package.json#scripts.unit', 'jest.config.js'],
      ['package.json#jest', 'jest.config.ts', '.yarnrc.yml'],
    ],
    [
      'run-s with a glob',
      { 'package.json': pkg({ test: 'run-s test:*', 'test:unit': 'mocha', 'test:e2e': 'node e2e.js', other: 'x' }), 'e2e.js': '' },
      'npm test',
      ['package.json#scripts.test', 'package.json#scripts.test:unit', 'package.json#scripts.test:e2e', 'e2e.js'],
      ['.mocharc.yml', 'package.json#mocha'],
    ],
    [
      'npx and cross-env in front of the runner',
      { 'package.json': pkg({ test: 'cross-env CI=1 npx vitest run' }), 'vite.config.mjs': 'export default {}' },
      'npm test',
      ['package.json#scripts.test', 'vite.config.mjs'],
      ['vitest.config.ts'],
    ],
    [
      'pytest: its ini files and the pytest sections of the shared ones',
      { 'pyproject.toml': '[project]\nname = "app"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' },
      'python -m pytest -q',
      ['pyproject.toml#[tool.pytest*]'],
      ['pytest.ini', 'setup.cfg#[tool:pytest]', 'tox.ini#[pytest]', 'conftest.py'],
    ],
    ['a script file run directly', { 'run-tests.sh': '#!/bin/sh\nnode --test\n' }, './run-tests.sh --fast', ['run-tests.sh'], []],
    ['node running a script file', { 'scripts/test.mjs': 'run()' }, 'node scripts/test.mjs', ['scripts/test.mjs'], []],
    ['make: the makefile', { Makefile: 'test:\n\tgo test ./...\n' }, 'make test', ['Makefile'], ['makefile', 'GNUmakefile']],
    [
      'cargo and go',
      { 'Cargo.toml': '[package]\nname = "a"\n', 'go.mod': 'module a\n' },
      'cargo test && go test ./...',
      ['Cargo.toml#without-dependencies', 'go.mod#without-require'],
      ['.config/nextest.toml'],
    ],
  ])('%s', (_name, files, command, present, absent) => {
    const found = split(project(files), command);
    expect(found.present.sort()).toEqual([...present].sort());
    for (const part of absent) expect(found.absent).toContain(part);
  });

  it('a script calling itself, or scripts calling each other, ends', () => {
    const dir = project({ 'package.json': pkg({ test: 'npm run a', a: 'npm run b', b: 'npm run a && npm test' }) });
    expect(definitionParts(dir, 'npm test').filter((part) => part.includes('#scripts.') && !/#scripts\.(pre|post)/.test(part))).toEqual([
      'package.json#scripts.a',
      'package.json#scripts.b',
      'package.json#scripts.test',
    ]);
  });

  it('files outside the project, in node_modules, or named by a variable are not read', () => {
    const dir = project({ 'node_modules/.bin/vitest': 'x', 'ok.sh': '' });
    expect(definitionParts(dir, './node_modules/.bin/vitest run && sh ../elsewhere.sh && sh $HOME/x.sh && sh /etc/passwd && sh ok.sh')).toEqual(
      expect.not.arrayContaining(['node_modules/.bin/vitest', '../elsewhere.sh', '/etc/passwd']),
    );
    expect(definitionParts(dir, 'sh ok.sh')).toEqual(['ok.sh']);
  });

  it('an explicit list replaces the search, whole files only', () => {
    const dir = project({ 'package.json': pkg({ test: 'vitest' }), 'ci/test.cfg': 'a' });
    expect(split(dir, 'npm test', ['ci/test.cfg', 'missing.cfg', '../outside'])).toEqual({ present: ['ci/test.cfg'], absent: ['missing.cfg'] });
  });
});

describe('what counts as a change', () => {
  const changes = (dir: string, command: string, edit: () => void) => {
    const before = testDefinition(dir, command);
    edit();
    const after = testDefinition(dir, command);
    return { same: before.digest === after.digest, said: definitionChanges(before.files, after.files).map(describeChange) };
  };

  it.each<[string, Record<string, string | object>, string, (dir: string) => void, string[]]>([
    [
      'the test script replaced by `exit 0`',
      { 'package.json': pkg({ test: 'vitest run' }) },
      'npm test',
      (dir) => put(dir, 'package.json', pkg({ test: 'exit 0' })),
      ['package.json scripts.test changed'],
    ],
    [
      'a pretest hook added',
      { 'package.json': pkg({ test: 'node --test' }) },
      'npm test',
      (dir) => put(dir, 'package.json', pkg({ test: 'node --test', pretest: 'rm -rf test' })),
      ['package.json scripts.pretest appeared'],
    ],
    [
      'a script the test calls, changed',
      { 'package.json': pkg({ test: 'npm run unit', unit: 'jest' }) },
      'npm test',
      (dir) => put(dir, 'package.json', pkg({ test: 'npm run unit', unit: 'jest --passWithNoTests' })),
      ['package.json scripts.unit changed'],
    ],
    [
      'a vitest config that appears later',
      { 'package.json': pkg({ test: 'vitest run' }) },
      'npm test',
      (dir) => put(dir, 'vitest.config.ts', 'export default { test: { include: [] } }'),
      ['vitest.config.ts appeared'],
    ],
    [
      'the jest key of package.json',
      { 'package.json': pkg({ test: 'jest' }) },
      'npm test',
      (dir) => put(dir, 'package.json', pkg({ test: 'jest' }, { jest: { testMatch: [] } })),
      ['package.json jest appeared'],
    ],
    [
      '.npmrc that makes every script pass',
      { 'package.json': pkg({ test: 'vitest' }) },
      'npm test',
      (dir) => put(dir, '.npmrc', 'script-shell=true\n'),
      ['.npmrc appeared'],
    ],
    [
      'pytest settings in pyproject.toml',
      { 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-q"\n' },
      'pytest',
      (dir) => put(dir, 'pyproject.toml', '[tool.pytest.ini_options]\naddopts = "-q --co"\n'),
      ['pyproject.toml [tool.pytest*] changed'],
    ],
    ['a conftest.py that appears', { 'pytest.ini': '[pytest]\n' }, 'pytest', (dir) => put(dir, 'conftest.py', 'import pytest\n'), ['conftest.py appeared']],
    [
      'the script file run directly',
      { 'run-tests.sh': 'node --test\n' },
      './run-tests.sh',
      (dir) => put(dir, 'run-tests.sh', 'exit 0\n'),
      ['run-tests.sh changed'],
    ],
    [
      'a test script that now calls another script',
      { 'package.json': pkg({ test: 'node --test', extra: 'echo hi' }) },
      'npm test',
      (dir) => put(dir, 'package.json', pkg({ test: 'npm run extra', extra: 'echo hi' })),
      ['package.json scripts.extra is now part of the test command', 'package.json scripts.test changed'],
    ],
    [
      'the config removed',
      { 'package.json': pkg({ test: 'jest' }), 'jest.config.js': 'module.exports = {}' },
      'npm test',
      (dir) => rmSync(join(dir, 'jest.config.js')),
      ['jest.config.js was removed'],
    ],
  ])('%s is a change', (_name, files, command, edit, said) => {
    const dir = project(files);
    const seen = changes(dir, command, () => edit(dir));
    expect(seen.same).toBe(false);
    expect(seen.said).toEqual(said);
  });

  it.each<[string, Record<string, string | object>, string, (dir: string) => void]>([
    [
      'a version bump in package.json',
      { 'package.json': pkg({ test: 'vitest run' }) },
      'npm test',
      (dir) => put(dir, 'package.json', { ...pkg({ test: 'vitest run' }), version: '1.0.1' }),
    ],
    [
      'a new dependency and an unrelated script',
      { 'package.json': pkg({ test: 'vitest run' }) },
      'npm test',
      (dir) => put(dir, 'package.json', pkg({ test: 'vitest run', build: 'tsc' }, { dependencies: { zod: '^4' } })),
    ],
    [
      'the key order of package.json',
      { 'package.json': pkg({ test: 'vitest run', build: 'tsc' }) },
      'npm test',
      (dir) => put(dir, 'package.json', { scripts: { build: 'tsc', test: 'vitest run' }, version: '1.0.0', name: 'app' }),
    ],
    [
      'pyproject.toml outside its pytest sections',
      { 'pyproject.toml': '[project]\nversion = "1"\n[tool.pytest.ini_options]\naddopts = "-q"\n' },
      'pytest',
      (dir) => put(dir, 'pyproject.toml', '[project]\nversion = "2"\ndependencies = ["x"]\n[tool.pytest.ini_options]\naddopts = "-q"\n'),
    ],
    [
      'a Cargo.toml dependency and version',
      { 'Cargo.toml': '[package]\nname = "a"\nversion = "0.1.0"\n\n[dependencies]\n' },
      'cargo test',
      (dir) => put(dir, 'Cargo.toml', '[package]\nname = "a"\nversion = "0.2.0"\n\n[dependencies]\nserde = "1"\n[target.x.dev-dependencies]\ny = "1"\n'),
    ],
    [
      'a go.mod require',
      { 'go.mod': 'module a\n\ngo 1.22\n' },
      'go test ./...',
      (dir) => put(dir, 'go.mod', 'module a\n\ngo 1.22\n\nrequire (\n\tgithub.com/x/y v1.0.0\n)\n'),
    ],
    ['a source or test file', { 'package.json': pkg({ test: 'vitest run' }), 'src/a.ts': 'x' }, 'npm test', (dir) => put(dir, 'src/a.ts', 'y')],
  ])('%s is not a change', (_name, files, command, edit) => {
    const dir = project(files);
    expect(changes(dir, command, () => edit(dir))).toEqual({ same: true, said: [] });
  });

  it('the command itself is part of the digest', () => {
    const dir = project({ 'package.json': pkg({ test: 'vitest' }) });
    expect(testDefinition(dir, 'npm test').digest).not.toBe(testDefinition(dir, 'npm test -- --passWithNoTests').digest);
  });
});

describe('the test command, until the testing config has its own loader', () => {
  it.each<[string, Record<string, string | object>, ReturnType<typeof testCommandOf>]>([
    [
      'testing.json names it',
      { '.isdlc/config/testing.json': { command: 'pytest -q', timeout_minutes: 10, definition_files: ['pytest.ini'] }, 'package.json': pkg({ test: 'x' }) },
      { command: 'pytest -q', definitionFiles: ['pytest.ini'] },
    ],
    ['package.json has a test script', { 'package.json': pkg({ test: 'vitest' }) }, { command: 'npm test' }],
    ['neither', { 'package.json': pkg({ build: 'tsc' }) }, null],
    ['testing.json does not parse', { '.isdlc/config/testing.json': '{ nope', 'package.json': pkg({ test: 'x' }) }, { command: 'npm test' }],
  ])('%s', (_name, files, expected) => {
    expect(testCommandOf({ root: project(files) })).toEqual(expected);
  });
});

describe("Stryker's config file defines the tests too (it chooses what is mutated and which tests judge the mutants)", () => {
  const state = (recorded: unknown) => ({ active_workflow: { test_definition: recorded } });
  it.each<[string, Record<string, string | object>, (dir: string) => void, string | null]>([
    [
      'a stryker.conf.mjs that appears in a Node project',
      { 'package.json': pkg({ test: 'mocha' }) },
      (dir) => put(dir, 'stryker.conf.mjs', 'export default { mutate: [] }'),
      'stryker.conf.mjs appeared',
    ],
    [
      'one changed where testing.json names a Stryker command',
      {
        'package.json': pkg({ test: 'mocha' }),
        'stryker.config.json': { mutate: ['src/**'] },
        '.isdlc/config/testing.json': { command: 'npm test', mutation_command: 'npx stryker run' },
      },
      (dir) => put(dir, 'stryker.config.json', { mutate: [] }),
      'stryker.config.json changed',
    ],
    [
      'not watched in a project that is not a Node one',
      { 'pytest.ini': '[pytest]\n', '.isdlc/config/testing.json': { command: 'pytest' } },
      (dir) => put(dir, 'stryker.conf.js', 'module.exports = {}'),
      null,
    ],
  ])('%s', (_name, files, edit, said) => {
    const dir = project(files);
    const recorded = recordTestDefinition(dir, new Date())!;
    edit(dir);
    const comparison = compareTestDefinition(dir, state(recorded))!;
    expect(comparison.changes).toEqual(said === null ? [] : [said]);
  });
});
