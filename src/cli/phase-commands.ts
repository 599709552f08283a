// phase activate / complete / skip / review and escalations: the phase handshake as commands, each one
// locked read-validate-write through the store (the /isdlc command's STEP 3c-prime and 3e), through the
// operations the MCP tools share (src/workflow/operations.ts).
import { gateIsolation } from '../hosts/index.js';
import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { skipPhase } from '../workflow/complete.js';
import { gateProgressReporter } from './gate-progress.js';
import { activateAt, clearEscalationsAt, completeAt, escalationLines, escalationsAt, reviewAt, skippedMessage } from '../workflow/operations.js';
import { REVIEW_DECISIONS, type ReviewDecision } from '../workflow/review.js';
import { dirOption, io, json, projectLocation, projectOption, refuseInsideAgent, UsageError, type LocationOptions } from './shared.js';

type JsonOption = { json?: boolean };

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
      const { result, version, message } = activateAt(projectLocation(options), wanted);
      io.out(options.json ? json({ ...result, state_version: version }) : `${message}\n`);
    });

  phase
    .command('complete')
    .description("mark the current phase completed, if its gate is open; the next phase is not started (that is `phase activate`'s job)")
    .option('--summary <text>', 'what the phase produced (kept to 150 characters)')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the result as JSON')
    .action(async (options: LocationOptions & JsonOption & { summary?: string }) => {
      const stderr = process.stderr;
      const progress = gateProgressReporter({ isTTY: stderr.isTTY, columns: stderr.columns, write: (text) => io.err(text) });
      const { result, version, message } = await completeAt(projectLocation(options), options.summary, gateIsolation(), progress);
      io.out(options.json ? json({ ...result, state_version: version }) : `${message}\n`);
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
      const { result, version } = new JournaledStateStore(location.stateFile).update((draft) =>
        skipPhase(draft, { reason: options.reason.trim(), by: userInfo().username, now: new Date() }),
      );
      io.out(options.json ? json({ ...result, state_version: version }) : `${skippedMessage(result)}\n`);
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
      const { result, version, message } = reviewAt(projectLocation(options), {
        decision: decision as ReviewDecision,
        by: userInfo().username,
        ...(options.note ? { note: options.note } : {}),
      });
      io.out(options.json ? json({ ...result, state_version: version }) : `${message}\n`);
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
      if (options.clear) {
        const { result, message } = clearEscalationsAt(location);
        io.out(options.json ? json({ cleared: true, escalations: result }) : `${message}\n`);
        return;
      }
      const queue = escalationsAt(location);
      if (options.json) io.out(json({ cleared: false, escalations: queue }));
      else io.out(queue.length === 0 ? 'No open escalations.\n' : `Open escalations (${queue.length}):\n${escalationLines(queue).join('\n')}\n`);
    });
}
