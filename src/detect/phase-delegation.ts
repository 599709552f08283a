// Is this subagent call a phase delegation, and to which phase? Structured signals first (the
// `subagent_type` the host passes), text heuristics last and narrow.
import { normalizePhaseKey } from '../config/phase-keys.js';
import { knownPhaseKeys } from '../config/phases.js';
import type { ProjectConfig } from '../config/project-config.js';
import type { SkillsManifest } from '../config/schemas.js';
import type { HookEvent } from '../events/hook-event.js';
import { activeWorkflowOf, currentPhaseOf } from '../state/current-phase.js';
import type { ActiveWorkflow, IsdlcState } from '../state/schema.js';
import { agentPhases, normalizeAgentName, PHASELESS_MARKERS } from '../config/agents.js';
import { isSetupCommand } from './setup-commands.js';

export interface PhaseDelegation {
  isDelegation: boolean;
  targetPhase: string | null;
  agentName: string | null;
  /** What the decision rests on, for logs and messages. */
  signal: 'subagent_type' | 'agent-name-in-text' | 'phase-key-in-text' | 'none';
}

const NOT_A_DELEGATION: PhaseDelegation = { isDelegation: false, targetPhase: null, agentName: null, signal: 'none' };

export interface DelegationContext {
  manifest: SkillsManifest;
  /** Phase keys that exist (from iteration-requirements); text mentions of anything else are ignored. */
  knownPhases: () => ReadonlySet<string>;
  /** An agent that owns several phases is taken to target the current one when it is among them. */
  currentPhase?: string | null;
}

function pickPhase(phases: string[], currentPhase: string | null | undefined): string | null {
  const current = normalizePhaseKey(currentPhase);
  if (current && phases.includes(current)) return current;
  return phases[0] ?? null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function mentions(text: string, word: string): boolean {
  return new RegExp(`(?<![\\w-])${escapeRegExp(word)}(?![\\w-])`, 'i').test(text);
}

/**
 * Several guards judge the same subagent call in one hook run: the answer is kept per event, for the
 * manifest and current phase it was given (one project's config per run, so its known phases agree).
 */
const judged = new WeakMap<HookEvent, { manifest: SkillsManifest; currentPhase: string | null | undefined; result: PhaseDelegation }[]>();

export function detectPhaseDelegation(event: HookEvent, context: DelegationContext): PhaseDelegation {
  const seen = judged.get(event) ?? [];
  const known = seen.find((entry) => entry.manifest === context.manifest && entry.currentPhase === context.currentPhase);
  if (known) return known.result;
  const result = judge(event, context);
  seen.push({ manifest: context.manifest, currentPhase: context.currentPhase, result });
  judged.set(event, seen);
  return result;
}

function judge(event: HookEvent, context: DelegationContext): PhaseDelegation {
  if (event.tool?.kind !== 'agent') return NOT_A_DELEGATION;
  const input = event.tool.input;
  const subagentType = typeof input['subagent_type'] === 'string' ? input['subagent_type'] : '';
  const prompt = typeof input['prompt'] === 'string' ? input['prompt'] : '';
  const description = typeof input['description'] === 'string' ? input['description'] : '';

  if (subagentType) {
    const agentName = normalizeAgentName(subagentType);
    const phases = agentPhases(context.manifest, agentName);
    if (phases.length > 0) {
      const phaseful = phases.filter((phase) => !PHASELESS_MARKERS.has(phase));
      if (phaseful.length === 0) return NOT_A_DELEGATION; // orchestrator or setup agent
      return { isDelegation: true, targetPhase: pickPhase(phaseful, context.currentPhase), agentName, signal: 'subagent_type' };
    }
  }

  // No manifest agent named structurally: look at the words, but never for setup commands.
  if (isSetupCommand(description) || isSetupCommand(prompt)) return NOT_A_DELEGATION;
  const text = `${description}\n${prompt}`;
  for (const agentName of Object.keys(context.manifest.ownership)) {
    const phaseful = agentPhases(context.manifest, agentName).filter((phase) => !PHASELESS_MARKERS.has(phase));
    if (phaseful.length > 0 && mentions(text, agentName)) {
      return { isDelegation: true, targetPhase: pickPhase(phaseful, context.currentPhase), agentName, signal: 'agent-name-in-text' };
    }
  }
  // A bare phase key in prose ("see the 06-implementation notes") is not enough: it must be named as a phase.
  for (const match of text.matchAll(/\bphase\s*[:=]?\s*[`'"]?(\d{2}-[a-z]+(?:-[a-z]+)*)(?![\w-])/gi)) {
    const phase = normalizePhaseKey(match[1]!.toLowerCase());
    if (context.knownPhases().has(phase)) {
      return { isDelegation: true, targetPhase: phase, agentName: null, signal: 'phase-key-in-text' };
    }
  }
  return NOT_A_DELEGATION;
}

/** detectPhaseDelegation with the project's manifest and phases, as the guards judge a subagent call. */
export function delegationFor(event: HookEvent, config: ProjectConfig, currentPhase: string | null): PhaseDelegation {
  return detectPhaseDelegation(event, { manifest: config.manifest, knownPhases: () => knownPhaseKeys(config), currentPhase });
}

/** A phase delegation made while a workflow is active: the workflow, its current phase, and the target. */
export interface WorkflowDelegation {
  workflow: ActiveWorkflow;
  current: string;
  target: string;
  agentName: string | null;
}

export function workflowDelegationOf(event: HookEvent, state: IsdlcState | null, config: ProjectConfig): WorkflowDelegation | null {
  const workflow = activeWorkflowOf(state);
  const current = currentPhaseOf(state);
  if (!workflow || !current) return null;
  const delegation = delegationFor(event, config, current);
  if (!delegation.isDelegation || !delegation.targetPhase) return null;
  return { workflow, current, target: delegation.targetPhase, agentName: delegation.agentName };
}
