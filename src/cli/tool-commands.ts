// replay, config, hook: looking at what isdlc does and with what.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { bundledConfig, CONFIG_NAMES, CONFIG_SCHEMAS_DIR, type ConfigName, loadConfig } from '../config/project-config.js';
import { loadTestingConfig } from '../config/testing-config.js';
import { hookMain } from '../entry/hook-main.js';
import { GUARDS } from '../guards/index.js';
import { CONFIG_DIRS, DEFAULT_HOST, HOOK_HOST_IDS } from '../hosts/hook-hosts.js';
import { guardsWithHosts } from '../hosts/index.js';
import { registerConfigSet } from './config-set.js';
import { formatReplay, replaySession } from './replay.js';
import { dirOption, io, json, projectLocation, UsageError } from './shared.js';

/** testing.json, the project's own config (no bundled default, read from .isdlc/config/ only). */
const TESTING_NAME = 'testing';

export function registerToolCommands(program: Command): void {
  program
    .command('replay')
    .description('run a recorded session (one hook payload per line) through the engine and print each decision with its reason')
    .argument('<file>', 'a .jsonl file of hook payloads')
    .addOption(dirOption())
    .option('--host <name>', `the agent host whose calls were recorded: ${HOOK_HOST_IDS.join(', ')}`, DEFAULT_HOST)
    .option('--json', 'print the decisions as JSON')
    .action((file: string, options: { dir?: string; host: string; json?: boolean }) => {
      const location = projectLocation(options);
      if (!HOOK_HOST_IDS.includes(options.host)) throw new UsageError(`no host named ${options.host}; one of: ${HOOK_HOST_IDS.join(', ')}`);
      const steps = replaySession(resolve(file), location.root, process.env, options.host);
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
        const loaded = loadConfig(location.root, name, location.configDirs);
        io.out(`${name.padEnd(24)} ${loaded.from}${loaded.problem ? `  (problem: ${loaded.problem})` : ''}\n`);
      }
      const testing = loadTestingConfig(location.root);
      const from = testing.from === 'detected' ? 'none: the command detected now is used' : testing.from;
      io.out(`${TESTING_NAME.padEnd(24)} ${from}${testing.problem ? `  (problem: ${testing.problem})` : ''}\n`);
    });
  config
    .command('show')
    .description('print a config file as isdlc uses it (start an override from this)')
    .argument('<name>', [...CONFIG_NAMES, TESTING_NAME].join(' | '))
    .option('--bundled', 'the bundled default, whatever the project has')
    .addOption(dirOption())
    .action((name: string, options: { bundled?: boolean; dir?: string }) => {
      if (name === TESTING_NAME) {
        // The project's own (no bundled default): the command as the gate will run it.
        const testing = loadTestingConfig(projectLocation(options).root);
        if (testing.problem) throw new UsageError(`${testing.problem}; the gate cannot verify until it is fixed`);
        io.out(json({ $schema: `./${CONFIG_SCHEMAS_DIR}/${TESTING_NAME}.json`, ...testing.config }));
        return;
      }
      if (!(CONFIG_NAMES as string[]).includes(name)) throw new UsageError(`unknown config "${name}"; one of: ${[...CONFIG_NAMES, TESTING_NAME].join(', ')}`);
      const value = options.bundled ? bundledConfig(name as ConfigName) : loadConfig(projectLocation(options).root, name as ConfigName, CONFIG_DIRS).value;
      // Saved as .isdlc/config/<name>.json, the copy names its JSON Schema (init put it beside) for the editor.
      const withSchema = value && typeof value === 'object' && !Array.isArray(value) ? { $schema: `./${CONFIG_SCHEMAS_DIR}/${name}.json`, ...value } : value;
      io.out(json(withSchema));
    });

  registerConfigSet(config);

  program
    .command('hook')
    .description('answer one hook call of an agent host: the payload on stdin, the decision on stdout (this is what init registers)')
    .option('--host <name>', `the agent host that sent the call: ${HOOK_HOST_IDS.join(', ')} (default: ${DEFAULT_HOST})`)
    .option('--event <name>', 'the hook event, when the payload lacks hook_event_name')
    .option('--guards <ids>', 'run only these guards (comma-separated), to debug a rule')
    .option('--check', 'print the guards this build registers and whether each loads')
    .option('--warm-cache', 'run sample calls of every kind so the code cache covers them (init does this)')
    .action(() => hookMain(process.argv.slice(3), { guards: guardsWithHosts(GUARDS) }));
}
