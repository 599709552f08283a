// `isdlc loop start --agent NAME`: the loop's defaults for a phase agent. They come from isdlc's own
// config: the phase(s) the skills manifest gives the agent, and that phase's test_iteration in
// iteration-requirements.json (the same config the agent files were once generated from). Agent hosts
// document no free-form frontmatter key for agents (Claude Code warns about unknown ones), so isdlc no
// longer writes an `iteration:` frontmatter; an agent definition whose author wrote one still wins.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectConfig } from '../config/project-config.js';
import { effectivePhaseRequirements } from '../config/requirements.js';
import { parseYaml } from '../config/yaml.js';
import { agentPhases, normalizeAgentName, PHASELESS_MARKERS } from '../config/agents.js';

export interface AgentIterationDefaults {
  /** Where the defaults were found, for the person: the agent file, or the config and phase. */
  from: string;
  maxIterations?: number;
  completionPromises?: string[];
  validationRules?: unknown[];
}

export class AgentDefaultsError extends Error {}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
/** The promises and rule a testing phase's loop has always had. */
const TEST_PHASE_PROMISES = ['<promise>COMPLETE</promise>', '<promise>BLOCKED</promise>'];
const TEST_PHASE_RULES = ['tests_pass'];

/** The project's agent definitions and the hosts' folders that hold them (`<folder>/<agent>.md`). */
export interface AgentProject {
  root: string;
  /** Where config files are looked for, in order (src/config/project-config.ts). */
  configDirs: readonly string[];
  /** Folders of agent definitions, relative to the root: each agent host's. */
  agentDirs: readonly string[];
  projectId?: string;
}

/** The `iteration:` section a person wrote into the agent's frontmatter, or undefined when there is none. */
function fromAgentFile(project: AgentProject, agent: string): AgentIterationDefaults | undefined {
  const root = project.root;
  const file = project.agentDirs.map((dir) => join(dir, `${agent}.md`)).find((candidate) => existsSync(join(root, candidate)));
  if (file === undefined) return undefined;
  const front = FRONTMATTER.exec(readFileSync(join(root, file), 'utf8'))?.[1];
  // Only a frontmatter that says `iteration:` is worth the YAML parser.
  if (front === undefined || !/^iteration\s*:/m.test(front)) return undefined;
  let parsed: unknown;
  try {
    parsed = parseYaml(front);
  } catch (error) {
    throw new AgentDefaultsError(`${file}: the frontmatter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const iteration = (parsed as { iteration?: unknown } | null)?.iteration;
  if (typeof iteration !== 'object' || iteration === null) throw new AgentDefaultsError(`${file}: its \`iteration:\` frontmatter is not a section of settings`);
  const it = iteration as Record<string, unknown>;
  if (it['enabled'] === false) throw new AgentDefaultsError(`${file} says iteration is not enabled for this agent`);
  const defaults: AgentIterationDefaults = { from: file };
  if (typeof it['maxIterations'] === 'number') defaults.maxIterations = it['maxIterations'];
  if (Array.isArray(it['completionPromises'])) defaults.completionPromises = it['completionPromises'].map(String);
  if (Array.isArray(it['validationRules'])) defaults.validationRules = it['validationRules'];
  return defaults;
}

/** From the agent's phase: a phase whose tests iterate gives the loop its limit, promises and test rule. */
function fromConfig(project: AgentProject, config: ProjectConfig, agent: string): AgentIterationDefaults {
  const phases = agentPhases(config.manifest, agent).filter((phase) => !PHASELESS_MARKERS.has(phase));
  if (phases.length === 0) {
    throw new AgentDefaultsError(
      `no defaults for agent "${agent}": the skills manifest gives it no phase, and ${project.agentDirs.map((dir) => `${dir}/${agent}.md`).join(' or ') || 'no agent definition'} has no \`iteration:\` frontmatter. ` +
        'Name the rules yourself (--rule "npm test").',
    );
  }
  for (const phase of phases) {
    const tests = effectivePhaseRequirements(config.iterationRequirements, phase)?.test_iteration;
    if (tests?.enabled !== true) continue;
    return {
      from: `iteration-requirements.json (phase ${phase})`,
      maxIterations: typeof tests.max_iterations === 'number' ? tests.max_iterations : 10,
      completionPromises: [...TEST_PHASE_PROMISES],
      validationRules: [...TEST_PHASE_RULES],
    };
  }
  throw new AgentDefaultsError(
    `no defaults for agent "${agent}": its phase${phases.length > 1 ? 's' : ''} (${phases.join(', ')}) ` +
      `${phases.length > 1 ? 'do' : 'does'} not iterate on tests (test_iteration is off in iteration-requirements.json). Name the rules yourself (--rule "...").`,
  );
}

export function agentIterationDefaults(project: AgentProject, agent: string): AgentIterationDefaults {
  if (!/^[A-Za-z0-9._-]+$/.test(agent)) throw new AgentDefaultsError(`"${agent}" is not an agent name`);
  return (
    fromAgentFile(project, agent) ?? fromConfig(project, new ProjectConfig(project.root, project.configDirs, project.projectId), normalizeAgentName(agent))
  );
}
