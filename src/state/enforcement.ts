// `iteration_enforcement.enabled: false` in state (written `true` by `isdlc init`): the person has switched
// iteration enforcement off, as in the JavaScript framework, whose test watcher, gate blocker, iteration
// corridor, constitution validator and menu tracker all stood down on it. Only `false` counts: a missing
// field or block leaves enforcement on. The field is protected (hand-edit-review.ts, the journal), so the
// only way it becomes false is a person's own edit, accepted with `isdlc changes accept`.
import type { IsdlcState } from './schema.js';

export function iterationEnforcementOff(state: IsdlcState | null | undefined): boolean {
  const block = state?.iteration_enforcement;
  return typeof block === 'object' && block !== null && block.enabled === false;
}

/** What the gate and the guards say when they stand down on it. */
export const ENFORCEMENT_OFF_DETAIL =
  'iteration enforcement is off in this project (iteration_enforcement.enabled is false in .isdlc/state.json): ' +
  'tests, constitutional validation, elicitation, delegation and artifacts are not required at the gate';
