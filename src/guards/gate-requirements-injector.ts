// The GATE REQUIREMENTS block reaches a phase agent even when the orchestrating model forgot to include
// it. Runs last among the tool-call guards, so only a delegation nothing denied is touched; the prompt
// is kept as written and the block appended once.
import { workflowDelegationOf } from '../detect/phase-delegation.js';
import { defineGuard } from '../engine/guard.js';
import { injectionEnabled } from '../gates/injection-settings.js';
import { BLOCK_TITLE, blockForWorkflow } from '../gates/requirements-block.js';
import { phaseStatusOf } from '../state/phase-records.js';
import { toolRef } from '../config/agent-operations.js';

export const gateRequirementsInjector = defineGuard({
  id: 'gate-requirements-injector',
  description: "Appends the phase's GATE REQUIREMENTS block to a phase delegation prompt that lacks it.",
  on: { PreToolUse: ['agent'] },
  check({ event, state, config, rewriteInput, note, log }) {
    const input = event.tool!.input;
    const prompt = input['prompt'];
    if (typeof prompt !== 'string' || prompt.includes(`${BLOCK_TITLE} (Phase:`)) return;
    const found = workflowDelegationOf(event, state, config);
    if (!found || found.target !== found.current || phaseStatusOf(state, found.current) !== 'in_progress') return;
    const { workflow, current } = found;
    if (!injectionEnabled(config, 'delegation_prompt')) return;
    const block = blockForWorkflow(config, workflow, current);
    if (!block) return;
    rewriteInput({ ...input, prompt: `${prompt.replace(/\s+$/, '')}\n\n${block}` });
    log({ injected: current });
    note(
      `isdlc: the GATE REQUIREMENTS of ${current} were appended to this delegation's prompt (${toolRef('delegation_prompt')} gives the whole prompt to use next time).`,
    );
  },
});
