// status, workflow start, gate check, constitution record, escalation approve: the workflow's state,
// read and changed through validated, locked transactions.
import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { describeArticle } from '../config/constitution.js';
import { ProjectConfig } from '../config/project-config.js';
import { normalizePhaseKey } from '../config/phase-keys.js';
import { describeUnmet, evaluateGate } from '../gates/evaluate.js';
import { currentPhaseOf } from '../state/current-phase.js';
import type { StateLocation } from '../state/locate.js';
import { StateStore } from '../state/store.js';
import { recordArticleCheck } from '../workflow/constitution.js';
import { approveEscalation } from '../workflow/escalation.js';
import { cancelWorkflow, finalizeWorkflow, type ArchivedWorkflow } from '../workflow/finalize.js';
import { startWorkflow } from '../workflow/start.js';
import { dirOption, io, json, projectLocation, projectOption, refuseInsideAgent, UsageError, type LocationOptions } from './shared.js';
import { runningLoopLines, runningLoops } from './loop-commands.js';
import { buildStatus, formatStatus } from './status.js';

function configFor(location: StateLocation): ProjectConfig {
  return new ProjectConfig(location.root, location.projectId);
}

/** The phase a command means: --phase, else the current phase of the active workflow. */
function phaseFor(location: StateLocation, phase: string | undefined): string {
  if (phase) return normalizePhaseKey(phase);
  const current = currentPhaseOf(new StateStore(location.stateFile).read().state);
  if (!current) throw new UsageError('no active workflow: start one with `isdlc workflow start <type>`, or name the phase with --phase');
  return current;
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
      const report = buildStatus(location, new StateStore(location.stateFile).read(), configFor(location));
      const loops = runningLoops(location.isdlcDir);
      if (options.json) io.out(json({ ...report, loops: loops.loops, ...(loops.problem ? { loopsProblem: loops.problem } : {}) }));
      else io.out(formatStatus(report) + runningLoopLines(loops).map((line) => `${line}\n`).join(''));
    });

  const workflow = program.command('workflow').description('start a workflow, finalize it when every phase is completed, or cancel it');
  workflow
    .command('start')
    .description('start a workflow of the given type; its first phase becomes current')
    .argument('<type>', 'workflow type from workflows.json (feature, fix, test-run, test-generate, upgrade)')
    .option('--description <text>', 'what the workflow is for')
    .option('--artifact-folder <name>', "folder name for this workflow's documents (default: REQ-NNNN-<description>)")
    .option('--branch <name>', 'the git branch the work happens on')
    .option('--atdd', 'acceptance-test-driven mode')
    .option('--supervised', 'pause for a human review at each phase boundary')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the new workflow as JSON')
    .action((type: string, options: LocationOptions & { description?: string; artifactFolder?: string; branch?: string; atdd?: boolean; supervised?: boolean; json?: boolean }) => {
      const location = projectLocation(options);
      const config = configFor(location);
      const { result, version } = new StateStore(location.stateFile).update((draft) =>
        startWorkflow(draft, config, {
          type,
          now: new Date(),
          ...(options.description !== undefined ? { description: options.description } : {}),
          ...(options.artifactFolder !== undefined ? { artifactFolder: options.artifactFolder } : {}),
          ...(options.branch !== undefined ? { branch: options.branch } : {}),
          ...(options.atdd ? { atdd: true } : {}),
          ...(options.supervised ? { supervised: true } : {}),
        }),
      );
      io.out(
        options.json
          ? json({ ...result, state_version: version })
          : `Started ${type} workflow${result.description ? ` "${String(result.description)}"` : ''}: ` +
              `${(result.phases ?? []).join(' → ')}\nCurrent phase: ${String(result.current_phase)}; artifact folder ${String(result.artifact_folder)}\n`,
      );
    });

  const archived = (entry: ArchivedWorkflow, version: number, asJson: boolean | undefined): void => {
    if (asJson) {
      io.out(json({ ...entry, state_version: version }));
      return;
    }
    const m = entry.metrics;
    io.out(
      `${entry.status === 'completed' ? 'Finalized' : 'Cancelled'} the ${entry.type} workflow: ${m.phases_completed} of ${m.phases_total} phases completed` +
        `${m.phases_skipped ? ` (${m.phases_skipped} skipped)` : ''}, ${m.total_retries} retr${m.total_retries === 1 ? 'y' : 'ies'}, ` +
        `${m.test_iterations_total} test run${m.test_iterations_total === 1 ? '' : 's'}` +
        `${m.wall_clock_minutes !== undefined ? `, ${m.wall_clock_minutes} min in all` : ''}.\n` +
        'It is kept in workflow_history; no workflow is active now.\n',
    );
  };

  workflow
    .command('finalize')
    .description('archive the workflow once every phase is completed: phase snapshots and metrics go to workflow_history, state is pruned')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the archived entry as JSON')
    .action((options: LocationOptions & { json?: boolean }) => {
      const location = projectLocation(options);
      const { result, version } = new StateStore(location.stateFile).update((draft) => finalizeWorkflow(draft, { now: new Date() }));
      archived(result, version, options.json);
    });

  workflow
    .command('cancel')
    .description('end the active workflow unfinished; it is archived as cancelled, with the reason')
    .requiredOption('--reason <text>', 'why it is cancelled')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the archived entry as JSON')
    .action((options: LocationOptions & { reason: string; json?: boolean }) => {
      const location = projectLocation(options);
      const { result, version } = new StateStore(location.stateFile).update((draft) => cancelWorkflow(draft, { reason: options.reason, now: new Date() }));
      archived(result, version, options.json);
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
      const state = new StateStore(location.stateFile).read().state ?? {};
      const evaluation = evaluateGate({ state, config: configFor(location), phase: phaseFor(location, options.phase), root: location.root, docsBase: location.docsBase });
      if (options.json) io.out(json(evaluation));
      else if (evaluation.open) io.out(`The gate of ${evaluation.phase} is open (${evaluation.checks.length} requirement${evaluation.checks.length === 1 ? '' : 's'} met).\n`);
      else io.out(`The gate of ${evaluation.phase} is closed:\n${describeUnmet(evaluation)}\n`);
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
      if (options.result !== 'compliant' && options.result !== 'violation') throw new UsageError('--result is compliant or violation');
      const location = projectLocation(options);
      const config = configFor(location);
      const phase = phaseFor(location, options.phase);
      const { result } = new StateStore(location.stateFile).update((draft) =>
        recordArticleCheck(draft, config, {
          phase,
          article: options.article,
          result: options.result as 'compliant' | 'violation',
          now: new Date().toISOString(),
          ...(options.note ? { note: options.note } : {}),
        }),
      );
      if (options.json) {
        io.out(json(result));
        return;
      }
      const title = describeArticle(config.constitution, options.article.toUpperCase());
      io.out(`${title}: ${options.result} (phase ${phase}, iteration ${result.record.iterations_used}/${result.record.max_iterations}).\n`);
      if (result.escalated) io.out(`Constitutional validation of ${phase} is escalated to a human: a person reviews it and runs \`isdlc escalation approve --phase ${phase}\`.\n`);
      else if (result.completed) io.out(`Every article required in ${phase} is compliant.\n`);
      else io.out(`Still to be compliant: ${result.remaining.map((id) => describeArticle(config.constitution, id)).join('; ')}\n`);
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
    .action((options: LocationOptions & { phase: string; note?: string }) => {
      refuseInsideAgent('escalation approve');
      const location = projectLocation(options);
      const phase = normalizePhaseKey(options.phase);
      const { result } = new StateStore(location.stateFile).update((draft) =>
        approveEscalation(draft, { phase, by: userInfo().username, now: new Date().toISOString(), ...(options.note ? { note: options.note } : {}) }),
      );
      io.out(`Approved in ${phase}: ${result.join(', ')}. The gate counts them as met from now on.\n`);
    });
}
