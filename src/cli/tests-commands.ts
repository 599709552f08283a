// `isdlc tests`: what isdlc watches about the project's tests (what defines the test command), what
// changed since the workflow started, and `isdlc tests accept`, a person's acceptance of those changes.
import type { Command } from 'commander';
import { userInfo } from 'node:os';
import { activeWorkflowOf } from '../state/current-phase.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { partLabel } from '../testwatch/test-definition.js';
import { NO_ACTIVE_WORKFLOW } from '../workflow/operations.js';
import { acceptPendingTests, pendingTestAcceptances } from '../workflow/test-acceptances.js';
import { ACCEPT_TESTS_COMMAND, compareTestDefinition, sinceWhen, type DefinitionComparison } from '../verify/test-definition.js';
import { dirOption, io, json, projectLocation, projectOption, refuseInsideAgent, type LocationOptions } from './shared.js';

type Options = LocationOptions & { json?: boolean };

/** `vite.config.js`, `vite.config.ts` → `vite.config.{js,ts}`: the candidates a runner reads, in one word. */
function grouped(labels: string[]): string[] {
  const byBase = new Map<string, string[]>();
  for (const label of labels) {
    const match = /^([^ ]+)\.([a-z]+)$/.exec(label);
    const [base, ext] = match ? [match[1]!, match[2]!] : [label, ''];
    byBase.set(base, [...(byBase.get(base) ?? []), ext]);
  }
  return [...byBase].map(([base, exts]) => (exts.length === 1 ? (exts[0] ? `${base}.${exts[0]}` : base) : `${base}.{${exts.join(',')}}`));
}

function definitionLines(comparison: DefinitionComparison): string[] {
  const parts = Object.entries(comparison.recorded.files);
  const present = parts.filter(([, digest]) => digest !== null).map(([part]) => `  ${partLabel(part)}`);
  const absent = parts.filter(([, digest]) => digest === null).map(([part]) => partLabel(part));
  return [
    `Test command \`${comparison.recorded.command}\`, defined as when ${sinceWhen(comparison.recorded)} by:`,
    ...(present.length > 0 ? present : ['  (nothing besides the command itself)']),
    ...(absent.length > 0 ? [`Watched while absent (one that appears is a change): ${grouped(absent).join(', ')}`] : []),
  ];
}

export function registerTestsCommands(program: Command): void {
  const tests = program
    .command('tests')
    .description("what defines the project's test command and the packages it runs on, and changes since the workflow started (accepting them is for people)");
  tests
    .command('show', { isDefault: true })
    .description('the test definition recorded at workflow start, what changed since, and what waits for acceptance')
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print as JSON')
    .action((options: Options) => {
      const location = projectLocation(options);
      const state = new JournaledStateStore(location.stateFile).read().state;
      const comparison = compareTestDefinition(location.root, state);
      const pending = pendingTestAcceptances(state, { root: location.root }).map((item) => ({ kind: item.kind, lines: item.describe() }));
      if (options.json) {
        io.out(
          json({
            recorded: comparison?.recorded ?? null,
            command: comparison?.command ?? null,
            current: comparison?.current ?? null,
            changes: comparison?.changes ?? [],
            pending,
          }),
        );
        return;
      }
      if (!activeWorkflowOf(state)) return io.out(`${NO_ACTIVE_WORKFLOW}.\n`);
      const lines: string[] = comparison
        ? definitionLines(comparison)
        : ['No test definition was recorded for this workflow (isdlc knew no test command when it started).'];
      if (pending.length === 0)
        lines.push(
          '',
          comparison ? 'Nothing about the tests waits for acceptance: the definition is unchanged.' : 'Nothing about the tests waits for acceptance.',
        );
      else {
        lines.push(
          '',
          "Waiting for a person's acceptance (the gate stays closed until then):",
          ...pending.flatMap((item) => item.lines.map((line) => `  ${line}`)),
        );
        lines.push('', `If you made these changes or agree with them, run \`${ACCEPT_TESTS_COMMAND}\` in your own terminal; otherwise undo them.`);
      }
      io.out(`${lines.join('\n')}\n`);
    });

  tests
    .command('accept')
    .description(
      'accept the changes `isdlc tests` lists: the test definition and the installed packages as they are now become the baseline; for people, not agents',
    )
    .addOption(dirOption())
    .addOption(projectOption())
    .option('--json', 'print what was accepted as JSON')
    .action((options: Options) => {
      refuseInsideAgent(ACCEPT_TESTS_COMMAND.replace(/^isdlc /, ''));
      const location = projectLocation(options);
      const { result } = new JournaledStateStore(location.stateFile).update((draft) =>
        acceptPendingTests(draft, { root: location.root }, userInfo().username, new Date()),
      );
      if (options.json) return io.out(json(result));
      io.out(`Accepted:\n${result.flatMap((item) => item.lines.map((line) => `  ${line}`)).join('\n')}\nThe gate takes the tests as they are defined now.\n`);
    });
}
