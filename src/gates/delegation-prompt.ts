// The prompt a phase agent is delegated with: the artifact folder and phase key, the workflow's
// modifiers for the phase, discovery context for phases 02 and 03 (flagged when older than a day), the
// GATE REQUIREMENTS block, and the gate to validate. A part that is empty is left out, with no blank
// lines in its place.
import type { ProjectConfig } from '../config/project-config.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import type { IsdlcState } from '../state/schema.js';
import { asRecord as obj, type JsonRecord as Json } from '../util/json.js';
import { buildGateRequirementsBlock } from './requirements-block.js';

export const DISCOVERY_STALE_MS = 24 * 3600_000;

/** The phase's agent modifiers as they apply: the ATDD ones only in ATDD mode. */
function modifiersFor(config: ProjectConfig, workflow: Json, phase: string): Json {
  const all = obj(obj(obj(obj(config.workflows.workflows)[String(workflow['type'])])['agent_modifiers'])[phase]);
  const applied: Json = {};
  for (const [key, value] of Object.entries(all)) {
    if (key === '_when_atdd_mode') {
      if (workflow['atdd_mode'] === true) Object.assign(applied, obj(value));
    } else if (!key.startsWith('_')) applied[key] = value;
  }
  return applied;
}

function discoveryPart(state: IsdlcState, phase: string, now: Date): string {
  if (!/^0[23]-/.test(phase)) return '';
  const discovery = obj(state['discovery_context']);
  if (Object.keys(discovery).length === 0) return '';
  const lines = [`Discovery context: ${JSON.stringify(discovery)}`];
  const at = [discovery['completed_at'], discovery['updated_at'], discovery['generated_at']]
    .map((v) => (typeof v === 'string' ? Date.parse(v) : NaN))
    .find(Number.isFinite);
  if (at !== undefined && now.getTime() - at > DISCOVERY_STALE_MS) {
    lines.push(`(The discovery context is ${Math.floor((now.getTime() - at) / 3600_000)} hours old and may be stale: check what it says against the code.)`);
  }
  return lines.join('\n');
}

export function buildDelegationPrompt(input: { state: IsdlcState; config: ProjectConfig; phase: string; now: Date }): string {
  const workflow = obj(activeWorkflowOf(input.state));
  const folder = typeof workflow['artifact_folder'] === 'string' ? workflow['artifact_folder'] : '';
  const modifiers = modifiersFor(input.config, workflow, input.phase);
  const head = [
    `Artifact folder: ${folder}`,
    `Phase: ${input.phase}`,
    ...(Object.keys(modifiers).length > 0 ? [`Workflow modifiers: ${JSON.stringify(modifiers)}`] : []),
  ].join('\n');
  const block = buildGateRequirementsBlock({
    phaseKey: input.phase,
    artifactFolder: folder,
    config: input.config,
    ...(typeof workflow['type'] === 'string' ? { workflowType: workflow['type'] } : {}),
  });
  const gate = `Validate GATE-${input.phase.slice(0, 2)} on completion.`;
  return [head, discoveryPart(input.state, input.phase, input.now), block, gate].filter((part) => part !== '').join('\n\n');
}
