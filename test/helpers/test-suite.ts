// A project's own small test suite and the testing.json that names it: what a gate that runs the tests
// itself needs before it can open. The suite is real (node --test), and so is its coverage figure (Node's
// --experimental-test-coverage), so a gate that opens here has run and judged real tests.
import { join } from 'node:path';
import { writeFile } from './project.js';

export const SUITE_COMMAND = 'node --test';
export const SUITE_COVERAGE_COMMAND = 'node --experimental-test-coverage --test';

const ADD = 'module.exports = (a, b) => a + b;\n';
const PASSING = `const test = require('node:test');
const assert = require('node:assert');
const add = require('../add.js');
test('adds', () => assert.strictEqual(add(1, 2), 3));
test('adds negatives', () => assert.strictEqual(add(-1, -2), -3));
`;

/** The files, as guard-table `files` take them. */
export function passingSuiteFiles(over: { command?: string | null } = {}): Record<string, string> {
  const testing = {
    command: over.command === undefined ? SUITE_COMMAND : over.command,
    coverage_command: SUITE_COVERAGE_COMMAND,
    timeout_minutes: 2,
    require_counts: true,
  };
  return {
    'add.js': ADD,
    'test/add.test.js': PASSING,
    '.isdlc/config/testing.json': `${JSON.stringify(testing, null, 2)}\n`,
  };
}

/** Writes the suite and its testing.json into `dir` (as the person: testing.json is one of isdlc's guarded files). */
export function givePassingSuite(dir: string, over: { command?: string | null } = {}): void {
  for (const [rel, text] of Object.entries(passingSuiteFiles(over))) writeFile(join(dir, rel), text);
}
