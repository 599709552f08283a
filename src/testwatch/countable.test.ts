import { describe, expect, it } from 'vitest';
import { uncountedRunner } from './countable.js';

describe('uncountedRunner', () => {
  it.each<[string, string | undefined]>([
    // Counted as they are.
    ['node --test', undefined],
    ['node --test --test-reporter=spec', undefined],
    ['node --test --test-reporter=dot --test-reporter=spec', undefined],
    ['npx tap', undefined],
    ['tap --reporter=terse', undefined],
    ['npx mocha --reporter dot', undefined],
    ['mocha -R tap', undefined],
    ['npx vitest run', undefined],
    ['vitest run --reporter=json --reporter=default', undefined],
    ['uvu tests', undefined],
    ['ava --tap', undefined],
    ['jest --json', undefined],
    ['npm test', undefined],
    ['make test', undefined],
    // Printing no count the gate reads.
    ['node --test --test-reporter=dot', 'node --test'],
    ['node --test --test-reporter dot test/', 'node --test'],
    ['NODE_ENV=test node --test --test-reporter=junit', 'node --test'],
    ['npx tap --reporter=dot', 'node-tap'],
    ['tap -R silent', 'node-tap'],
    ['c8 --reporter=text mocha --reporter json', 'mocha'],
    ['./node_modules/.bin/mocha -R xunit', 'mocha'],
    ['npx vitest run --reporter=json', 'vitest'],
    ['tsc && vitest run --reporter=junit', 'vitest'],
  ])('%s: %s', (line, runner) => {
    expect(uncountedRunner(line)?.runner).toBe(runner);
  });

  it('says why, and what to set instead', () => {
    expect(uncountedRunner('node --test --test-reporter=dot')).toEqual({
      runner: 'node --test',
      why: 'the dot reporter prints no test counts',
      fix: 'use --test-reporter=spec (or tap), or add it beside the one you have',
    });
  });
});
