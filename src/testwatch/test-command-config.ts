// The project's test command and the files that define it, as the test-definition record needs them: read
// from the testing config (`.isdlc/config/testing.json`, verify/testing-config.ts), the same command the
// gate runs itself.
import { loadTestingConfig } from '../verify/testing-config.js';

export interface TestCommandConfig {
  command: string;
  /** Files named as the test's definition, instead of isdlc's own search. */
  definitionFiles?: string[];
}

/** testing.json's `command` (or, without the file, the detected one); null when the project has none. */
export function testCommandOf(config: { root: string }): TestCommandConfig | null {
  const { config: testing } = loadTestingConfig(config.root);
  if (testing.command === null) return null;
  const files = testing.definition_files ?? [];
  return { command: testing.command, ...(files.length > 0 ? { definitionFiles: files } : {}) };
}
