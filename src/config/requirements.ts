// A phase's requirements as they apply to one workflow: the phase's own, with the workflow's overrides
// merged over them (objects merged key by key, anything else replaced).
import { phaseRequirementsOf } from './phases.js';
import type { IterationRequirements, PhaseRequirements } from './schemas.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (key.startsWith('_')) continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? deepMerge(out[key], value) : value;
  }
  return out;
}

export function effectivePhaseRequirements(requirements: IterationRequirements, phase: string, workflowType?: string | null): PhaseRequirements | undefined {
  const base = phaseRequirementsOf(requirements, phase);
  const overrides = workflowType ? requirements.workflow_overrides?.[workflowType] : undefined;
  const override = isPlainObject(overrides) ? overrides[phase] : undefined;
  if (!base && !isPlainObject(override)) return undefined;
  return deepMerge(base ?? {}, isPlainObject(override) ? override : {});
}

/** The coverage a phase asks for: a number, or one per workflow size (light, standard, epic). */
export function coverageThreshold(requirements: PhaseRequirements | undefined, state: { active_workflow?: unknown }): number | undefined {
  return sizedThreshold(requirements?.test_iteration?.success_criteria?.min_coverage_percent, state, 80);
}

/** The mutation score a phase asks for on the workflow's changed code: a number, or one per workflow size. */
export function mutationThreshold(requirements: PhaseRequirements | undefined, state: { active_workflow?: unknown }): number | undefined {
  return sizedThreshold(requirements?.test_iteration?.success_criteria?.min_mutation_score, state);
}

/** `fallback`: for a map that names neither the workflow's size nor standard; else its highest figure. */
function sizedThreshold(
  wanted: number | Record<string, number> | null | undefined,
  state: { active_workflow?: unknown },
  fallback?: number,
): number | undefined {
  if (wanted === undefined || wanted === null) return undefined;
  if (typeof wanted === 'number') return wanted;
  const sizing = (state.active_workflow as Record<string, unknown> | null | undefined)?.['sizing'] as { effective_intensity?: string } | undefined;
  const highest = Object.values(wanted).length > 0 ? Math.max(...Object.values(wanted)) : undefined;
  return wanted[sizing?.effective_intensity ?? 'standard'] ?? wanted['standard'] ?? fallback ?? highest;
}

/** A phase whose gate runs the tests itself and wants a coverage figure from that run. */
export interface CoverageNeed {
  phase: string;
  /** The percentage, for a standard-size workflow where it depends on the workflow's size. */
  percent: number;
  /** It depends on the workflow's size (light, standard, epic). */
  sized: boolean;
}

/** The phases, in order, whose gate measures coverage (verify_at_gate is not off), as the project's requirements say. */
export function phasesWantingCoverage(requirements: IterationRequirements): CoverageNeed[] {
  return phasesWanting(requirements, 'min_coverage_percent');
}

/** The phases, in order, whose gate measures the mutation score of the changed code (verify_at_gate is not off). */
export function phasesWantingMutationScore(requirements: IterationRequirements): CoverageNeed[] {
  return phasesWanting(requirements, 'min_mutation_score');
}

function phasesWanting(requirements: IterationRequirements, key: 'min_coverage_percent' | 'min_mutation_score'): CoverageNeed[] {
  const needs: CoverageNeed[] = [];
  for (const phase of Object.keys(requirements.phase_requirements).filter((key) => !key.startsWith('_'))) {
    const test = phaseRequirementsOf(requirements, phase)?.test_iteration;
    const wanted = test?.success_criteria?.[key];
    if (test?.enabled !== true || test.verify_at_gate === false || wanted === undefined || wanted === null) continue;
    const sized = typeof wanted !== 'number';
    needs.push({ phase, percent: sized ? (wanted['standard'] ?? Math.max(...Object.values(wanted))) : wanted, sized });
  }
  return needs;
}
