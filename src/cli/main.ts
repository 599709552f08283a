// Every `isdlc` command but the hook's hot path (which the executable answers itself).
import { Command, CommanderError, Option } from 'commander';
import { resolve } from 'node:path';
import { bundledConfig, CONFIG_NAMES, loadConfig, ProjectConfig, type ConfigName } from '../config/project-config.js';
import { hookMain } from '../entry/hook-main.js';
import { initProject, InstallError, uninstallProject, type ChangeLine } from '../install/install.js';
import { findProjectRoot, locateState, type StateLocation } from '../state/locate.js';
import { StateStore } from '../state/store.js';
import { startWorkflow, WorkflowError } from '../workflow/start.js';
import { formatFindings, runDoctor } from './doctor.js';
import { formatReplay, replaySession } from './replay.js';
import { buildStatus, formatStatus } from './status.js';

class UsageError extends Error {}

interface Io {
  out(text: string): void;
  err(text: string): void;
}

const io: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function formatChanges(title: string, changes: ChangeLine[]): string {
  const lines = [title];
  for (const change of changes) lines.push(`  ${change.change.padEnd(9)} ${change.path}${change.note ? `  (${change.note})` : ''}`);
  return `${lines.join('\n')}\n`;
}

/** The project a command works on: --dir, else the host's project dir, else the nearest `.isdlc/` above. */
function projectLocation(options: { dir?: string; project?: string }): StateLocation {
  const env = { ...process.env, ...(options.project ? { ISDLC_PROJECT: options.project } : {}) };
  const root = options.dir ? resolve(options.dir) : findProjectRoot({ env, cwd: process.cwd() });
  if (!root) throw new UsageError('not inside an isdlc project (no .isdlc/ here or above): run `isdlc init` or pass --dir');
  const location = locateState(root, { env, cwd: options.dir ? root : process.cwd() });
  if (location.warning) io.err(`isdlc: ${location.warning}\n`);
  return location;
}

const dirOption = () => new Option('-d, --dir <dir>', 'project directory (default: the nearest one with .isdlc/)');
const projectOption = () => new Option('-p, --project <id>', 'monorepo project id (default: ISDLC_PROJECT, then the current directory)');

