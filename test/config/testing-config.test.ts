// Which command the gate runs: guessed from the project by `isdlc init` (written to testing.json, where the
// person corrects it), read back with its problems named, never silently replaced by a guess.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTesting } from '../../src/config/detect-tests.js';
import { loadTestingConfig } from '../../src/config/testing-config.js';
import { cli, initedProject, tempDir, writeFile } from '../helpers/project.js';

function projectWith(files: Record<string, string>): string {
  const dir = tempDir('isdlc-detect-');
  for (const [rel, text] of Object.entries(files)) writeFile(join(dir, rel), text);
  return dir;
}

const pkg = (scripts: Record<string, string>, devDependencies: Record<string, string> = {}) => JSON.stringify({ name: 'p', scripts, devDependencies });

describe('detecting the test command', () => {
  it.each<{ name: string; files: Record<string, string>; command: string | null; coverage?: string | undefined }>([
    {
      name: 'npm with a test script',
      files: { 'package.json': pkg({ test: 'jest' }) },
      command: 'npm test',
      coverage: 'npx jest --coverage --coverageReporters=text --coverageReporters=json-summary',
    },
    {
      name: 'the npm init placeholder is no test command',
      files: { 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }) },
      command: null,
    },
    { name: 'pnpm by its lockfile', files: { 'package.json': pkg({ test: 'vitest run' }), 'pnpm-lock.yaml': '' }, command: 'pnpm test' },
    { name: 'yarn by its lockfile', files: { 'package.json': pkg({ test: 'mocha' }), 'yarn.lock': '' }, command: 'yarn test' },
    {
      name: 'vitest with a coverage provider installed',
      files: { 'package.json': pkg({ test: 'vitest run' }, { vitest: '4', '@vitest/coverage-v8': '4' }) },
      command: 'npm test',
      coverage: 'npx vitest run --coverage --coverage.reporter=text --coverage.reporter=json-summary',
    },
    {
      name: 'vitest without one: no coverage command guessed',
      files: { 'package.json': pkg({ test: 'vitest run' }, { vitest: '4' }) },
      command: 'npm test',
      coverage: undefined,
    },
    {
      name: "node --test: Node's own coverage",
      files: { 'package.json': pkg({ test: 'node --test test/' }) },
      command: 'npm test',
      coverage: 'node --experimental-test-coverage --test test/',
    },
    {
      name: 'pytest by pyproject, with pytest-cov',
      files: { 'pyproject.toml': '[tool.pytest.ini_options]\naddopts = "-q"\n[project]\ndependencies = ["pytest-cov"]\n' },
      command: 'python -m pytest',
      coverage: 'python -m pytest --cov --cov-report=term --cov-report=xml',
    },
    { name: 'pytest by pytest.ini', files: { 'pytest.ini': '[pytest]\n' }, command: 'python -m pytest', coverage: undefined },
    { name: 'go', files: { 'go.mod': 'module x\n' }, command: 'go test ./...', coverage: 'go test -cover ./...' },
    { name: 'cargo', files: { 'Cargo.toml': '[package]\nname = "x"\n' }, command: 'cargo test' },
    { name: 'make test', files: { Makefile: 'test:\n\tpytest\n' }, command: 'make test' },
    { name: 'nothing to go on', files: { 'README.md': '# x\n' }, command: null },
  ])('$name', ({ files, command, ...rest }) => {
    const detected = detectTesting(projectWith(files));
    expect(detected.command).toBe(command);
    if ('coverage' in rest) expect(detected.coverage_command).toBe(rest.coverage);
    expect(detected.basis).not.toBe('');
  });
});

describe('testing.json', () => {
  it('init writes what it detected, says where it came from, and the loader reads it back', () => {
    const dir = tempDir('isdlc-init-testing-');
    writeFileSync(join(dir, 'package.json'), pkg({ test: 'node --test' }));
    const run = cli(['init', dir]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\.isdlc\/config\/testing\.json.*the gate's test command, from package\.json's test script \(node --test\)/);
    const written = JSON.parse(readFileSync(join(dir, '.isdlc/config/testing.json'), 'utf8'));
    expect(written).toEqual({
      $schema: './schemas/testing.json',
      command: 'npm test',
      coverage_command: 'node --experimental-test-coverage --test',
      timeout_minutes: 10,
      require_counts: true,
    });
    expect(loadTestingConfig(dir)).toMatchObject({ from: join(dir, '.isdlc/config/testing.json'), config: { command: 'npm test', timeout_minutes: 10 } });
  });

  it("a person's own testing.json is kept by a second init, and removed by uninstall only while it is as init wrote it", () => {
    const dir = initedProject('isdlc-init-testing-');
    writeFile(join(dir, '.isdlc/config/testing.json'), '{ "command": "make check" }\n');
    expect(cli(['init', dir]).status).toBe(0);
    expect(readFileSync(join(dir, '.isdlc/config/testing.json'), 'utf8')).toBe('{ "command": "make check" }\n');
    expect(loadTestingConfig(dir).config).toMatchObject({ command: 'make check', timeout_minutes: 10, require_counts: true });
    const uninstall = cli(['uninstall', dir], { env: { CLAUDECODE: '' } });
    expect(uninstall.status, uninstall.stderr).toBe(0);
    expect(existsSync(join(dir, '.isdlc/config/testing.json'))).toBe(true);
    const untouched = initedProject('isdlc-init-testing-');
    expect(cli(['uninstall', untouched], { env: { CLAUDECODE: '' } }).status).toBe(0);
    expect(existsSync(join(untouched, '.isdlc/config/testing.json'))).toBe(false);
  });

  it.each([
    { name: 'does not parse', text: '{ command: npm test', problem: 'does not parse' },
    { name: 'an empty command', text: '{ "command": "  " }', problem: 'command' },
    { name: 'no command key', text: '{ "timeout_minutes": 5 }', problem: 'command' },
    { name: 'a timeout of zero', text: '{ "command": "npm test", "timeout_minutes": 0 }', problem: 'timeout_minutes' },
  ])('a file that cannot be used is named, not replaced by a guess: $name', ({ text, problem }) => {
    const dir = projectWith({ 'package.json': pkg({ test: 'jest' }), '.isdlc/config/testing.json': text });
    const loaded = loadTestingConfig(dir);
    expect(loaded.problem).toContain(problem);
  });

  it('without the file the gate uses the guess, and says so', () => {
    const loaded = loadTestingConfig(projectWith({ 'package.json': pkg({ test: 'jest' }) }));
    expect(loaded).toMatchObject({ from: 'detected', config: { command: 'npm test', timeout_minutes: 10, require_counts: true } });
  });
});
