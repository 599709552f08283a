// What init and doctor tell a person before any phase finds out: which phases will want a coverage figure
// from the gate's own run, and, where the project has nothing that measures one, the step that provides it.
import { loadConfig } from './project-config.js';
import { detectMutation } from './detect-mutation.js';
import { phasesWantingCoverage, phasesWantingMutationScore, type CoverageNeed } from './requirements.js';
import { loadTestingConfig } from './testing-config.js';

export interface CoverageAdvice {
  needs: CoverageNeed[];
  /** The command the gate will measure with, when there is one. */
  command?: string;
  /** Why the gate cannot measure, and the step that provides it. */
  missing?: { why: string; step: string };
}

/** Undefined where no phase wants a figure or the project has no test command (doctor says that apart). */
export function coverageAdvice(root: string, configDirs: readonly string[]): CoverageAdvice | undefined {
  const needs = phasesWantingCoverage(loadConfig(root, 'iteration-requirements', configDirs).value);
  const testing = loadTestingConfig(root);
  if (needs.length === 0 || testing.problem || testing.coverage.from === 'no-command') return undefined;
  if (testing.coverage.from === 'none') return { needs, missing: testing.coverage.missing };
  return { needs, ...(testing.config.coverage_command ? { command: testing.config.coverage_command } : {}) };
}

/** "06-implementation (80%), 16-quality-loop (80%; in a standard-size workflow)" */
export function describeNeeds(needs: readonly CoverageNeed[]): string {
  const list = needs.map((need) => `${need.phase} (${need.percent}%)`).join(', ');
  return needs.some((need) => need.sized) ? `${list}, for a standard-size workflow` : list;
}

/** For the person, when the gate cannot measure: what will want a figure and why there is none, and the step. */
export function missingCoverage(needs: readonly CoverageNeed[], missing: NonNullable<CoverageAdvice['missing']>): { what: string; step: string } {
  return {
    what: `the gates of ${describeNeeds(needs)} need line coverage from the gate's own test run, and it cannot measure coverage here (${missing.why})`,
    step: missing.step,
  };
}

export interface MutationAdvice {
  needs: CoverageNeed[];
  /** The command the gate mutates the changed code with, when there is one. */
  command?: string;
  missing?: { why: string; step: string };
}

/** Which phases want a mutation score of the changed code, and what measures it or the step that provides it. */
export function mutationAdvice(root: string, configDirs: readonly string[]): MutationAdvice | undefined {
  const needs = phasesWantingMutationScore(loadConfig(root, 'iteration-requirements', configDirs).value);
  const testing = loadTestingConfig(root);
  if (needs.length === 0 || testing.problem || testing.config.command === null) return undefined;
  const setup = detectMutation(root, testing.config);
  return setup.ok ? { needs, command: setup.tool.command } : { needs, missing: setup.missing };
}

/** For the person, when the gate cannot measure a mutation score: which gates want one and why there is none. */
export function missingMutation(needs: readonly CoverageNeed[], missing: NonNullable<MutationAdvice['missing']>): { what: string; step: string } {
  return {
    what: `the gates of ${describeNeeds(needs)} need a mutation score of the code the workflow changed, and the gate cannot measure one here (${missing.why})`,
    step: missing.step,
  };
}
