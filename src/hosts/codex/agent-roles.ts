// The phase agents as Codex roles: one `.codex/agents/<agent>.toml` per agent of the skills manifest, and
// the independent reviewer. Codex offers each file's `name` as an `agent_type` of spawn_agent and gives the
// subagent its `developer_instructions` first; the payloads of that subagent then carry the name as
// `agent_type`, which is how the guards know which agent works. Installed through init's files, so a role
// the person edited is theirs and stays.
import { DEFAULT_REVIEWER } from '../../config/agents.js';
import type { ProjectConfig } from '../../config/project-config.js';
import { bulleted, phaseAgentGuide, phaseAgents, reviewerDuties, type HostWords } from '../../install/agent-guide.js';

export const ROLES_DIR = '.codex/agents';

/** Codex's agents read with the shell and change files with apply_patch, the one way isdlc sees a change. */
export const CODEX_WORDS: HostWords = {
  shell: 'your shell',
  changingFiles:
    "Change files with apply_patch: isdlc counts a patch as your phase's work, and cannot see what a shell command writes. Run tests and read files with the shell.",
};

const HEADER = "# isdlc agent role (written by `isdlc init` from the project's config; `isdlc uninstall` removes it while unchanged)";

/** A TOML multi-line basic string. */
function tomlText(text: string): string {
  return `"""\n${text.replace(/\\/g, '\\\\').replace(/"""/g, '""\\"')}"""`;
}

function role(name: string, description: string, instructions: string): string {
  return `${HEADER}\nname = ${JSON.stringify(name)}\ndescription = ${JSON.stringify(description)}\ndeveloper_instructions = ${tomlText(instructions)}\n`;
}

function phaseRole(config: ProjectConfig, agent: string, phases: string[]): string {
  const { duties, promises } = phaseAgentGuide(config, agent, phases, CODEX_WORDS);
  const text = `You are the ${agent} of an isdlc workflow, working in phase ${phases.join(' / ')}. isdlc's tools are in the namespace \`mcp__isdlc\` (tool search finds them).\n\n${bulleted(duties)}${promises ? `\n\n${promises}` : ''}\n`;
  return role(agent, `isdlc phase agent for ${phases.join(', ')}.`, text);
}

/**
 * The reviewer changes nothing: a run that changed files in the phase is no review of it (the gate says
 * so), and its checks count only once it has printed every file the phase changed.
 */
function reviewerRole(): string {
  const read = 'print each with the shell: `cat`, `sed -n`, `nl`, `head` or `tail` on the file itself';
  const text = `You review the work of the current isdlc phase; someone else did it. You change nothing: no apply_patch, no command that writes. isdlc's tools are in the namespace \`mcp__isdlc\` (tool search finds them).\n\n${bulleted(reviewerDuties(read))}\n`;
  return role(
    DEFAULT_REVIEWER,
    "Reviews a phase's work against the constitution's articles and records each check; use it when a gate asks for an independent review.",
    text,
  );
}

/** Every role file to install, by path relative to the project root. */
export function roleFiles(config: ProjectConfig): Record<string, string> {
  const files: Record<string, string> = { [`${ROLES_DIR}/${DEFAULT_REVIEWER}.toml`]: reviewerRole() };
  for (const [agent, phases] of phaseAgents(config)) files[`${ROLES_DIR}/${agent}.toml`] = phaseRole(config, agent, phases);
  return files;
}
