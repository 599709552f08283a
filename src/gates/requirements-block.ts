// The GATE REQUIREMENTS block a phase agent is given when it is delegated to, so it knows what its gate
// will check before a guard has to tell it. Built from the same config the guards read (the one
// resolver), and never an error: anything wrong gives "" and the delegation goes on without the block.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_REVIEWER } from '../config/agents.js';
import { resolveArtifactPath } from '../config/artifacts.js';
import { describeArticle, type Constitution } from '../config/constitution.js';
import { normalizePhaseKey } from '../config/phase-keys.js';
import { BUNDLED, ProjectConfig } from '../config/project-config.js';
import { effectivePhaseRequirements } from '../config/requirements.js';
import type { PhaseRequirements } from '../config/schemas.js';
import { ISDLC_DIR } from '../state/locate.js';
import type { ActiveWorkflow } from '../state/schema.js';
import { asRecord as obj, asText, type JsonRecord as Json } from '../util/json.js';

export const BLOCK_TITLE = 'GATE REQUIREMENTS';

export type BlockInput = {
  phaseKey: string;
  artifactFolder: string;
  workflowType?: string;
} & (
  | {
      /** The project's config, loaded already (the hook's). */
      config: ProjectConfig;
    }
  | {
      projectRoot?: string;
      /** Where the project's config files are looked for (src/config/project-config.ts). */
      configDirs: readonly string[];
    }
);

/** `{artifact_folder}` filled in; any other `{variable}` left as written; a folder that would leave the project leaves the template as it is. */
function resolvePath(template: string, folder: string): string {
  return resolveArtifactPath(template, folder) ?? template;
}

function coverageOf(tests: Json): string | null {
  const wanted = obj(tests['success_criteria'])['min_coverage_percent'];
  if (typeof wanted === 'number') return `${wanted}%`;
  const standard = obj(wanted)['standard'];
  return typeof standard === 'number' ? `${standard}%` : null;
}

function list(items: string[]): string {
  return `[${items.join(', ')}]`;
}

function requirementLines(requirements: PhaseRequirements, articles: string[], artifacts: string[]): string[] {
  const lines: string[] = ['  Iteration Requirements:'];
  const rule = (name: string, value: unknown, detail: () => string[]): void => {
    const enabled = obj(value)['enabled'] === true;
    const when = typeof obj(value)['when'] === 'string' ? ` (when ${String(obj(value)['when']).replace(/_/g, ' ')})` : '';
    lines.push(`    - ${name}: ${enabled ? `enabled${when}` : 'disabled'}`);
    if (enabled) for (const line of detail()) lines.push(`      ${line}`);
  };
  const tests = obj(requirements.test_iteration);
  rule('test_iteration', tests, () => {
    const parts = [`max_iterations: ${asText(tests['max_iterations'], '10')}`, `circuit_breaker: ${asText(tests['circuit_breaker_threshold'], '3')}`];
    const coverage = coverageOf(tests);
    if (coverage) parts.push(`coverage: ${coverage}`);
    return [parts.join(', ')];
  });
  const constitutional = obj(requirements.constitutional_validation);
  rule('constitutional_validation', constitutional, () => [
    `max_iterations: ${asText(constitutional['max_iterations'], '5')}, articles: ${list(articles)}`,
    // The worker reads this: its own checks will not open the gate.
    ...(constitutional['independent_review'] === true
      ? [`independent_review: only checks recorded by ${reviewerNames(constitutional['reviewers'])}, after reading what the phase changed, count`]
      : []),
  ]);
  rule('artifact_validation', requirements.artifact_validation, () => [`required paths: ${list(artifacts)}`]);
  const elicitation = obj(requirements.interactive_elicitation);
  rule('interactive_elicitation', elicitation, () => [`min_menu_interactions: ${asText(elicitation['min_menu_interactions'], '1')}`]);
  rule('agent_delegation', requirements.agent_delegation_validation, () => ['the phase agent itself must do the work (its delegation is checked)']);
  const atdd = obj(requirements['atdd_validation']);
  rule('atdd_validation', atdd, () => [`requires: ${list(Array.isArray(atdd['requires']) ? atdd['requires'].map(String) : [])}`]);
  return lines;
}

