// The project's test command and the files that define it, as the test-definition record needs them.
// Stand-in until the testing config's own loader exists (`.isdlc/config/testing.json`, filled by `isdlc
// init`): this is the one place that reads it, so the loader replaces this function and nothing else.
import { join } from 'node:path';
import { CONFIG_DIRS } from '../config/project-config.js';
import { readTextIfPresent } from '../util/read-text.js';

export interface TestCommandConfig {
  command: string;
  /** Files named as the test's definition, instead of isdlc's own search. */
  definitionFiles?: string[];
}

/** A JSON file's value; undefined when it is absent or unreadable (the gate reads this and must not throw). */
function parsed(path: string): unknown {
  try {
    const text = readTextIfPresent(path);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** testing.json's `command`, else `npm test` when package.json has a test script; null when neither. */
export function testCommandOf(config: { root: string }): TestCommandConfig | null {
  for (const dir of CONFIG_DIRS) {
    const testing = parsed(join(config.root, dir, 'testing.json')) as { command?: unknown; definition_files?: unknown } | undefined;
    if (!testing || typeof testing.command !== 'string' || testing.command.trim() === '') continue;
    const files = Array.isArray(testing.definition_files) ? testing.definition_files.filter((file): file is string => typeof file === 'string') : [];
    return { command: testing.command, ...(files.length > 0 ? { definitionFiles: files } : {}) };
  }
  const manifest = parsed(join(config.root, 'package.json')) as { scripts?: Record<string, unknown> } | undefined;
  return typeof manifest?.scripts?.['test'] === 'string' ? { command: 'npm test' } : null;
}
