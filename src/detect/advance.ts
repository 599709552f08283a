// Attempts to move a workflow on: asking the orchestrator to advance or pass a gate, running the `isdlc`
// skill with advance or gate, or handing work to another phase's agent. Only the orchestrator and the
// isdlc skill can move a workflow, so words like "proceed" in an ordinary subagent's prompt are work,
// not an attempt; and a delegation to the current phase's own agent is work.
import type { SkillsManifest } from '../config/schemas.js';
import type { HookEvent } from '../events/hook-event.js';
import { ADVANCE_KEYWORDS, isWorkflowSkill, skillArgsNeverAdvance } from './advance-words.js';
import { agentPhases, normalizeAgentName } from '../config/agents.js';
import { detectPhaseDelegation, type DelegationContext } from './phase-delegation.js';
import { isSetupCommand } from './setup-commands.js';

/** The gate keywords: asking to advance or to pass the gate. */
export const GATE_KEYWORDS = /\b(?:advance|gate|next\s+phase|proceed|move\s+to\s+phase|progress\s+to)\b/i;
/** The corridor's wider set, which adds delegate, hand off and declare complete. */
export { ADVANCE_KEYWORDS };
/** Phase-completion phrases: what triggers the constitution-validator. */
export const COMPLETION_PHRASES =
  /\b(?:phase\s+(?:\d+\s+)?(?:is\s+)?(?:complete|completed|done|finished)|ready\s+for\s+(?:the\s+)?gate|gate\s+validation|submit\s+for\s+review|finali[sz]e\s+artifacts|declare\s+complete|mark\s+(?:it\s+|the\s+phase\s+)?as\s+complete|(?:implementation|testing|requirements|design|architecture)\s+(?:is\s+)?complete)\b/i;

export type AdvanceAttempt =
  { kind: 'orchestrator'; text: string } | { kind: 'skill'; text: string } | { kind: 'other-phase-agent'; agent: string | null; targetPhase: string };

function isOrchestrator(manifest: SkillsManifest, subagentType: string): boolean {
  const name = normalizeAgentName(subagentType);
  const phases = agentPhases(manifest, name);
  if (phases.length > 0) return phases.includes('all');
  return name.includes('orchestrator') && name !== '';
}

function inputText(event: HookEvent): { subagentType: string; text: string } {
  const input = event.tool?.input ?? {};
  const str = (key: string): string => (typeof input[key] === 'string' ? input[key] : '');
  return { subagentType: str('subagent_type'), text: `${str('description')}\n${str('prompt')}\n${str('args')}` };
}

/** A Skill call to the workflow skill whose arguments match `words` (and are not a setup command, an add, an analyze or a gate check). */
export function workflowSkillCall(event: HookEvent, words: RegExp): string | null {
  if (event.tool?.kind !== 'skill') return null;
  const input = event.tool.input;
  const skill = typeof input['skill'] === 'string' ? input['skill'] : '';
  const args = typeof input['args'] === 'string' ? input['args'] : '';
  if (!isWorkflowSkill(skill) || isSetupCommand(args) || isSetupCommand(`/isdlc ${args}`) || skillArgsNeverAdvance(args)) return null;
  return words.test(args) ? args : null;
}

/** An orchestrator call whose text matches `words` (and is not a setup command). */
export function orchestratorCall(event: HookEvent, manifest: SkillsManifest, words: RegExp): string | null {
  if (event.tool?.kind !== 'agent') return null;
  const { subagentType, text } = inputText(event);
  if (!subagentType || !isOrchestrator(manifest, subagentType) || isSetupCommand(text)) return null;
  return words.test(text) ? text.trim() : null;
}

export function detectAdvanceAttempt(event: HookEvent, context: DelegationContext, words: RegExp = ADVANCE_KEYWORDS): AdvanceAttempt | null {
  const skill = workflowSkillCall(event, words);
  if (skill !== null) return { kind: 'skill', text: skill };
  const orchestrator = orchestratorCall(event, context.manifest, words);
  if (orchestrator !== null) return { kind: 'orchestrator', text: orchestrator };
  const delegation = detectPhaseDelegation(event, context);
  if (delegation.isDelegation && delegation.targetPhase && delegation.targetPhase !== context.currentPhase) {
    return { kind: 'other-phase-agent', agent: delegation.agentName, targetPhase: delegation.targetPhase };
  }
  return null;
}
