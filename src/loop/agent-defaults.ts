// `isdlc loop start --agent NAME`: the loop's defaults come from the agent's `iteration:` frontmatter
// (seed 004 §2.3) in `.claude/agents/NAME.md`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseYaml } from '../config/yaml.js';

export interface AgentIterationDefaults {
  file: string;
  maxIterations?: number;
  completionPromises?: string[];
  validationRules?: unknown[];
}

export class AgentDefaultsError extends Error {}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function agentIterationDefaults(root: string, agent: string): AgentIterationDefaults {
  if (!/^[A-Za-z0-9._-]+$/.test(agent)) throw new AgentDefaultsError(`"${agent}" is not an agent name`);
  const file = join('.claude', 'agents', `${agent}.md`);
  if (!existsSync(join(root, file))) throw new AgentDefaultsError(`no agent definition ${file} in this project`);
  const match = FRONTMATTER.exec(readFileSync(join(root, file), 'utf8'));
  if (!match) throw new AgentDefaultsError(`${file} has no frontmatter, so no iteration defaults`);
  let front: unknown;
  try {
    front = parseYaml(match[1]!);
  } catch (error) {
    throw new AgentDefaultsError(`${file}: the frontmatter is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const iteration = (front as { iteration?: unknown } | null)?.iteration;
  if (typeof iteration !== 'object' || iteration === null) throw new AgentDefaultsError(`${file} has no \`iteration:\` section in its frontmatter`);
  const it = iteration as Record<string, unknown>;
  if (it['enabled'] === false) throw new AgentDefaultsError(`${file} says iteration is not enabled for this agent`);
  const defaults: AgentIterationDefaults = { file };
  if (typeof it['maxIterations'] === 'number') defaults.maxIterations = it['maxIterations'];
  if (Array.isArray(it['completionPromises'])) defaults.completionPromises = it['completionPromises'].map(String);
  if (Array.isArray(it['validationRules'])) defaults.validationRules = it['validationRules'];
  return defaults;
}
