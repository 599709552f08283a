// status, workflow start, gate check, constitution record, escalation approve, branch acknowledge: the workflow's state,
// read and changed through validated, locked transactions (the operations the MCP tools share,
// src/workflow/operations.ts).
import { agentShellHost, protectionOf } from '../hosts/index.js';
import type { Command } from 'commander';
import { userInfo } from 'node:os';
import type { StateLocation } from '../state/locate.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { describeViolation } from '../verify/branch-violations.js';
import { acknowledgeViolations } from '../workflow/branch-acknowledge.js';
import { approveEscalation } from '../workflow/escalation.js';
import type { ArchivedWorkflow } from '../workflow/finalize.js';
import {
  cancelAt,
  configFor,
  finalizeAt,
  gateAt,
  knownPhase,
  NO_ACTIVE_WORKFLOW,
  phaseFor as phaseOf,
  recordArticleAt,
  startAt,
  type Outcome,
} from '../workflow/operations.js';
import { dirOption, io, json, projectLocation, projectOption, readerHere, refuseInsideAgent, UsageError, type LocationOptions } from './shared.js';
import { runningLoopLines, runningLoops } from './loop-commands.js';
import { buildStatus, formatStatus } from '../workflow/status-report.js';
import { terminalClaim } from './terminal-claim.js';

/** The phase a command means: --phase, else the current phase of the active workflow. */
function phaseFor(location: StateLocation, phase: string | undefined): string {
  const found = phaseOf(location, phase);
  if (!found) throw new UsageError(`${NO_ACTIVE_WORKFLOW}, or name the phase with --phase`);
  return found;
}

