// A broken install fails closed for the workflow and open for work: the call that would move the
// workflow on is denied (isdlc cannot vouch for the evidence its gate would rest on), anything else goes
// ahead with a note for the model and a line for the person, both naming the repair.
import type { ProjectConfig } from '../config/project-config.js';
import { workflowAdvanceIn } from '../detect/workflow-advance.js';
import { installProblems, type InstallProblem } from '../integrity/install-integrity.js';
import { currentPhaseOf } from '../state/current-phase.js';
import type { StateLocation } from '../state/locate.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import type { HookEvent } from '../events/hook-event.js';
import type { Verdict } from './verdict.js';

export const INSTALL_GUARD_ID = 'install-integrity';
const PREFIX = `isdlc ${INSTALL_GUARD_ID}:`;

export interface InstallCheckInput {
  event: HookEvent;
  location: StateLocation;
  config: ProjectConfig;
  verdict: Verdict;
  monorepoProblem?: string;
  missingBundles?: readonly string[];
  /** Why the check of isdlc's files could not be made on this call. */
  tamperCheckFailed?: string;
  /** What displacedIsdlc found, when the caller has looked already (undefined: nothing is displaced). */
  displaced?: string | undefined;
}

function currentPhase(location: StateLocation, monorepoBroken: boolean): string | null {
  if (monorepoBroken) return null;
  try {
    return currentPhaseOf(new JournaledStateStore(location.stateFile).read({ readOnly: true }).state);
  } catch {
    return null;
  }
}

/** Adds what a broken install means for this call to the verdict; returns the problems found. */
export function checkInstall(input: InstallCheckInput): InstallProblem[] {
  const { event, location, verdict } = input;
  const problems = installProblems({
    root: location.root,
    isdlcDir: location.isdlcDir,
    ...(input.monorepoProblem ? { monorepoProblem: input.monorepoProblem } : { stateFile: location.stateFile }),
    ...(input.missingBundles ? { missingBundles: input.missingBundles } : {}),
    ...(input.tamperCheckFailed ? { tamperCheckFailed: input.tamperCheckFailed } : {}),
    ...('displaced' in input ? { displaced: input.displaced } : {}),
  });
  if (problems.length === 0) return problems;
  const what = problems.map((problem) => problem.what).join('; ');
  const repair = [...new Set(problems.map((problem) => problem.repair))].join('. ');
  const advance = verdict.deny ? null : workflowAdvanceIn(event, input.config, currentPhase(location, input.monorepoProblem !== undefined));
  if (advance) {
    verdict.deny = {
      guard: INSTALL_GUARD_ID,
      reason:
        `${PREFIX} Stop and ask the user to repair isdlc before the workflow moves on: ${repair}. ` +
        `isdlc is not whole in this project: ${what}. This call (${advance}) would move the workflow on, and while isdlc is broken nothing can vouch for the evidence that step rests on. ` +
        'Ordinary work goes on; this step will be denied again until the repair is done.',
    };
  } else {
    verdict.notes.push(
      `${PREFIX} isdlc is not whole in this project: ${what}. This call goes ahead, but isdlc's checks may be missing, and any step that moves the workflow on is refused until a person repairs it: ${repair}. Tell the user.`,
    );
  }
  verdict.userMessages.push(
    `isdlc is broken in this project: ${what}. The agent's ordinary work goes on, but the workflow cannot move on until you repair it: ${repair}.`,
  );
  return problems;
}
