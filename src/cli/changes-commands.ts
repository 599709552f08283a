// `isdlc changes`: a person reviews changes to isdlc's files that isdlc did not make (docs/tamper-evidence.md).
import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { GUARDED } from '../hosts/hook-hosts.js';
import { loadLoop } from '../loop/load.js';
import { GUARDED_KIND_LABELS } from '../integrity/guarded-set.js';
import type { Incident } from '../integrity/journal.js';
import { acceptChanges, rejectChanges, ReviewError, waitingForReview, type ReviewResult, type Waiting } from '../integrity/review.js';
import { dirOption, io, json, projectLocation, refuseInsideAgent, UsageError, type LocationOptions } from './shared.js';

type Options = LocationOptions & { json?: boolean };

const loopRows = () => loadLoop().loopRows;

function incidentLines(incident: Incident): string[] {
  const head = `#${incident.id}  ${incident.at}  found at ${incident.foundBy}${incident.workflow ? `, workflow ${incident.workflow}` : ''}`;
  const files = incident.files.map((file) => {
    const done = file.outcome === 'reverted' ? (file.change === 'created' ? 'taken away' : 'undone') : 'not undone';
    return `    ${file.path} ${file.change}, ${done}${file.keptAs ? `; the changed version is kept as ${file.keptAs}` : ''}`;
  });
  return [`  ${head}`, ...files];
}

function describe(waiting: Waiting): string {
  if (waiting.incidents.length === 0 && waiting.pending.length === 0) return "Nothing waits for review: isdlc's files are as isdlc left them.\n";
  const lines: string[] = [];
  if (waiting.incidents.length > 0)
    lines.push("Changes to isdlc's files made outside isdlc, waiting for your review:", ...waiting.incidents.flatMap(incidentLines));
  if (waiting.pending.length > 0) {
    lines.push('Changed on disk now (the next hook call undoes these unless you accept them):');
    lines.push(...waiting.pending.map((change) => `    ${change.rel} ${change.change} (${GUARDED_KIND_LABELS[change.kind]})`));
  }
  lines.push(
    '',
    'If you made these changes, or want to keep them: `isdlc changes accept` (all of them and what is on disk now) or `isdlc changes accept N`.',
    "To keep isdlc's versions: `isdlc changes reject` (the changed versions kept aside are deleted).",
  );
  return `${lines.join('\n')}\n`;
}

function ids(values: string[]): number[] | undefined {
  if (values.length === 0 || values.includes('all')) return undefined;
  return values.map((value) => {
    const id = Number(value.replace(/^#/, ''));
    if (!Number.isInteger(id) || id < 1) throw new UsageError(`"${value}" is not a change number (\`isdlc changes\` lists them)`);
    return id;
  });
}

function reviewed(decision: 'accept' | 'reject', result: ReviewResult): string {
  if (result.incidents.length === 0 && result.undone.length === 0 && result.files.length === 0)
    return decision === 'accept' ? 'Nothing was waiting; isdlc takes its files as they are on disk.\n' : 'Nothing was waiting for review.\n';
  const which = result.incidents.map((id) => `#${id}`).join(', ');
  if (decision === 'accept') {
    return `Accepted ${which ? `${which}, ` : ''}${result.files.length > 0 ? `keeping ${result.files.join(', ')}` : 'the files as they are'}. isdlc takes them as they are now.\n`;
  }
  return `Rejected ${which}: isdlc's versions stand${result.undone.length > 0 ? ` (undone now: ${result.undone.join(', ')})` : ''}${result.files.length > 0 ? `; deleted the changed versions ${result.files.join(', ')}` : ''}.\n`;
}

export function registerChangesCommands(program: Command): void {
  const changes = program
    .command('changes')
    .description("changes to isdlc's files made outside isdlc: list them (default), accept or reject them (people only)");
  changes
    .command('list', { isDefault: true })
    .description('what waits for review: changes the hooks undid, and what differs on disk now')
    .addOption(dirOption())
    .option('--json', 'print as JSON')
    .action((options: Options) => {
      const waiting = waitingForReview(projectLocation(options).root, GUARDED, loopRows);
      io.out(options.json ? json(waiting) : describe(waiting));
    });

  for (const decision of ['accept', 'reject'] as const) {
    changes
      .command(decision)
      .description(
        decision === 'accept'
          ? 'keep the changes (the versions kept aside go back in place): all of them and what is on disk now, or the numbered ones'
          : "keep isdlc's versions: undo what is still changed and delete the versions kept aside; all, or the numbered ones",
      )
      .argument('[numbers...]', 'change numbers from `isdlc changes`; none: all')
      .addOption(dirOption())
      .option('--json', 'print the result as JSON')
      .action((numbers: string[], options: Options) => {
        refuseInsideAgent(`isdlc changes ${decision}`);
        const root = projectLocation(options).root;
        const review = { guarded: GUARDED, by: userInfo().username, loopRows, ...(ids(numbers) ? { ids: ids(numbers)! } : {}) };
        try {
          const result = decision === 'accept' ? acceptChanges(root, review) : rejectChanges(root, review);
          io.out(options.json ? json(result) : reviewed(decision, result));
        } catch (error) {
          if (error instanceof ReviewError) throw new UsageError(error.message);
          throw error;
        }
      });
  }
}
