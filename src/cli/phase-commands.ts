// phase activate / complete / skip / review and escalations: the phase handshake as commands, each one
// locked read-validate-write through the store (seed 003 STEP 3c-prime and 3e).
import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { ProjectConfig } from '../config/project-config.js';
import type { Escalation } from '../state/escalations.js';
import { StateStore } from '../state/store.js';
import { activatePhase } from '../workflow/activate.js';
import { completePhase, skipPhase, type CompleteResult } from '../workflow/complete.js';
import { decideReview, REVIEW_DECISIONS, type ReviewDecision } from '../workflow/review.js';
import { dirOption, io, json, projectLocation, projectOption, refuseInsideAgent, UsageError, type LocationOptions } from './shared.js';

type JsonOption = { json?: boolean };

function afterCompletion(result: CompleteResult): string {
  const lines: string[] = [];
  if (result.reviewRequested) {
    lines.push(
      `This is a supervised workflow: ${result.phase} now waits for a person's review. Show the user what the phase produced; ` +
        'they choose continue (`isdlc phase review continue`, in their own terminal), review, or redo.',
    );
  } else if (result.next) lines.push(`Next: \`isdlc phase activate\` starts ${result.next}.`);
  if (!result.next) lines.push('Every phase is completed: run `isdlc workflow finalize`.');
  return lines.join('\n');
}

function escalationLines(queue: Escalation[]): string[] {
  return queue.map((entry, i) => `  ${i + 1}. [${entry.timestamp}] ${entry.hook} (${entry.type}${entry.phase ? `, phase ${entry.phase}` : ''}): ${entry.detail}`);
}

export function registerPhaseCommands(program: Command): void {
  const phase = program.command('phase').description('the phase handshake: activate a phase before delegating to its agent, complete it through its gate');

  phase
    .command('activate')
    .description('make the phase the workflow has reached the current one, in every place state tracks it, before delegating to its agent')
    .argument('[phase]', 'the phase key, as a check (default: the phase the workflow has reached)')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the result as JSON')
    .action((wanted: string | undefined, options: LocationOptions & JsonOption) => {
      const location = projectLocation(options);
      const config = new ProjectConfig(location.root, location.projectId);
      const { result, version, state } = new StateStore(location.stateFile).update((draft) =>
        activatePhase(draft, config, { now: new Date(), ...(wanted ? { phase: wanted } : {}) }),
      );
      if (options.json) {
        io.out(json({ ...result, state_version: version }));
        return;
      }
      io.out(
        `${result.retry ? `Re-activated (retry ${result.retries})` : 'Activated'} phase ${result.phase} (${result.index + 1} of ${result.total})` +
          `${result.agent ? `; its agent is ${result.agent}` : ''}. Started ${result.startedAt}.\n`,
      );
      const queue = (Array.isArray(state.pending_escalations) ? state.pending_escalations : []) as Escalation[];
      if (queue.length > 0) {
        io.out(`Open escalations (${queue.length}); decide with the user: retry (\`isdlc escalations --clear\`), skip (a person runs \`isdlc phase skip\`), or cancel (\`isdlc workflow cancel\`):\n${escalationLines(queue).join('\n')}\n`);
      }
    });

  phase
    .command('complete')
    .description("mark the current phase completed, if its gate is open; the next phase is not started (that is `phase activate`'s job)")
    .option('--summary <text>', 'what the phase produced (kept to 150 characters)')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the result as JSON')
    .action((options: LocationOptions & JsonOption & { summary?: string }) => {
      const location = projectLocation(options);
      const config = new ProjectConfig(location.root, location.projectId);
      const { result, version } = new StateStore(location.stateFile).update((draft) =>
        completePhase(draft, config, { now: new Date(), root: location.root, docsBase: location.docsBase, ...(options.summary !== undefined ? { summary: options.summary } : {}) }),
      );
      if (options.json) {
        io.out(json({ ...result, state_version: version }));
        return;
      }
      const minutes = result.wallClockMinutes !== undefined ? ` in ${result.wallClockMinutes} min` : '';
      io.out(`Completed phase ${result.phase}${minutes}: its gate is open.\n${afterCompletion(result)}\n`);
    });

  phase
    .command('skip')
    .description("a person's override: mark the current phase completed although its gate is closed, and clear the escalations")
    .requiredOption('--reason <text>', 'why the gate is overridden')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the result as JSON')
    .action((options: LocationOptions & JsonOption & { reason: string }) => {
      refuseInsideAgent('phase skip');
      if (!options.reason.trim()) throw new UsageError('--reason must say why the gate is overridden');
      const location = projectLocation(options);
      const { result, version } = new StateStore(location.stateFile).update((draft) =>
        skipPhase(draft, { reason: options.reason.trim(), by: userInfo().username, now: new Date() }),
      );
      if (options.json) io.out(json({ ...result, state_version: version }));
      else io.out(`Skipped phase ${result.phase} (gate overridden, recorded with your reason).\n${afterCompletion(result)}\n`);
    });

  phase
    .command('review')
    .description(`supervised workflows: decide on the phase waiting for review (${REVIEW_DECISIONS.join(' | ')}); continue is for people only`)
    .argument('<decision>', REVIEW_DECISIONS.join(' | '))
    .option('--note <text>', 'what the reviewer said')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the result as JSON')
    .action((decision: string, options: LocationOptions & JsonOption & { note?: string }) => {
      if (!(REVIEW_DECISIONS as readonly string[]).includes(decision)) throw new UsageError(`the decision is one of ${REVIEW_DECISIONS.join(', ')}`);
      if (decision === 'continue') refuseInsideAgent('phase review continue');
      const location = projectLocation(options);
      const config = new ProjectConfig(location.root, location.projectId);
      const { result, version } = new StateStore(location.stateFile).update((draft) =>
        decideReview(draft, config, { decision: decision as ReviewDecision, by: userInfo().username, now: new Date(), ...(options.note ? { note: options.note } : {}) }),
      );
      if (options.json) io.out(json({ ...result, state_version: version }));
      else if (result.decision === 'continue') io.out(`Review of ${result.phase}: continue. \`isdlc phase activate\` starts the next phase.\n`);
      else if (result.decision === 'review') io.out(`Review of ${result.phase}: under review. The workflow waits for continue or redo.\n`);
      else io.out(`Review of ${result.phase}: redo. The phase is in progress again (retry ${result.retries}); delegate its work again.\n`);
    });

  program
    .command('escalations')
    .description('what guards escalated (at most 20, the same one once a minute); --clear empties the queue, e.g. to retry a phase')
    .option('--clear', 'empty the queue')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the queue as JSON')
    .action((options: LocationOptions & JsonOption & { clear?: boolean }) => {
      const location = projectLocation(options);
      const store = new StateStore(location.stateFile);
      const queue = (options.clear
        ? store.update((draft) => {
            const before = Array.isArray(draft.pending_escalations) ? draft.pending_escalations : [];
            draft.pending_escalations = [];
            return before;
          }).result
        : (store.read().state?.pending_escalations ?? [])) as Escalation[];
      if (options.json) io.out(json({ cleared: options.clear === true, escalations: queue }));
      else if (queue.length === 0) io.out('No open escalations.\n');
      else io.out(`${options.clear ? 'Cleared' : 'Open'} escalations (${queue.length}):\n${escalationLines(queue).join('\n')}\n`);
    });
}
