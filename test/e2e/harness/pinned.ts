// Each end-to-end file makes sure the Claude Code versions it runs are in the suite's cache before its
// first test: a clean clone fetches them from the npm registry once (about 6 s each here).
import { beforeAll } from 'vitest';
import { ensureClaudeCode } from './claude-install.js';
import { CURRENT } from './claude-versions.js';

export function usesClaudeCode(...versions: string[]): void {
  beforeAll(() => {
    for (const version of versions.length > 0 ? versions : [CURRENT]) ensureClaudeCode(version);
  }, 10 * 60_000);
}
