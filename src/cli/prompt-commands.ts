// gate-requirements and delegation-prompt: what a phase agent is told when it is delegated to, printed
// for the orchestrating agent and for people who want to see it.
import type { Command } from 'commander';
import { ProjectConfig } from '../config/project-config.js';
import { buildGateRequirementsBlock } from '../gates/requirements-block.js';
import { delegationPromptAt, knownPhase, NO_ACTIVE_WORKFLOW } from '../workflow/operations.js';
import { dirOption, io, projectLocation, projectOption, UsageError, type LocationOptions } from './shared.js';

export function registerPromptCommands(program: Command): void {
  program
    .command('gate-requirements')
    .description("print a phase's GATE REQUIREMENTS block (nothing when it cannot be built)")
    .requiredOption('--phase <key>', 'the phase key, e.g. 06-implementation')
    .requiredOption('--artifact-folder <name>', 'the workflow artifact folder, for the artifact paths')
    .option('--workflow <type>', 'the workflow type, for its overrides and modifiers')
    .addOption(dirOption())
    .addOption(projectOption())
    .action((options: LocationOptions & { phase: string; artifactFolder: string; workflow?: string }) => {
      const location = projectLocation(options);
      const block = buildGateRequirementsBlock({
        phaseKey: knownPhase(location, options.phase),
        artifactFolder: options.artifactFolder,
        config: new ProjectConfig(location.root, location.configDirs, location.projectId),
        ...(options.workflow ? { workflowType: options.workflow } : {}),
      });
      if (block) io.out(`${block}\n`);
    });

  program
    .command('delegation-prompt')
    .description('print the prompt to delegate a phase of the active workflow with: its context, its gate requirements, the gate to validate')
    .option('--phase <key>', 'the phase (default: the current one)')
    .addOption(dirOption())
    .addOption(projectOption())
    .action((options: LocationOptions & { phase?: string }) => {
      const location = projectLocation(options);
      const delegation = delegationPromptAt(location, options.phase);
      if (!delegation) throw new UsageError(NO_ACTIVE_WORKFLOW);
      io.out(`${delegation.prompt}\n`);
    });
}
