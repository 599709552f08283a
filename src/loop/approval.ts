// Whose word a loop's command rules run on. Where an OS sandbox holds them, nobody's is needed: isdlc's
// files are read-only to them. Where none can, a rule is a program the Stop hook or the MCP server runs
// with every right isdlc has, so one an agent set runs only once a person approved it (`isdlc loop
// approve`); a person who started the loop in their own terminal approved its rules by doing so.
//
// A loop that waits for approval is not validated at all: its command rules cannot pass, and counting
// each Stop as a failed iteration would trip the circuit breaker, and end the loop, in the minute before
// anyone could approve. So a Stop lets the turn end and tells the person, and iteration_validate refuses
// and says what to ask for.
import type { OsSandboxSupport } from '../sandbox/os-sandbox.js';
import { describeCommand } from './describe.js';
import { approvalNeeded } from './rules/command-sandbox.js';
import type { Loop } from './store.js';
import type { CommandRule, ValidationContext } from './types.js';

type LoopRules = Pick<Loop, 'id' | 'config' | 'rulesApprovedBy' | 'rulesApprovedAt'>;

/** The command rules of the loop, as a person would read them. */
export function commandRuleList(loop: Pick<Loop, 'config'>): string[] {
  return loop.config.validationRules
    .filter((rule): rule is CommandRule => rule.type === 'command' && rule.enabled)
    .map((rule) => `\`${describeCommand(rule.command, 60)}\``);
}

/** What the rules see of the loop when they run. */
export function ruleContext(loop: LoopRules): NonNullable<ValidationContext['loop']> {
  return { id: loop.id, approvedByPerson: loop.rulesApprovedAt !== null };
}

/** The loop has command rules no person vouched for: whether they may run depends on the sandbox. */
export function unvouched(loop: LoopRules): boolean {
  return loop.rulesApprovedAt === null && commandRuleList(loop).length > 0;
}

/** The loop has command rules that cannot run here: no OS sandbox, and no person's approval. */
export function awaitingApproval(loop: LoopRules, sandbox: OsSandboxSupport): boolean {
  return !sandbox.ok && unvouched(loop);
}

const whyNoSandbox = (sandbox: OsSandboxSupport): string => (sandbox.ok ? '' : `no OS sandbox here (${sandbox.why})`);

/** For the person at a Stop that was let through because the loop waits. */
export function waitingForPersonMessage(loop: LoopRules, sandbox: OsSandboxSupport): string {
  return (
    `isdlc: loop ${loop.id} waits for your approval before its command rules run (${commandRuleList(loop).join(', ')}): ` +
    `${whyNoSandbox(sandbox)}, and the agent set them. If they may run with your rights, run \`isdlc loop approve ${loop.id}\` ` +
    'in your own terminal, then ask the agent to go on. Until then its stops are not validated.' +
    (!sandbox.ok && sandbox.install ? ` Or install the sandbox (\`${sandbox.install}\`): rules run in it without approval.` : '')
  );
}

/** For the agent, whose validation was refused because the loop waits. */
export function waitingForAgentMessage(loop: LoopRules, sandbox: OsSandboxSupport): string {
  return (
    `Loop ${loop.id}: its command rules (${commandRuleList(loop).join(', ')}) are ${approvalNeeded(loop.id)}, which you cannot do: ` +
    `${whyNoSandbox(sandbox)} to keep them off isdlc's files. Ask the person to run \`isdlc loop approve ${loop.id}\` in their own ` +
    'terminal, then validate again. Nothing was run or recorded.'
  );
}

/** Said when a loop starts that will wait, so the agent can ask the person at once. Empty when it will not. */
export function approvalNote(loop: LoopRules, sandbox: OsSandboxSupport): string {
  if (!awaitingApproval(loop, sandbox)) return '';
  return ` Its command rules run only after a person approves them (${whyNoSandbox(sandbox)}): ask the person to run \`isdlc loop approve ${loop.id}\` in their own terminal.`;
}

/**
 * One line for `isdlc loop status`: how the command rules run here. Undefined for a loop without any.
 * `insideAgent`: asked from the agent's shell, whose own failure to start a sandbox says nothing of the
 * hooks' (Claude Code's sandbox forbids a nested one).
 */
export function commandRulesStatus(loop: LoopRules, sandbox: OsSandboxSupport, insideAgent = false): string | undefined {
  if (commandRuleList(loop).length === 0) return undefined;
  if (sandbox.ok) return `command rules run in an OS sandbox (${sandbox.kind}) where isdlc's files are read-only`;
  if (loop.rulesApprovedAt !== null)
    return `command rules run without an OS sandbox (${sandbox.why}), approved by ${loop.rulesApprovedBy ?? 'a person'} at ${loop.rulesApprovedAt}`;
  if (insideAgent) {
    return `command rules set by the agent: they run in an OS sandbox where isdlc's hooks can start one, else they wait for a person's \`isdlc loop approve ${loop.id}\``;
  }
  return `command rules ${approvalNeeded(loop.id)}: ${whyNoSandbox(sandbox)}, and an agent set them`;
}
