// Agent names as agents and orchestrators really write them, mapped to the names the skills manifest
// uses, and the phases those agents own.
import { normalizePhaseKey } from './phase-keys.js';
import type { SkillsManifest } from './schemas.js';

/** Short and numbered forms that prompts and older agent files use, to the manifest's names. */
const AGENT_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  orchestrator: 'sdlc-orchestrator',
  '00-sdlc-orchestrator': 'sdlc-orchestrator',
  requirements: 'requirements-analyst',
  '01-requirements-analyst': 'requirements-analyst',
  architect: 'solution-architect',
  '02-solution-architect': 'solution-architect',
  designer: 'system-designer',
  '03-system-designer': 'system-designer',
  'test-design': 'test-design-engineer',
  '04-test-design-engineer': 'test-design-engineer',
  developer: 'software-developer',
  '05-software-developer': 'software-developer',
  tester: 'integration-tester',
  '06-integration-tester': 'integration-tester',
  qa: 'qa-engineer',
  '07-qa-engineer': 'qa-engineer',
  security: 'security-compliance-auditor',
  '08-security-compliance-auditor': 'security-compliance-auditor',
  cicd: 'cicd-engineer',
  '09-cicd-engineer': 'cicd-engineer',
  'dev-env': 'environment-builder',
  '10-dev-environment-engineer': 'environment-builder',
  staging: 'deployment-engineer-staging',
  '11-deployment-engineer-staging': 'deployment-engineer-staging',
  release: 'release-manager',
  '12-release-manager': 'release-manager',
  sre: 'site-reliability-engineer',
  '13-site-reliability-engineer': 'site-reliability-engineer',
  '14-upgrade-engineer': 'upgrade-engineer',
  'quality-loop': 'quality-loop-engineer',
  '16-quality-loop-engineer': 'quality-loop-engineer',
  ql: 'quality-loop-engineer',
  discovery: 'discover-orchestrator',
  d0: 'discover-orchestrator',
  'd0-discover-orchestrator': 'discover-orchestrator',
  d1: 'architecture-analyzer',
  'd1-architecture-analyzer': 'architecture-analyzer',
  'arch-analyzer': 'architecture-analyzer',
  d2: 'test-evaluator',
  'd2-test-evaluator': 'test-evaluator',
  d3: 'constitution-generator',
  'd3-constitution-generator': 'constitution-generator',
  d4: 'skills-researcher',
  'd4-skills-researcher': 'skills-researcher',
  d5: 'data-model-analyzer',
  'd5-data-model-analyzer': 'data-model-analyzer',
  d6: 'feature-mapper',
  'd6-feature-mapper': 'feature-mapper',
  d7: 'product-analyst',
  'd7-product-analyst': 'product-analyst',
  d8: 'architecture-designer',
  'd8-architecture-designer': 'architecture-designer',
  'arch-designer': 'architecture-designer',
});

/**
 * `Software_Developer`, `isdlc:software-developer` and `05-software-developer` all name
 * `software-developer`. A name we do not know comes back lower-cased and dashed.
 */
export function normalizeAgentName(name: string | null | undefined): string {
  if (typeof name !== 'string') return '';
  const bare = name.trim().split(':').pop() ?? '';
  const dashed = bare.toLowerCase().replace(/[_\s]+/g, '-');
  return AGENT_ALIASES[dashed] ?? dashed;
}

/**
 * The agent whose checks count as a phase's independent review unless the project names others
 * (constitutional_validation.reviewers): it belongs to no phase, so it may be delegated in any, and the
 * definition init installs for it reads and records, and cannot write.
 */
export const DEFAULT_REVIEWER = 'constitution-reviewer';

/** Markers in the manifest for agents that belong to no phase of a workflow. */
export const PHASELESS_MARKERS: ReadonlySet<string> = new Set(['all', 'setup']);

/** The phases an agent owns according to the manifest (several for a few agents), or [] if unknown. */
export function agentPhases(manifest: SkillsManifest, agentName: string): string[] {
  const entry = manifest.ownership[normalizeAgentName(agentName)];
  if (!entry) return [];
  const phases = Array.isArray(entry.phase) ? entry.phase : [entry.phase];
  return phases.map((phase) => normalizePhaseKey(phase));
}

/** The phase a run of this agent belongs to when its delegation names none: its first own phase. */
export function homePhaseOf(manifest: SkillsManifest, agentName: string): string | null {
  const owned = agentPhases(manifest, agentName);
  return owned.find((phase) => !PHASELESS_MARKERS.has(phase)) ?? owned[0] ?? null;
}

/**
 * The agent a phase is delegated to: the first agent the manifest lists for it (the others listed for
 * the same phase are its sub-agents). One map, derived, so it can never drift from the manifest.
 */
export function phaseAgent(manifest: SkillsManifest, phaseKey: string): string | undefined {
  const wanted = normalizePhaseKey(phaseKey);
  for (const name of Object.keys(manifest.ownership)) {
    if (agentPhases(manifest, name).includes(wanted)) return name;
  }
  return undefined;
}
