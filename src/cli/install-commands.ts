// init, uninstall, doctor: putting isdlc into a project, taking it out, checking it.
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { initProject, uninstallProject, type ChangeLine } from '../install/install.js';
import { formatFindings, runDoctor } from './doctor.js';
import { io, json } from './shared.js';

function formatChanges(title: string, changes: ChangeLine[]): string {
  const lines = [title];
  for (const change of changes) lines.push(`  ${change.change.padEnd(9)} ${change.path}${change.note ? `  (${change.note})` : ''}`);
  return `${lines.join('\n')}\n`;
}

export function registerInstallCommands(program: Command): void {
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
      io.out(
        options.json
          ? json(changes)
          : `${formatChanges(`isdlc ${__ISDLC_VERSION__} set up in ${root}`, changes)}Next: \`isdlc doctor\` checks the installation; \`isdlc status\` shows the workflow.\n`,
      );
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
}
