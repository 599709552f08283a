// The phases a project knows: the phase keys of its iteration requirements, which every other config
// file must agree with (see consistency.ts).
import type { ProjectConfig } from './project-config.js';
import type { IterationRequirements, PhaseRequirements } from './schemas.js';

const cache = new WeakMap<IterationRequirements, ReadonlySet<string>>();

export function phaseKeysOf(requirements: IterationRequirements): ReadonlySet<string> {
  let keys = cache.get(requirements);
  if (!keys) {
    keys = new Set(Object.keys(requirements.phase_requirements).filter((key) => !key.startsWith('_')));
    cache.set(requirements, keys);
  }
  return keys;
}

export function knownPhaseKeys(config: ProjectConfig): ReadonlySet<string> {
  return phaseKeysOf(config.iterationRequirements);
}

export function phaseRequirementsOf(requirements: IterationRequirements, phase: string): PhaseRequirements | undefined {
  const entry = requirements.phase_requirements[phase];
  return typeof entry === 'object' ? entry : undefined;
}
