// The person's word on how the project's tests run: `.isdlc/config/testing.json`. The gate runs this
// command itself before it opens, so what counts as "the tests" is not the agent's choice. The file is one
// of isdlc's guarded files: a change the agent makes to it is undone (src/integrity/). While it is missing,
// or names no command (init found none), the gate uses what detect-tests.ts guesses now, and says so.
import { join } from 'node:path';

import { CONFIG_SCHEMAS_DIR, ISDLC_CONFIG_DIR } from './project-config.js';
import { loadSchemas } from './load-schemas.js';
import { readTextIfPresent } from '../util/read-text.js';
import { detectTesting } from './detect-tests.js';
import { detectCoverage, type CoverageSetup } from './detect-coverage.js';

export const TESTING_FILE = 'testing.json';
export const TESTING_PATH = `.isdlc/config/${TESTING_FILE}`;
export const DEFAULT_TIMEOUT_MINUTES = 10;
/** The time a mutation run of the changed code may take, where testing.json names none. */
export const DEFAULT_MUTATION_TIMEOUT_MINUTES = 20;

export interface TestingConfig {
  /** The command that runs the whole suite; null when none is named or detected. */
  command: string | null;
  /** Run instead of `command` when a phase requires a coverage figure. */
  coverage_command?: string;
  /** Where that run writes its coverage report; the usual places are tried when absent. */
  coverage_report?: string;
  timeout_minutes: number;
  /** A run whose output names no test count is no pass (default); false accepts the exit status alone. */
  require_counts: boolean;
  /** The files that define the tests, when detection should not guess them. */
  definition_files?: string[];
  /** The command that mutates the changed code, where a phase wants a mutation score; Stryker when absent (detect-mutation.ts). */
  mutation_command?: string;
  /** The mutation-testing report (JSON, the mutation-testing-report-schema) that command writes. */
  mutation_report?: string;
  /** DEFAULT_MUTATION_TIMEOUT_MINUTES where absent. */
  mutation_timeout_minutes?: number;
  /** false: the caught mutants are not made by hand (a suite that cannot run from a copy of the project). */
  mutation_recheck?: boolean;
}

export interface LoadedTesting {
  config: TestingConfig;
  /** The file it came from, or `detected`. */
  from: string;
  /** The file names no command, and the one in use was detected. */
  guessed?: boolean;
  /** Why the file could not be used: the gate cannot verify until a person fixes it. */
  problem?: string;
  /**
   * Where the coverage command comes from: the file, or what the project has now (the file names none). When
   * neither gives one, `missing` says why and the step that provides it.
   */
  coverage: { from: 'file' | 'detected' } | { from: 'none'; missing: NonNullable<CoverageSetup['missing']> } | { from: 'no-command' };
}

/** What `isdlc init` writes: the detected commands and the defaults, spelled out so the person sees them. */
export function initialTestingConfig(root: string): { text: string; basis: string } {
  const detected = detectTesting(root);
  const config: Record<string, unknown> = {
    // For the person's editor: the file's JSON Schema, which init puts beside it.
    $schema: `./${CONFIG_SCHEMAS_DIR}/testing.json`,
    command: detected.command,
    ...(detected.coverage_command ? { coverage_command: detected.coverage_command } : {}),
    timeout_minutes: DEFAULT_TIMEOUT_MINUTES,
    require_counts: true,
  };
  return { text: `${JSON.stringify(config, null, 2)}\n`, basis: detected.basis };
}

/** isdlc's own file: it is read from `.isdlc/config/` only (no framework before isdlc had it). */
export function loadTestingConfig(root: string): LoadedTesting {
  const path = join(root, ISDLC_CONFIG_DIR, TESTING_FILE);
  let text: string | undefined;
  try {
    text = readTextIfPresent(path);
  } catch (error) {
    return { ...fallback(root), from: path, problem: `${path}: ${(error as Error).message}` };
  }
  if (text === undefined) return { ...fallback(root), from: 'detected' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ...fallback(root), from: path, problem: `${path} does not parse: ${(error as Error).message}` };
  }
  const checked = loadSchemas().checkTestingFile(parsed, DEFAULT_TIMEOUT_MINUTES);
  if (!checked.ok) return { ...fallback(root), from: path, problem: `${path}: ${checked.problem}` };
  const out = checked.value;
  // No command named (init found none when it ran): what the project shows now, said as a guess.
  const guess = out.command === null ? detectTesting(root) : undefined;
  const command = guess ? guess.command : out.command;
  const base: TestingConfig = {
    command,
    timeout_minutes: out.timeout_minutes,
    require_counts: out.require_counts,
    ...(out.coverage_report ? { coverage_report: out.coverage_report } : {}),
    ...(out.definition_files ? { definition_files: out.definition_files } : {}),
    ...(out.mutation_command ? { mutation_command: out.mutation_command } : {}),
    ...(out.mutation_report ? { mutation_report: out.mutation_report } : {}),
    mutation_timeout_minutes: out.mutation_timeout_minutes ?? DEFAULT_MUTATION_TIMEOUT_MINUTES,
    ...(out.mutation_recheck === false ? { mutation_recheck: false } : {}),
  };
  return {
    ...(guess?.command ? { guessed: true } : {}),
    ...withCoverage(root, base, out.coverage_command),
    from: path,
  };
}

/** The coverage command: the file's, else the one the project makes possible now (installing c8 is enough). */
function withCoverage(root: string, config: TestingConfig, named: string | undefined): Pick<LoadedTesting, 'config' | 'coverage'> {
  if (named) return { config: { ...config, coverage_command: named }, coverage: { from: 'file' } };
  if (config.command === null) return { config, coverage: { from: 'no-command' } };
  const detected = detectCoverage(root, config.command);
  if (detected.command) return { config: { ...config, coverage_command: detected.command }, coverage: { from: 'detected' } };
  return { config, coverage: { from: 'none', missing: detected.missing! } };
}

function fallback(root: string): Pick<LoadedTesting, 'config' | 'coverage'> {
  const detected = detectTesting(root);
  return withCoverage(
    root,
    { command: detected.command, timeout_minutes: DEFAULT_TIMEOUT_MINUTES, require_counts: true, mutation_timeout_minutes: DEFAULT_MUTATION_TIMEOUT_MINUTES },
    undefined,
  );
}
