// init, uninstall, doctor: putting isdlc into a project, taking it out, checking it.
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { isVersion } from '../hosts/claude-code/versions.js';
import { assumedVersionWarning, describePlan, resolveTarget } from '../hosts/claude-code/hook-plan.js';
import { bashEditDiffFinding, hooksSwitchedOffFindings, hostSettingsSources, originalHooksFindings, readProjectSettingsFiles, userPromptExpansionFindings } from '../hosts/claude-code/host-checks.js';
import { initProject, uninstallProject, type ChangeLine, type InitResult } from '../install/install.js';
import type { HookForm } from '../hosts/claude-code/settings.js';
import { claudeSandboxSupport } from '../hosts/claude-code/sandbox-support.js';
import { sandboxGap } from '../hosts/claude-code/protection-level.js';
import { formatFindings, runDoctor } from './doctor.js';
import { io, json, UsageError } from './shared.js';

function formatChanges(title: string, changes: ChangeLine[]): string {
  const lines = [title];
  for (const change of changes) lines.push(`  ${change.change.padEnd(9)} ${change.path}${change.note ? `  (${change.note})` : ''}`);
  return `${lines.join('\n')}\n`;
}

function claudeVersionOption(): Option {
  return new Option('--claude-version <version>', 'the Claude Code version to go by (default: what `claude --version` prints)').argParser((value: string) => {
    if (!isVersion(value)) throw new UsageError(`--claude-version takes a version like 2.1.332 (what \`claude --version\` prints), not ${JSON.stringify(value)}`);
    return value.trim();
  });
}

/** What init wants a person to read: the version it registered for, and what it found but must not change. */
function initNotices(root: string, result: InitResult): string[] {
  const { plan } = result;
  const reinit = `isdlc init ${root}${plan.target.from === 'flag' ? ` --claude-version ${plan.target.version}` : ''}`;
  const files = readProjectSettingsFiles(root);
  const warnings = [
    assumedVersionWarning(plan, root),
    ...userPromptExpansionFindings(files, plan.target.version, reinit).map((f) => `${f.what}.\n    fix: ${f.fix ?? ''}`),
  ];
  const host = hostSettingsSources();
  warnings.push(...hooksSwitchedOffFindings(files, host).map((f) => `${f.what}.\n    fix: ${f.fix ?? ''}`));
  warnings.push(...originalHooksFindings(files).map((f) => `${f.what}.\n    fix: ${f.fix ?? ''}`));
  const bashEditDiff = bashEditDiffFinding(files, host, plan.target.version);
  if (bashEditDiff.severity !== 'ok') warnings.push(`${bashEditDiff.what}.\n    fix: ${bashEditDiff.fix ?? ''}`);
  return [describePlan(plan), sandboxNotice(result), ...warnings.filter((w): w is string => w !== undefined).map((w) => `! ${w}`)];
}

/** One line on the sandbox: on, or off and why, and what a value of the user's became. */
function sandboxNotice(result: InitResult): string {
  const replaced = result.replaced.filter((r) => r.path.startsWith('sandbox.') || r.path.startsWith('permissions.'));
  const was = replaced.length > 0 ? ` (replaced your ${replaced.map((r) => `${r.path}: ${JSON.stringify(r.was)}`).join(', ')}; uninstall gives it back)` : '';
  const gap = result.sandbox.on ? sandboxGap(result.plan.target.version) : undefined;
  if (gap) return `! sandboxed, with a gap: ${gap}${was}. Upgrade Claude Code to close it; \`isdlc init --no-sandbox\` turns the sandbox off.`;
  if (result.sandbox.on) {
    return (
      `sandboxed: every Bash call of the agent runs in Claude Code's sandbox, where isdlc's files are read-only${was}. ` +
      'It costs about 0.1 s per Bash call; `isdlc init --no-sandbox` turns it off.'
    );
  }
  return `! not sandboxed: ${result.sandbox.why ?? 'unknown'}. The agent's shell can then write isdlc's files; isdlc can only notice afterwards.`;
}

export function registerInstallCommands(program: Command): void {
  program
    .command('init')
    .description('set isdlc up in a project: .isdlc/ (hook, config, state), docs/isdlc/constitution.md, and hooks merged into .claude/settings.json for the Claude Code installed')
    .argument('[dir]', 'project directory', '.')
    .addOption(claudeVersionOption())
    .addOption(
      new Option('--hook-form <form>', 'how the hook is registered: exec (node with arguments, no shell; Claude Code 2.1.139 and later) or shell (one command line); default: what the Claude Code version runs')
        .choices(['exec', 'shell']),
    )
    .option('--no-sandbox', "leave Claude Code's sandbox off (by default init turns it on where it can run, so the agent's shell cannot write isdlc's files)")
    .option('--json', 'print the changes as JSON (notices go to stderr)')
    .action((dir: string, options: { claudeVersion?: string; hookForm?: HookForm; sandbox: boolean; json?: boolean }) => {
      const root = resolve(dir);
      const result = initProject(root, {
        binSource: __dirname,
        claude: resolveTarget(options.claudeVersion),
        sandboxSupport: claudeSandboxSupport(),
        noSandbox: options.sandbox === false,
        ...(options.hookForm ? { hookForm: options.hookForm } : {}),
        version: __ISDLC_VERSION__,
      });
      const notices = initNotices(root, result);
      if (options.json) {
        io.out(json(result.changes));
        io.err(`${notices.join('\n')}\n`);
        return;
      }
      io.out(
        `${formatChanges(`isdlc ${__ISDLC_VERSION__} set up in ${root}`, result.changes)}${notices.join('\n')}\n` +
          'Next: `isdlc doctor` checks the installation; `isdlc status` shows the workflow.\n',
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
    .description('check the installation the way Claude Code will use it (for the Claude Code version installed), and say how to fix what is wrong')
    .argument('[dir]', 'project directory', '.')
    .addOption(claudeVersionOption())
    .option('--json', 'print the findings as JSON')
    .action((dir: string, options: { claudeVersion?: string; json?: boolean }) => {
      const root = resolve(dir);
      const findings = runDoctor(root, options.claudeVersion ? { claudeVersion: options.claudeVersion } : {});
      io.out(options.json ? json(findings) : formatFindings(root, findings));
      if (findings.some((finding) => finding.severity === 'fail')) process.exitCode = 1;
    });
}
