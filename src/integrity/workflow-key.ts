// Which workflow an incident belongs to: `<type>@<started_at>` of the active workflow.
import { activeWorkflowOf } from '../state/current-phase.js';
import type { IsdlcState } from '../state/schema.js';

export function workflowKeyOf(state: IsdlcState | null): string | undefined {
  const workflow = state ? activeWorkflowOf(state) : undefined;
  return workflow ? `${String(workflow.type)}@${String(workflow.started_at)}` : undefined;
}