function modifierLines(modifiers: Json): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(modifiers)) {
    if (key.startsWith('_when_')) {
      lines.push(`    when ${key.slice('_when_'.length).replace(/_/g, ' ')}:`);
      for (const [inner, innerValue] of Object.entries(obj(value))) lines.push(`      ${inner}: ${JSON.stringify(innerValue)}`);
    } else if (!key.startsWith('_')) {
      lines.push(`    ${key}: ${JSON.stringify(value)}`);
    }
  }
  return lines;
}

function agentModifiers(config: ProjectConfig, workflowType: string | undefined, phase: string): Json {
  if (!workflowType) return {};
  try {
    const workflow = obj(obj(config.workflows.workflows)[workflowType]);
    return obj(obj(workflow['agent_modifiers'])[phase]);
  } catch {
    return {}; // a workflows file that cannot be read only costs the overrides
  }
}

function artifactTemplates(config: ProjectConfig, phase: string, requirements: PhaseRequirements): string[] {
  if (requirements.artifact_validation?.enabled !== true) return [];
  let fromPaths: string[];
  try {
    const entry = obj(config.artifactPaths.phases)[phase];
    fromPaths = Array.isArray(obj(entry)['paths']) ? (obj(entry)['paths'] as unknown[]).filter((p): p is string => typeof p === 'string') : [];
  } catch {
    fromPaths = []; // without artifact-paths the block goes on without its paths
  }
  return [...new Set([...fromPaths, ...(requirements.artifact_validation.paths ?? [])])];
}

/** The project's own constitution; without one the articles are named by their IDs. */
function constitutionFor(config: ProjectConfig): Constitution | null {
  try {
    const loaded = config.loadedConstitution();
    return loaded.from === BUNDLED ? null : loaded.value;
  } catch {
    return null;
  }
}

function build(input: BlockInput): string {
  const phase = normalizePhaseKey(input.phaseKey);
  if (!phase || typeof input.artifactFolder !== 'string') return '';
  const root = 'config' in input ? input.config.root : (input.projectRoot ?? process.cwd());
  // No isdlc set up there: no config of the project's at all, so nothing to tell.
  if (!('config' in input) && !existsSync(join(root, ISDLC_DIR))) return '';
  const config = 'config' in input ? input.config : new ProjectConfig(root, input.configDirs);
  const loaded = config.get('iteration-requirements');
  // A project file that is there but cannot be used: its author meant something else than the defaults.
  if (loaded.problem) return '';
  const phases = obj(loaded.value.phase_requirements);
  if (!(phase in phases) || !phases[phase] || typeof phases[phase] !== 'object') return '';
  const requirements = effectivePhaseRequirements(loaded.value, phase, input.workflowType) ?? {};
  const constitution = constitutionFor(config);
  const ids = requirements.constitutional_validation?.enabled ? (requirements.constitutional_validation.articles ?? []).map(String) : [];
  const articles = ids.map((id) => describeArticle(constitution, id));
  const artifacts = artifactTemplates(config, phase, requirements).map((template) => resolvePath(template, input.artifactFolder));
  const modifiers = modifierLines(agentModifiers(config, input.workflowType, phase));
  const section = (title: string, lines: string[]): string[] => [`  ${title}:`, ...(lines.length > 0 ? lines : ['    (none)'])];
  return [
    `${BLOCK_TITLE} (Phase: ${phase}):`,
    ...requirementLines(requirements, articles, artifacts),
    ...section(
      'Required Artifacts',
      artifacts.map((path) => `    - ${path}`),
    ),
    ...section(
      'Constitutional Articles',
      articles.map((article) => `    - ${article}`),
    ),
    ...section('Workflow Overrides', modifiers),
  ].join('\n');
}

/** The block for a phase, or "" when it cannot be built (never throws). */
/** The reviewers a project names, or isdlc's own. */
function reviewerNames(configured: unknown): string {
  const named = Array.isArray(configured) ? configured.filter((name): name is string => typeof name === 'string' && name !== '') : [];
  return (named.length > 0 ? named : [DEFAULT_REVIEWER]).join(' or ');
}

export function buildGateRequirementsBlock(input: BlockInput): string {
  try {
    return build(input);
  } catch {
    return '';
  }
}

/** The block for a phase of the active workflow (its artifact folder and type). */
export function blockForWorkflow(config: ProjectConfig, workflow: ActiveWorkflow, phase: string): string {
  return buildGateRequirementsBlock({
    phaseKey: phase,
    artifactFolder: typeof workflow.artifact_folder === 'string' ? workflow.artifact_folder : '',
    config,
    ...(typeof workflow.type === 'string' ? { workflowType: workflow.type } : {}),
  });
}
