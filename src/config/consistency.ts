// The config files must agree with each other: a phase named anywhere exists in iteration-requirements,
// every article a phase requires is in the constitution, every phase has an agent. The earlier
// framework's files drifted apart silently (overrides keyed by phases that no longer existed); here
// `doctor` and a test say so.
import { PHASELESS_MARKERS, agentPhases, phaseAgent } from './agents.js';
import type { Constitution } from './constitution.js';
import { normalizePhaseKey } from './phase-keys.js';
import { phaseKeysOf, phaseRequirementsOf } from './phases.js';
import type { ArtifactPaths, IterationRequirements, SkillsManifest, Workflows } from './schemas.js';

export interface ConfigSet {
  requirements: IterationRequirements;
  artifactPaths: ArtifactPaths;
  workflows: Workflows;
  manifest: SkillsManifest;
  constitution: Constitution;
}

function entries<T>(record: Record<string, T | string>): [string, T][] {
  return Object.entries(record).filter((entry): entry is [string, T] => !entry[0].startsWith('_') && typeof entry[1] === 'object');
}

function articlesIn(value: unknown): string[] {
  const articles = (value as { constitutional_validation?: { articles?: unknown } } | undefined)?.constitutional_validation?.articles;
  return Array.isArray(articles) ? articles.filter((id): id is string => typeof id === 'string') : [];
}

export function configProblems(set: ConfigSet): string[] {
  const problems: string[] = [];
  const phases = phaseKeysOf(set.requirements);
  const known = (phase: string): boolean => phases.has(normalizePhaseKey(phase));
  const checkArticles = (where: string, ids: string[]): void => {
    for (const id of ids) {
      if (!set.constitution.articles.has(id.toUpperCase())) problems.push(`${where} requires Article ${id}, which the constitution does not have`);
    }
  };

  for (const phase of phases) {
    const requirements = phaseRequirementsOf(set.requirements, phase);
    checkArticles(`iteration-requirements ${phase}`, articlesIn(requirements));
    if (requirements?.agent_delegation_validation?.enabled && !phaseAgent(set.manifest, phase)) {
      problems.push(`iteration-requirements ${phase} checks agent delegation, but no agent in the skills manifest owns ${phase}`);
    }
    const hasPaths = (set.artifactPaths.phases[phase] as { paths?: string[] } | undefined)?.paths?.length;
    if (requirements?.artifact_validation?.enabled && !hasPaths && !requirements.artifact_validation.paths?.length) {
      problems.push(`iteration-requirements ${phase} validates artifacts, but artifact-paths lists none for it`);
    }
  }

  const workflowTypes = new Set(entries(set.workflows.workflows).map(([type]) => type));
  for (const [type, overrides] of entries(set.requirements.workflow_overrides ?? {})) {
    if (!workflowTypes.has(type))
      problems.push(`iteration-requirements workflow_overrides names workflow type "${type}", which workflows.json does not define`);
    for (const [phase, override] of entries(overrides as Record<string, object | string>)) {
      if (!known(phase)) problems.push(`iteration-requirements workflow_overrides.${type} names unknown phase ${phase}`);
      checkArticles(`workflow_overrides.${type}.${phase}`, articlesIn(override));
    }
  }

  for (const [type, workflow] of entries(set.workflows.workflows)) {
    if (workflow.phases.length === 0) problems.push(`workflow ${type} has no phases`);
    for (const phase of workflow.phases) if (!known(phase)) problems.push(`workflow ${type} names unknown phase ${phase}`);
    for (const phase of Object.keys(workflow.agent_modifiers ?? {})) {
      if (phase.startsWith('_')) continue;
      if (!known(phase)) problems.push(`workflow ${type} agent_modifiers names unknown phase ${phase}`);
      else if (!workflow.phases.map((p) => normalizePhaseKey(p)).includes(normalizePhaseKey(phase))) {
        problems.push(`workflow ${type} agent_modifiers names ${phase}, which is not one of its phases`);
      }
    }
  }

  for (const phase of Object.keys(set.artifactPaths.phases)) {
    if (!phase.startsWith('_') && !known(phase)) problems.push(`artifact-paths names unknown phase ${phase}`);
  }

  for (const agent of Object.keys(set.manifest.ownership)) {
    for (const phase of agentPhases(set.manifest, agent)) {
      if (!PHASELESS_MARKERS.has(phase) && !known(phase)) problems.push(`skills manifest: ${agent} owns unknown phase ${phase}`);
    }
  }
  return problems;
}
