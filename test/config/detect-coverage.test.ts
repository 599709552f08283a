// How the gate can measure a project's coverage, or why it cannot and the one step that provides it: a
// table of projects as their files are, each with what init, doctor and the gate then say.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectCoverage } from '../../src/config/detect-coverage.js';
import { tempDir, writeFile } from '../helpers/project.js';

const pkg = (test: string, devDependencies: Record<string, string> = {}) => JSON.stringify({ name: 'p', scripts: { test }, devDependencies });

/** A folder holding an executable `cargo-tarpaulin`, to stand for one installed. */
function pathWithTarpaulin(): string {
  const bin = tempDir('isdlc-bin-');
  writeFile(join(bin, 'cargo-tarpaulin'), '#!/bin/sh\n');
  chmodSync(join(bin, 'cargo-tarpaulin'), 0o755);
  return bin;
}

describe('detecting how coverage is measured', () => {
  it.each<{ name: string; files: Record<string, string>; command: string; path?: () => string; measures?: string; step?: string }>([
    { name: 'mocha alone', files: { 'package.json': pkg('mocha') }, command: 'npm test', step: 'npm install --save-dev c8' },
    { name: 'mocha with yarn', files: { 'package.json': pkg('mocha'), 'yarn.lock': '' }, command: 'yarn test', step: 'yarn add -D c8' },
    { name: 'mocha with pnpm', files: { 'package.json': pkg('mocha'), 'pnpm-lock.yaml': '' }, command: 'pnpm test', step: 'pnpm add -D c8' },
    {
      name: 'mocha with c8 installed',
      files: { 'package.json': pkg('mocha', { c8: '^10' }) },
      command: 'npm test',
      measures: 'npx c8 --reporter=text --reporter=json-summary npm test',
    },
    { name: 'a test script that measures already', files: { 'package.json': pkg('c8 mocha') }, command: 'npm test', measures: 'npm test' },
    { name: 'ava', files: { 'package.json': pkg('ava') }, command: 'npm test', step: 'npm install --save-dev c8' },
    {
      name: 'jest (its coverage is built in)',
      files: { 'package.json': pkg('jest --ci') },
      command: 'npm test',
      measures: 'npx jest --coverage --coverageReporters=text --coverageReporters=json-summary',
    },
    {
      name: 'vitest without a coverage provider: the one matching the installed vitest',
      files: { 'package.json': pkg('vitest run'), 'node_modules/vitest/package.json': '{"version":"3.2.4"}' },
      command: 'npm test',
      step: 'npm install --save-dev @vitest/coverage-v8@3.2.4',
    },
    {
      name: 'vitest with its provider',
      files: { 'package.json': pkg('vitest run', { '@vitest/coverage-v8': '^3' }) },
      command: 'npm test',
      measures: 'npx vitest run --coverage --coverage.reporter=text --coverage.reporter=json-summary',
    },
    { name: "node's own runner", files: { 'package.json': pkg('node --test') }, command: 'npm test', measures: 'node --experimental-test-coverage --test' },
    { name: 'node --test named in testing.json', files: {}, command: 'node --test test/', measures: 'node --experimental-test-coverage --test test/' },
    {
      name: 'a command other than the package test: c8 wraps it where installed',
      files: { 'package.json': pkg('jest', { c8: '^10' }) },
      command: 'npm run test:unit',
      measures: 'npx c8 --reporter=text --reporter=json-summary npm run test:unit',
    },
    {
      name: 'pytest without pytest-cov',
      files: { 'pytest.ini': '[pytest]\n' },
      command: 'python -m pytest',
      step: 'pip install pytest-cov (into the environment the tests run in)',
    },
    {
      name: 'pytest with pytest-cov in the requirements',
      files: { 'pytest.ini': '[pytest]\n', 'requirements-dev.txt': 'pytest\npytest-cov\n' },
      command: 'python -m pytest',
      measures: 'python -m pytest --cov --cov-report=term --cov-report=xml',
    },
    {
      name: 'pytest with pytest-cov in the virtualenv',
      files: { 'pytest.ini': '[pytest]\n', '.venv/lib/python3.11/site-packages/pytest_cov/__init__.py': '' },
      command: 'python -m pytest',
      measures: 'python -m pytest --cov --cov-report=term --cov-report=xml',
    },
    { name: 'go', files: { 'go.mod': 'module x\n' }, command: 'go test ./...', measures: 'go test -cover ./...' },
    { name: 'cargo without tarpaulin', files: { 'Cargo.toml': '' }, command: 'cargo test', path: () => '/nonexistent', step: 'cargo install cargo-tarpaulin' },
    { name: 'cargo with tarpaulin', files: { 'Cargo.toml': '' }, command: 'cargo test', path: pathWithTarpaulin, measures: 'cargo tarpaulin' },
    {
      name: 'make test: a person names the command',
      files: { Makefile: 'test:\n\ttrue\n' },
      command: 'make test',
      step: 'isdlc config set testing coverage_command "<a command that runs the tests and prints a coverage summary>"',
    },
  ])('$name', ({ files, command, path, measures, step }) => {
    const dir = tempDir('isdlc-coverage-');
    mkdirSync(dir, { recursive: true });
    for (const [rel, text] of Object.entries(files)) writeFile(join(dir, rel), text);
    const found = detectCoverage(dir, command, path?.() ?? '/nonexistent');
    expect(found.command).toBe(measures);
    expect(found.missing?.step).toBe(step);
    if (step) expect(found.missing?.why).toBeTruthy();
  });
});
