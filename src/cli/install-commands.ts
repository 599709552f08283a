// init, uninstall, doctor: putting isdlc into a project, taking it out, checking it. Each registered host
// adds its own options (its version, `--no-sandbox`, ...) and does its part in its own files.
import { Option, type Command } from 'commander';
import { HOST_IDS, HOSTS, hostsFor } from '../hosts/index.js';
import { GUARDED } from '../hosts/hook-hosts.js';
import type { HostOption } from '../hosts/host.js';
import type { ChangeLine, Finding } from '../install/host-setup.js';
import { initProject, uninstallProject } from '../install/install.js';
import { formatFindings, runDoctor } from './doctor.js';
import { uncountedFinding } from './doctor-testing.js';
import { folderArgument, folderOption, io, json, UsageError } from './shared.js';
import { MIN_NODE, nodeIsSupported } from '../util/node-version.js';

function formatChanges(title: string, changes: ChangeLine[]): string {
  const lines = [title];
  for (const change of changes) lines.push(`  ${change.change.padEnd(9)} ${change.path}${change.note ? `  (${change.note})` : ''}`);
  return `${lines.join('\n')}\n`;
}

function optionOf(spec: HostOption): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  const parse = spec.parse;
  if (parse) {
    option.argParser((value: string) => {
      try {
        return parse(value);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    });
  }
  return option;
}

/** The hosts' options of a command, each once. */
function hostOptions(command: 'init' | 'doctor'): Option[] {
  const seen = new Set<string>();
  return HOSTS.flatMap((host) => host.options)
    .filter((spec) => spec.commands.includes(command) && !seen.has(spec.flags) && seen.add(spec.flags))
    .map(optionOf);
}

/** `--host a,b` as host ids; an id no host has is a usage error. */
function hostIds(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  const ids = value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !HOST_IDS.includes(id));
  if (unknown.length > 0 || ids.length === 0) throw new UsageError(`--host takes ${HOST_IDS.join(', ')} (comma-separated), not ${JSON.stringify(value)}`);
  return ids;
}

/** The worst of the findings: `fail` is what makes doctor exit 1, a warning does not. */
function overallResult(findings: readonly Finding[]): 'pass' | 'warn' | 'fail' {
  if (findings.some((finding) => finding.severity === 'fail')) return 'fail';
  return findings.some((finding) => finding.severity === 'warn') ? 'warn' : 'pass';
}

export function registerInstallCommands(program: Command): void {
  const init = program
    .command('init')
    .description(
      `set isdlc up in a project: .isdlc/ (hook, config, state), docs/isdlc/constitution.md, and isdlc registered with ${HOSTS.map((host) => host.hook.name).join(' and ')} in the project's own settings`,
    )
    .argument('[dir]', 'project directory (default: the current one)')
    .addOption(folderOption())
    .option(
      '--host <ids>',
      `the agent hosts to set isdlc up for, comma-separated: ${HOST_IDS.join(', ')} (default: those it was set up for before, else claude-code, and codex where the project has .codex/)`,
    );
  for (const option of hostOptions('init')) init.addOption(option);
  init.option('--json', 'print the changes as JSON (notices go to stderr)').action((dir: string | undefined, options: Record<string, unknown>) => {
    const root = folderArgument(dir, options['dir'] as string | undefined);
    const result = initProject(root, {
      binSource: __dirname,
      guarded: GUARDED,
      hosts: hostsFor(root, hostIds(options['host'])).map((host) => ({ setup: host.setup, options })),
      version: __ISDLC_VERSION__,
      configSchemas: JSON.parse(__ISDLC_JSON_SCHEMAS__) as Record<string, string>,
    });
    // The test command init just wrote (or found): said now if the gate will not be able to count its tests.
    const uncounted = uncountedFinding(root);
    const notices = [
      ...result.notices,
      ...(uncounted ? [`${uncounted.what.charAt(0).toUpperCase()}${uncounted.what.slice(1)}. To fix: ${uncounted.fix}.`] : []),
      ...(nodeIsSupported(process.versions.node)
        ? []
        : [`Node.js ${process.versions.node} is too old for isdlc: the hooks work, the iteration loops do not. Use Node.js ${MIN_NODE} or later (22 or 24).`]),
    ];
    if (options.json) {
      io.out(json(result.changes));
      io.err(`${notices.join('\n')}\n`);
      return;
    }
    // A second init on an unchanged project writes nothing: it says so, and lists only what it left to the person.
    const nothing = result.changes.every((change) => change.change === 'unchanged' || change.change === 'kept');
    const listed = nothing
      ? formatChanges(
          `isdlc ${__ISDLC_VERSION__} is set up in ${root} already: nothing to change, no file written`,
          result.changes.filter((change) => change.change === 'kept'),
        )
      : formatChanges(`isdlc ${__ISDLC_VERSION__} set up in ${root}`, result.changes);
    io.out(`${listed}${notices.join('\n')}\n` + 'Next: `isdlc doctor` checks the installation; `isdlc status` shows the workflow.\n');
  });

  program
    .command('uninstall')
    .description('remove what init added (hooks, permission, .isdlc/bin); state, logs and docs stay unless --purge')
    .argument('[dir]', 'project directory (default: the current one)')
    .addOption(folderOption())
    .option('--purge', 'also delete .isdlc/ (state, logs, config) and the constitution init wrote, if it is unchanged')
    .option('--json', 'print the changes as JSON')
    .action((dir: string | undefined, options: { dir?: string; purge?: boolean; json?: boolean }) => {
      const root = folderArgument(dir, options.dir);
      const changes = uninstallProject(root, { purge: options.purge === true, hosts: HOSTS.map((host) => host.setup) });
      io.out(options.json ? json(changes) : formatChanges(`isdlc removed from ${root}`, changes));
    });

  const doctor = program
    .command('doctor')
    .description(
      `check the installation the way ${HOSTS.map((host) => host.hook.name).join(' and ')} will use it (for the version installed), and say how to fix what is wrong`,
    )
    .argument('[dir]', 'project directory (default: the current one)')
    .addOption(folderOption());
  for (const option of hostOptions('doctor')) doctor.addOption(option);
  doctor
    .option('--json', 'print the findings as JSON, with the overall result: ok is false (and the exit status 1) on a failure')
    .action((dir: string | undefined, options: Record<string, unknown>) => {
      const root = folderArgument(dir, options['dir'] as string | undefined);
      const findings = runDoctor(root, options);
      const result = overallResult(findings);
      io.out(options.json ? json({ ok: result !== 'fail', result, findings }) : formatFindings(root, findings));
      if (result === 'fail') process.exitCode = 1;
    });
}
