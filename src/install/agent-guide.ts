// What every host's agent-facing files say about isdlc's workflow, generated from the project's config so
// names, phases and limits cannot drift from what the guards enforce: which agent works in which phase, what
// a phase agent must do for its gate, and what the independent reviewer does. Each host words the parts
// that name its own tools (how its shell is called, how its agents change and read files) and puts the text
// in its own files (src/hosts/<host>/).
import { artifactTemplatesFor } from '../config/artifacts.js';
import { knownPhaseKeys } from '../config/phases.js';
import type { ProjectConfig } from '../config/project-config.js';
import { effectivePhaseRequirements } from '../config/requirements.js';
import { DEFAULT_REVIEWER, phaseAgent } from '../config/agents.js';
import { toolRef } from '../config/agent-operations.js';

/** How a host's agents do what the guide asks. */
export interface HostWords {
  /** The agent's shell, as the guide names it: `the Bash tool`, `your shell`. */
  shell: string;
  /** What a phase agent must know about changing files on this host, if anything. */
  changingFiles?: string;
}

const T = toolRef;

/** Once the host's sandbox holds the shell it cannot write `.isdlc/`; said up front, it saves the agent a failed try. */
export function neverByHand(words: HostWords): string {
  return `Never write \`.isdlc/\` yourself, nor change it by running \`isdlc\` with ${words.shell}: your shell cannot write there, and isdlc refuses hand edits of its state.`;
}

/** Each phase agent of the skills manifest with the phases it works in, in the order of the phases. */
export function phaseAgents(config: ProjectConfig): Map<string, string[]> {
  const phasesOf = new Map<string, string[]>();
  for (const phase of knownPhaseKeys(config)) {
    const agent = phaseAgent(config.manifest, phase);
    if (agent && /^[a-z0-9-]+$/.test(agent)) phasesOf.set(agent, [...(phasesOf.get(agent) ?? []), phase]);
  }
  return phasesOf;
}

export interface PhaseAgentGuide {
  /** What the agent does, one item each. */
  duties: string[];
  /** How it ends its report when its phase runs the tests ('' otherwise). */
  promises: string;
}

/** What the agent of `phases` must do so that their gates open: their artifacts, the tests, the articles. */
export function phaseAgentGuide(config: ProjectConfig, agent: string, phases: string[], words: HostWords): PhaseAgentGuide {
  const testing = phases
    .map((phase) => effectivePhaseRequirements(config.iterationRequirements, phase)?.test_iteration)
    .find((tests) => tests?.enabled === true);
  const artifacts = phases.flatMap((phase) => artifactTemplatesFor(config.artifactPaths, phase));
  const constitutional = phases.some((phase) => effectivePhaseRequirements(config.iterationRequirements, phase)?.constitutional_validation?.enabled === true);
  const independent = phases.every(
    (phase) => effectivePhaseRequirements(config.iterationRequirements, phase)?.constitutional_validation?.independent_review === true,
  );
  const duties = [
    'Your delegation prompt names the artifact folder and ends with the GATE REQUIREMENTS of your phase: plan your work to meet every one of them the first time.',
    ...(words.changingFiles ? [words.changingFiles] : []),
    ...(artifacts.length > 0
      ? [`Write what the gate expects: ${artifacts.map((path) => `\`${path}\``).join(', ')} ({artifact_folder} is in your prompt).`]
      : []),
    ...(testing
      ? [
          `Hold yourself to an iteration loop before you change code: ${T('loop_start')} with agent "${agent}", rules ["<the command that runs this project's tests>"] and the task as prompt. From then on your turn ends only when its rules pass and your final message declares completion (or you declare BLOCKED); each time it does not, you are told what still fails.`,
          'Run the tests in the foreground with their output visible; isdlc records each run and tells you where you stand.',
        ]
      : []),
    ...(constitutional
      ? independent
        ? [
            `Your phase's constitutional articles are checked by a reviewer (${DEFAULT_REVIEWER}), not by you: your own records do not count. Say in your report which files you changed.`,
          ]
        : [`Record each constitutional article you check: ${T('constitution_record')} (article, result compliant or violation, note).`]
      : []),
    `Before you report back, call ${T('gate_check')} and say what it shows.`,
    `${neverByHand(words)} Leave commits to the end of the workflow.`,
  ];
  const promises = testing
    ? 'When the work is done and the tests pass, end with `<promise>COMPLETE</promise>`; when something outside your reach stops you, end with `<promise>BLOCKED</promise>` and the reason.'
    : '';
  return { duties, promises };
}

/** What the independent reviewer does; `read` is how it reads a file on this host. */
export function reviewerDuties(read: string): string[] {
  return [
    `${T('gate_check')} names the articles this phase needs and the files the phase changed.`,
    `Read every one of those files (${read}) and whatever else you need to judge them. A check recorded without reading what changed does not count.`,
    `Record each article with ${T('constitution_record')}: compliant, or violation with what is wrong and where. Say violation when it is one; the phase's agent fixes it and you review again.`,
    'Report back which articles you recorded, and how.',
  ];
}

export function bulleted(items: readonly string[]): string {
  return items.map((item) => `- ${item}`).join('\n');
}
