import { describe, expect, it } from 'vitest';
import { packageScriptOf } from './doctor-testing.js';

describe('packageScriptOf', () => {
  it.each([
    ['npm test', 'test'],
    ['npm t', 'test'],
    ['npm run test:unit', 'test:unit'],
    ['npm run-script coverage', 'coverage'],
    ['yarn test', 'test'],
    ['yarn coverage', 'coverage'],
    ['pnpm run cov', 'cov'],
    ['bun test', 'test'],
    ['npm run --silent', undefined],
    ['npm install', undefined],
    ['yarn install', undefined],
    ['npx vitest run', undefined],
    ['node --test', undefined],
    ['python -m pytest', undefined],
  ])('%s: %s', (command, script) => {
    expect(packageScriptOf(command)).toBe(script);
  });
});