export function registerWorkflowCommands(program: Command): void {
  program
    .command('status')
    .description("the active workflow, its current phase, and that phase's gate checks and iteration counters")
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the status as JSON')
    .action((options: LocationOptions & { json?: boolean }) => {
      const location = projectLocation(options);
      const report = buildStatus(location, new JournaledStateStore(location.stateFile).read(), configFor(location), protectionOf(location.root));
      const loops = runningLoops(location.isdlcDir);
      if (options.json) io.out(json({ ...report, loops: loops.loops, ...(loops.problem ? { loopsProblem: loops.problem } : {}) }));
      else
        io.out(
          formatStatus(report) +
            runningLoopLines(loops)
              .map((line) => `${line}\n`)
              .join(''),
        );
    });

  const workflow = program.command('workflow').description('start a workflow, finalize it when every phase is completed, or cancel it');
  workflow
    .command('start')
    .description('start a workflow of the given type; its first phase becomes current')
    .argument('<type>', 'workflow type from workflows.json (feature, fix, test-run, test-generate, upgrade)')
    .option('--description <text>', 'what the workflow is for')
    .option('--artifact-folder <name>', "folder name for this workflow's documents (default: REQ-NNNN-<description>)")
    .option('--branch <name>', 'the git branch the work happens on: made from where HEAD is, or switched to')
    .option('--atdd', 'acceptance-test-driven mode')
    .option('--supervised', 'pause for a human review at each phase boundary')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the new workflow as JSON')
    .action(
      (
        type: string,
        options: LocationOptions & { description?: string; artifactFolder?: string; branch?: string; atdd?: boolean; supervised?: boolean; json?: boolean },
      ) => {
        const { result, version, message } = startAt(projectLocation(options), {
          type,
          ...(options.description !== undefined ? { description: options.description } : {}),
          ...(options.artifactFolder !== undefined ? { artifactFolder: options.artifactFolder } : {}),
          ...(options.branch !== undefined ? { branch: options.branch } : {}),
          ...(options.atdd ? { atdd: true } : {}),
          ...(options.supervised ? { supervised: true } : {}),
        });
        io.out(options.json ? json({ ...result, state_version: version }) : `${message}\n`);
      },
    );

  const archived = ({ result, version, message }: Outcome<ArchivedWorkflow>, asJson: boolean | undefined): void => {
    io.out(asJson ? json({ ...result, state_version: version }) : `${message}\n`);
  };

  workflow
    .command('finalize')
    .description('archive the workflow once every phase is completed: phase snapshots and metrics go to workflow_history, state is pruned')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the archived entry as JSON')
    .action((options: LocationOptions & { json?: boolean }) => {
      archived(finalizeAt(projectLocation(options)), options.json);
    });

  workflow
    .command('cancel')
    .description('end the active workflow unfinished; it is archived as cancelled, with the reason')
    .requiredOption('--reason <text>', 'why it is cancelled')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the archived entry as JSON')
    .action((options: LocationOptions & { reason: string; json?: boolean }) => {
      archived(cancelAt(projectLocation(options), options.reason, agentShellHost(process.env) === undefined), options.json);
    });

  program
    .command('gate')
    .description("the current phase's gate")
    .command('check')
    .description('check every requirement of the gate; exits 1 while it is closed')
    .option('--phase <key>', 'a phase other than the current one')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the evaluation as JSON')
    .action((options: LocationOptions & { phase?: string; json?: boolean }) => {
      const location = projectLocation(options);
      const { result: evaluation, message } = gateAt(location, phaseFor(location, options.phase), readerHere());
      io.out(options.json ? json(evaluation) : `${message}\n`);
      if (!evaluation.open) process.exitCode = 1;
    });

  program
    .command('constitution')
    .description("the current phase's constitutional validation")
    .command('record')
    .description('record the check of one article: compliant, or a violation (with what is wrong)')
    .requiredOption('--article <id>', 'article number, e.g. IV')
    .requiredOption('--result <result>', 'compliant | violation')
    .option('--note <text>', 'what was checked, or what violates the article')
    .option('--phase <key>', 'a phase other than the current one')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the validation record as JSON')
    .action((options: LocationOptions & { article: string; result: string; note?: string; phase?: string; json?: boolean }) => {
      const outcome = options.result;
      if (outcome !== 'compliant' && outcome !== 'violation') throw new UsageError('--result is compliant or violation');
      const location = projectLocation(options);
      const { result, message } = recordArticleAt(location, {
        phase: phaseFor(location, options.phase),
        article: options.article,
        result: outcome,
        ...(options.note ? { note: options.note } : {}),
        source: { recorded_with: 'cli', terminal: terminalClaim(location.root) },
      });
      io.out(options.json ? json(result) : `${message}\n`);
    });

  program
    .command('escalation')
    .description('escalated phases (a person decides)')
    .command('approve')
    .description("approve going on after a phase's tests or constitutional validation were escalated; for people, not agents")
    .requiredOption('--phase <key>', 'the escalated phase')
    .option('--note <text>', 'why it may go on')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print what was approved as JSON')
    .action((options: LocationOptions & { phase: string; note?: string; json?: boolean }) => {
      refuseInsideAgent('escalation approve');
      const location = projectLocation(options);
      const phase = knownPhase(location, options.phase);
      const { result, version } = new JournaledStateStore(location.stateFile).update((draft) =>
        approveEscalation(draft, { phase, by: userInfo().username, now: new Date().toISOString(), ...(options.note ? { note: options.note } : {}) }),
      );
      io.out(
        options.json
          ? json({ phase, approved: result, state_version: version })
          : `Approved in ${phase}: ${result.join(', ')}. The gate counts them as met from now on.\n`,
      );
    });

  program
    .command('branch')
    .description('commits that reached a branch the workflow keeps closed (a person decides)')
    .command('acknowledge')
    .description(
      'say you have seen the commits isdlc found on main/master or on the workflow branch too early, so the gate may open again; for people, not agents',
    )
    .option('--note <text>', 'what you did about them (undone, kept, ...)')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the acknowledged commits as JSON')
    .action((options: LocationOptions & { note?: string; json?: boolean }) => {
      refuseInsideAgent('branch acknowledge');
      const location = projectLocation(options);
      const { result, version } = new JournaledStateStore(location.stateFile).update((draft) =>
        acknowledgeViolations(draft, { by: userInfo().username, now: new Date().toISOString(), ...(options.note ? { note: options.note } : {}) }),
      );
      if (options.json) return io.out(json({ acknowledged: result, state_version: version }));
      io.out(`Acknowledged:\n${result.map((violation) => `  ${describeViolation(violation)}`).join('\n')}\nThe gate no longer counts them.\n`);
    });
}
