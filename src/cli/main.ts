// Every `isdlc` command but the hook's hot path (which the executable answers itself).
import { guardsWithHosts, HOSTS } from '../hosts/index.js';
import { GUARDS } from '../guards/index.js';
import { buildGateRequirementsBlock as gateRequirementsBlock } from '../gates/requirements-block.js';
import { CONFIG_DIRS } from '../hosts/hook-hosts.js';
import { Command, CommanderError } from 'commander';
import { InstallError } from '../install/host-setup.js';
import { StateConflictError, StateUnsettledError } from '../state/store.js';
import { DisplacedIsdlcError } from '../integrity/displaced.js';
import { describeLockTakeover, LockTimeoutError, reportLockTakeovers } from '../state/lock.js';
import { quietWhenPipesClose } from '../util/closed-pipes.js';
import { WorkflowError } from '../workflow/start.js';
import { UnknownPhaseError } from '../workflow/operations.js';
import { registerChangesCommands } from './changes-commands.js';
import { registerInstallCommands } from './install-commands.js';
import { LoopCommandError, registerLoopCommands } from './loop-commands.js';
import { registerPhaseCommands } from './phase-commands.js';
import { registerPromptCommands } from './prompt-commands.js';
import { io, UsageError } from './shared.js';
import { answerHook as answerHookWith, type HookInput, type HookSurroundings } from '../entry/hook-main.js';
import { readOnlyMessage } from './read-only-here.js';
import { registerTestsCommands } from './tests-commands.js';
import { registerToolCommands } from './tool-commands.js';
import { registerWorkflowCommands } from './workflow-commands.js';

/** What isdlc exits with: exitStatusOf below, and the commands that set a status of their own (the README says the same). */
const EXIT_STATUS_HELP = `
Exit status:
  0  done (doctor found no failure; the gate is open)
  1  refused or failed: a closed gate (gate check, phase complete), a failure doctor found, a workflow
     rule, state locked or changed by another writer, isdlc's files read-only here (the agent's sandbox),
     a file system error, init or uninstall unable to go on, a loop the store refuses
  2  wrong usage: an unknown command, option or phase, a missing or wrong argument, no isdlc project
     here, the project directory given twice, a person's decision asked for inside the agent's shell
  isdlc hook exits 0 with its decision on stdout (its --check: 1 when a guard does not load)
`;

function buildProgram(): Command {
  const program = new Command('isdlc')
    .description(
      `Process guards for AI coding agents: hooks of ${HOSTS.map((host) => host.hook.name).join(' and ')} that decide from observed evidence whether an agent may go on.`,
    )
    .version(__ISDLC_VERSION__, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_STATUS_HELP)
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();
  registerInstallCommands(program);
  registerWorkflowCommands(program);
  registerPhaseCommands(program);
  registerPromptCommands(program);
  registerToolCommands(program);
  registerLoopCommands(program);
  registerChangesCommands(program);
  registerTestsCommands(program);
  return program;
}

/** The exit status for what a command threw; what isdlc cannot explain is thrown on. */
function exitStatusOf(error: unknown, argv: string[]): number {
  // Help and the version exit 0; everything else commander refuses is wrong usage, as isdlc's own UsageError.
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  const readOnly = readOnlyMessage(error, argv);
  if (readOnly) {
    io.err(`isdlc: ${readOnly}\n`);
    return 1;
  }
  if (error instanceof UsageError || error instanceof UnknownPhaseError) {
    io.err(`isdlc: ${error.message}\n`);
    return 2;
  }
  if (
    error instanceof InstallError ||
    error instanceof LoopCommandError ||
    error instanceof WorkflowError ||
    error instanceof StateConflictError ||
    error instanceof StateUnsettledError ||
    error instanceof LockTimeoutError ||
    error instanceof DisplacedIsdlcError
  ) {
    io.err(`isdlc: ${error.message}\n`);
    return 1;
  }
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).syscall) {
    // The file system said no (full disk, size limit, permissions): say so plainly, without a stack.
    io.err(`isdlc: ${error.message}\n`);
    return 1;
  }
  throw error;
}

function prepare(): Command {
  quietWhenPipesClose();
  // A command that had to set a lock aside says so: a person should know the state was jammed or a writer crashed.
  reportLockTakeovers((takeover) => io.err(`isdlc: ${describeLockTakeover(takeover)}\n`));
  return buildProgram();
}

const statusSet = (): number => (typeof process.exitCode === 'number' ? process.exitCode : 0);

export async function main(argv: string[]): Promise<number> {
  try {
    await prepare().parseAsync(argv);
    return statusSet();
  } catch (error) {
    return exitStatusOf(error, argv);
  }
}

/** The commands that run on after their action returns (they wait on a test run or serve a client). */
const ASYNC_COMMANDS = new Set(['phase complete', 'mcp']);

const commandPath = (command: Command): string => {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
};

/**
 * `main` for a caller that cannot wait: every command but `phase complete` and `mcp`, which it refuses.
 * The test suite runs the built CLI this way in its own process.
 */
export function mainSync(argv: string[]): number {
  try {
    const program = prepare();
    program.hook('preAction', (_program, command) => {
      if (ASYNC_COMMANDS.has(commandPath(command))) throw new Error(`isdlc ${commandPath(command)} finishes asynchronously: call main`);
    });
    program.parse(argv);
    return statusSet();
  } catch (error) {
    return exitStatusOf(error, argv);
  }
}

// isdlc as a library, for scripts and for the tests that drive the bundled code from other processes.
export { JournaledStateStore as StateStore } from '../integrity/journaled-state.js';
export { StateConflictError } from '../state/store.js';
export { runHook } from '../engine/run-hook.js';
// The executable answers a hook with these when the hook bundle for the event cannot (src/entry/bundle-fallback.ts).
export { hookMain } from '../entry/hook-main.js';
export { GUARDS } from '../guards/index.js';
/** The whole registry with every host's guards in their place: what the executable runs when no hook bundle can answer. */
export const HOOK_GUARDS = guardsWithHosts(GUARDS);
/** One hook call answered by the whole registry, without writing to the process's stdout or exiting. */
export const answerHook = (args: string[], input: HookInput, where: HookSurroundings): { stdout: string; stderr: string } =>
  answerHookWith(args, { guards: HOOK_GUARDS }, input, where);
// What is guarded in every project: isdlc's files and each registered host's (for scripts that run rules).
export { GUARDED } from '../hosts/hook-hosts.js';
/** The GATE REQUIREMENTS block of a project on disk, its config looked for where isdlc and its hosts keep it. */
export const buildGateRequirementsBlock = (input: { phaseKey: string; artifactFolder: string; workflowType?: string; projectRoot?: string }): string =>
  gateRequirementsBlock({ ...input, configDirs: CONFIG_DIRS });