function buildProgram(): Command {
  const program = new Command('isdlc')
    .description('Process guards for AI coding agents: Claude Code hooks that decide from observed evidence whether an agent may go on.')
    .version(__ISDLC_VERSION__, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .exitOverride();

  program
    .command('init')
    .description('set isdlc up in a project: .isdlc/ (hook, config, state), docs/isdlc/constitution.md, and hooks merged into .claude/settings.json')
    .argument('[dir]', 'project directory', '.')
    .addOption(
      new Option('--hook-form <form>', 'how the hook is registered: exec (node with args, no shell) or shell (one command line, for older Claude Code)')
        .choices(['exec', 'shell'])
        .default('exec'),
    )
    .option('--json', 'print the changes as JSON')
    .action((dir: string, options: { hookForm: 'exec' | 'shell'; json?: boolean }) => {
      const root = resolve(dir);
      const changes = initProject(root, { binSource: __dirname, hookForm: options.hookForm, version: __ISDLC_VERSION__ });
      io.out(options.json ? json(changes) : formatChanges(`isdlc ${__ISDLC_VERSION__} set up in ${root}`, changes) + 'Next: `isdlc doctor` checks the installation; `isdlc status` shows the workflow.\n');
    });

  program
    .command('uninstall')
    .description('remove what init added (hooks, permission, .isdlc/bin); state, logs and docs stay unless --purge')
    .argument('[dir]', 'project directory', '.')
    .option('--purge', 'also delete .isdlc/ (state, logs, config) and the constitution if it is unchanged since init')
    .option('--json', 'print the changes as JSON')
    .action((dir: string, options: { purge?: boolean; json?: boolean }) => {
      const root = resolve(dir);
      const changes = uninstallProject(root, { purge: options.purge === true });
      io.out(options.json ? json(changes) : formatChanges(`isdlc removed from ${root}`, changes));
    });

  program
    .command('doctor')
    .description('check the installation the way Claude Code will use it, and say how to fix what is wrong')
    .argument('[dir]', 'project directory', '.')
    .option('--json', 'print the findings as JSON')
    .action((dir: string, options: { json?: boolean }) => {
      const root = resolve(dir);
      const findings = runDoctor(root);
      io.out(options.json ? json(findings) : formatFindings(root, findings));
      if (findings.some((finding) => finding.severity === 'fail')) process.exitCode = 1;
    });

  program
    .command('status')
    .description('the active workflow, its current phase, and that phase\'s gate checks and iteration counters')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the status as JSON')
    .action((options: { dir?: string; project?: string; json?: boolean }) => {
      const location = projectLocation(options);
      const snapshot = new StateStore(location.stateFile).read();
      const report = buildStatus(location, snapshot, new ProjectConfig(location.root, location.projectId));
      io.out(options.json ? json(report) : formatStatus(report));
    });

  const workflow = program.command('workflow').description('start workflows (more workflow commands arrive with the phase handshake)');
  workflow
    .command('start')
    .description('start a workflow of the given type; its first phase becomes current')
    .argument('<type>', 'workflow type from workflows.json (feature, fix, test-run, test-generate, upgrade)')
    .option('--description <text>', 'what the workflow is for')
    .option('--artifact-folder <name>', 'folder name for this workflow\'s documents (default: REQ-NNNN-<description>)')
    .option('--branch <name>', 'the git branch the work happens on')
    .option('--atdd', 'acceptance-test-driven mode')
    .option('--supervised', 'pause for a human review at each phase boundary')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print the new workflow as JSON')
    .action((type: string, options: { description?: string; artifactFolder?: string; branch?: string; atdd?: boolean; supervised?: boolean; dir?: string; project?: string; json?: boolean }) => {
      const location = projectLocation(options);
      const config = new ProjectConfig(location.root, location.projectId);
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

  program
    .command('replay')
    .description('run a recorded session (one hook payload per line) through the engine and print each decision with its reason')
    .argument('<file>', 'a .jsonl file of hook payloads')
    .addOption(dirOption())
    .option('--json', 'print the decisions as JSON')
    .action((file: string, options: { dir?: string; json?: boolean }) => {
      const location = projectLocation(options);
      const steps = replaySession(resolve(file), location.root, process.env);
      io.out(options.json ? json(steps) : formatReplay(steps));
    });

  const config = program.command('config').description('the config files in use');
  config
    .command('list', { isDefault: true })
    .description('where each config file is taken from')
    .addOption(dirOption())
    .action((options: { dir?: string }) => {
      const location = projectLocation(options);
      for (const name of CONFIG_NAMES) {
        const loaded = loadConfig(location.root, name);
        io.out(`${name.padEnd(24)} ${loaded.from}${loaded.problem ? `  (problem: ${loaded.problem})` : ''}\n`);
      }
    });
  config
    .command('show')
    .description('print a config file as isdlc uses it (start an override from this)')
    .argument('<name>', CONFIG_NAMES.join(' | '))
    .option('--bundled', 'the bundled default, whatever the project has')
    .addOption(dirOption())
    .action((name: string, options: { bundled?: boolean; dir?: string }) => {
      if (!(CONFIG_NAMES as string[]).includes(name)) throw new UsageError(`unknown config "${name}"; one of: ${CONFIG_NAMES.join(', ')}`);
      const value = options.bundled ? bundledConfig(name as ConfigName) : loadConfig(projectLocation(options).root, name as ConfigName).value;
      io.out(json(value));
    });

  program
    .command('hook')
    .description('answer one Claude Code hook call: the payload on stdin, the decision on stdout (this is what init registers)')
    .option('--event <name>', 'the hook event, when the payload lacks hook_event_name')
    .option('--guards <ids>', 'run only these guards (comma-separated), to debug a rule')
    .option('--check', 'print the guards this build registers and whether each loads')
    .action(() => hookMain(process.argv.slice(3)));
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof UsageError || error instanceof InstallError || error instanceof WorkflowError) {
      io.err(`isdlc: ${error.message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    throw error;
  }
}

// isdlc as a library, for scripts and for the tests that drive the bundled code from other processes.
export { StateStore, StateConflictError } from '../state/store.js';
export { runHook } from '../engine/run-hook.js';
