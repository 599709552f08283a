// Runs the guards registered for one event, in their fixed order: the first deny wins and ends the run,
// notes accumulate, state is read at most once (only if a guard looks) and written at most once.
import type { ProjectConfig } from '../config/project-config.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import type { StateLocation } from '../state/locate.js';
import type { IsdlcState } from '../state/schema.js';
import type { LockTakeover } from '../state/lock.js';
import type { CorruptStateReport, StateSnapshot } from '../state/store.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import type { HookEvent } from '../events/hook-event.js';
import { guardReactsTo, type Guard, type GuardContext } from './guard.js';
import { refusalAfterFailure } from './guard-failure.js';
import { boundStopHolds } from './stop-hold-cap.js';
import { emptyVerdict, type Verdict } from './verdict.js';

export interface DispatchInput {
  event: HookEvent;
  guards: readonly Guard[];
  location: StateLocation;
  config: ProjectConfig;
  guarded: GuardedSet;
  /** Whether the agent's shell is sandboxed in this project, as the host that sent the call judges it. */
  shellSandboxed: (root: string) => boolean;
  now?: Date;
  /** Decide, but change nothing on disk (no state write, no corrupt file set aside). */
  dryRun?: boolean;
}

export interface GuardFailure {
  guard: string;
  error: string;
}

export interface DispatchResult {
  verdict: Verdict;
  ran: string[];
  failures: GuardFailure[];
  details: Record<string, unknown>[];
  stateRead: boolean;
  stateWritten: boolean;
  /** A dry run that would have written state. */
  wouldWrite?: boolean;
  stateVersion?: number;
  corrupt?: CorruptStateReport;
  /** Locks on the state file set aside as abandoned while reading or writing it. */
  lockTakeovers: LockTakeover[];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function dispatch(input: DispatchInput): DispatchResult {
  const { event, location, config } = input;
  const verdict = emptyVerdict();
  const result: DispatchResult = { verdict, ran: [], failures: [], details: [], stateRead: false, stateWritten: false, lockTakeovers: [] };
  const selected = input.guards.filter((guard) => guardReactsTo(guard, event));
  if (selected.length === 0) return result;

  const store = new JournaledStateStore(location.stateFile, { onTakeover: (takeover) => result.lockTakeovers.push(takeover) });
  let state: IsdlcState | null = null;
  let snapshot: StateSnapshot | undefined;
  const readState = (): IsdlcState | null => {
    if (!result.stateRead) {
      result.stateRead = true;
      snapshot = store.read({ readOnly: input.dryRun === true });
      state = snapshot.state;
      result.stateVersion = snapshot.version;
      if (snapshot.corrupt) result.corrupt = snapshot.corrupt;
    }
    return state;
  };

  let sandboxed: boolean | undefined;
  const shellSandboxed = (): boolean => (sandboxed ??= input.shellSandboxed(location.root));

  const updates: ((draft: IsdlcState) => void)[] = [];
  for (const guard of selected) {
    const context: GuardContext = {
      event,
      get state() {
        return readState();
      },
      config,
      location,
      guarded: input.guarded,
      now: input.now ?? new Date(),
      shellSandboxed,
      dryRun: input.dryRun === true,
      deny(reason) {
        verdict.deny ??= { guard: guard.id, reason };
      },
      note(text) {
        verdict.notes.push(text);
      },
      tellUser(text) {
        verdict.userMessages.push(text);
      },
      rewriteInput(input) {
        verdict.updatedInput = input;
      },
      update(mutate) {
        updates.push(mutate);
      },
      log(detail) {
        result.details.push({ guard: guard.id, ...detail });
      },
    };
    result.ran.push(guard.id);
    try {
      guard.check(context);
    } catch (error) {
      // Fail open: a guard that throws is skipped, never allowed to block or crash the host's action;
      // unless the action writes isdlc's own files (guard-failure.ts).
      result.failures.push({ guard: guard.id, error: messageOf(error) });
      const refusal = verdict.deny ? undefined : refusalAfterFailure(guard.id, messageOf(error), event, location.root, input.guarded);
      if (refusal) {
        verdict.deny = { guard: guard.id, reason: refusal.reason };
        verdict.userMessages.push(refusal.userMessage);
      }
    }
    if (verdict.deny) break;
  }
  // Whatever held the end of a turn, isdlc holds it only so many times in a row with nothing done between.
  boundStopHolds({ event, verdict, isdlcDir: location.isdlcDir, log: (detail) => result.details.push(detail) });

  if (updates.length > 0 && input.dryRun) result.wouldWrite = true;
  else if (updates.length > 0) {
    try {
      // The state read for the guards is the draft, unless another process wrote in the meantime.
      const written = store.update(
        (draft) => {
          for (const mutate of updates) mutate(draft);
        },
        // Guards call update only to record something, so the no-change comparison is skipped.
        { alwaysWrite: true, ...(snapshot ? { basedOn: snapshot } : {}) },
      );
      result.stateWritten = written.written;
      result.stateVersion = written.version;
      if (written.corrupt) result.corrupt ??= written.corrupt;
    } catch (error) {
      result.failures.push({ guard: 'state-store', error: messageOf(error) });
    }
  }
  if (result.corrupt && !input.dryRun) {
    verdict.userMessages.push(
      `isdlc: ${result.corrupt.file} was unreadable (${result.corrupt.problem}). It is kept unchanged as ` +
        `${result.corrupt.keptAs}; isdlc carries on without it. Repair that copy and move it back to restore the workflow.`,
    );
  }
  return result;
}
