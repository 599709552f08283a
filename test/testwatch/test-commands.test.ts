// Which shell commands are test runs, and what their exit status says.
import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../src/detect/shell-commands.js';
import { findTestCommand } from '../../src/testwatch/test-commands.js';

describe('findTestCommand', () => {
  it.each([
    ['npm test', 'npm test', 'own'],
    ['CI=1 NODE_ENV=test npm test', 'CI=1 NODE_ENV=test npm test', 'own'],
    ['cd packages/api && npm test', 'npm test', 'own'],
    ['npm test && npm run lint', 'npm test', 'zero-means-passed'],
    ['npm test 2>&1 | tail -50', 'npm test 2>&1', 'unrelated'],
    ['npm test; echo done', 'npm test', 'unrelated'],
    ['npm test || true', 'npm test', 'unrelated'],
    ['pnpm exec vitest run --reporter=dot', 'pnpm exec vitest run --reporter=dot', 'own'],
    ['uv run pytest -x tests/', 'uv run pytest -x tests/', 'own'],
    ['./node_modules/.bin/jest --ci', './node_modules/.bin/jest --ci', 'own'],
    ['node --test test/', 'node --test test/', 'own'],
    ['./gradlew test', './gradlew test', 'own'],
    ['(cd api && go test ./...)', 'go test ./...)', 'own'],
    ...['npx uvu tests', 'npx tap', 'npx ava --tap', "npx tape 'test/*.js'", 'npx jasmine', 'npx karma start', 'bats test/', 'bun test', 'deno test'].map(
      (line): [string, string, string] => [line, line, 'own'],
    ),
  ])('%s → `%s`, exit status %s', (line, segment, exitStatus) => {
    expect(findTestCommand(line)).toMatchObject({ segment, exitStatus });
  });

  // What keeps a line's output from proving that the tests passed.
  it.each<[string, string | undefined]>([
    ['npm test', undefined],
    ['npm test && npm run lint', undefined],
    ['npm test 2>&1', undefined],
    ['npm test 2>&1 | tee test.log', undefined],
    ['npx vitest run -t "a > b"', undefined],
    ['npm test 2>&1 | tail -50', 'its output goes through `tail -50`'],
    ['npm test | tee test.log | grep -v fail', 'its output goes through `tee test.log`'],
    ['npm test > test.log', 'its output was sent to a file'],
    ['npm test 2>/dev/null', 'its output was sent to a file'],
    ['npm test &> test.log', 'its output was sent to a file'],
    ['npm test; echo done', '`echo done` runs after it, whatever its result, and may print or exit in its place'],
    ['npm test || true', 'its failure is turned into success (`|| true`)'],
    ['npm test & sleep 1', 'it was sent to the background'],
    ...['pytest --version', 'python -m pytest --collect-only', 'npx jest --listTests', 'vitest --help', 'cargo test --no-run', 'go test -list .'].map(
      (line): [string, string] => [line, 'it only asks the runner for its version, its help or a list of tests, so no test ran'],
    ),
  ])('%s: %s', (line, distrust) => {
    expect(findTestCommand(line)?.distrust).toBe(distrust);
  });

  it.each([
    'echo "npm test"',
    'git commit -m "fix pytest config"',
    'grep -rn "go test" docs/',
    'cat package.json',
    'npm install',
    'npm run build',
    'ls tests/',
  ])('%s is not a test run', (line) => expect(findTestCommand(line)).toBeNull());

  it("recognises the phase's own test commands", () => {
    expect(findTestCommand('make verify-all', ['make verify-all'])?.segment).toBe('make verify-all');
    expect(findTestCommand('./scripts/check.sh --fast', ['./scripts/check.sh'])?.segment).toBe('./scripts/check.sh --fast');
  });
});

describe('splitCommandLine', () => {
  it('splits at && || ; | and newlines outside quotes', () => {
    expect(splitCommandLine('a && b || c; d | e\nf').map((p) => p.text)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(splitCommandLine('echo "a && b" ; git commit -m \'x; y\'').map((p) => p.text)).toEqual(['echo "a && b"', "git commit -m 'x; y'"]);
    expect(splitCommandLine('npm test 2>&1 | tee out').map((p) => p.text)).toEqual(['npm test 2>&1', 'tee out']);
  });
});
