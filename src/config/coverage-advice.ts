// What init and doctor tell a person before any phase finds out: which phases will want a coverage figure
// from the gate's own run, and, where the project has nothing that measures one, the step that provides it.
import { loadConfig } from './project-config.js';
import { phasesWantingCoverage, type CoverageNeed } from './requirements.js';
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
