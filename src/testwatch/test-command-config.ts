// The project's test command and the files that define it, as the test-definition record needs them: read
// from the testing config (`.isdlc/config/testing.json`, config/testing-config.ts), the same command the
// gate runs itself.
import { loadTestingConfig } from '../config/testing-config.js';

export interface TestCommandConfig {
  command: string;
  /** The coverage command the gate runs instead where a phase wants a figure: what it reaches defines the tests too. */
  coverageCommand?: string;
  /** The mutation command, where testing.json names one; Stryker's config files define the tests too. */
  mutationCommand?: string;
  /** Files named as the test's definition, instead of isdlc's own search. */
  definitionFiles?: string[];
}

/** testing.json's `command` and `coverage_command` (or, without the file, the detected ones); null when the project has none. */
export function testCommandOf(config: { root: string }): TestCommandConfig | null {
  const { config: testing } = loadTestingConfig(config.root);
  if (testing.command === null) return null;
  const files = testing.definition_files ?? [];
  return {
    command: testing.command,
    ...(testing.coverage_command ? { coverageCommand: testing.coverage_command } : {}),
    ...(testing.mutation_command ? { mutationCommand: testing.mutation_command } : {}),
    ...(files.length > 0 ? { definitionFiles: files } : {}),
  };
}
