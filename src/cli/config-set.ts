// `isdlc config set` and `unset`: a person's change to a config file, written through isdlc's journal so
// that the next hook call takes it as isdlc's own write instead of undoing it as a change made behind
// isdlc's back. The value is checked against the file's schema before anything is written.
import type { Command } from 'commander';
import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { checkConfigValue, CONFIG_NAMES, CONFIG_SCHEMAS_DIR, configFileName, ISDLC_CONFIG_DIR, loadConfig, type ConfigName } from '../config/project-config.js';
import { loadSchemas } from '../config/load-schemas.js';
import { DEFAULT_TIMEOUT_MINUTES, initialTestingConfig, TESTING_FILE } from '../config/testing-config.js';
import { CONFIG_DIRS, GUARDED } from '../hosts/hook-hosts.js';
import { journaledWrite } from '../integrity/journal.js';
import { waitingForReview } from '../integrity/review.js';
import { loadLoop } from '../loop/load.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { readTextIfPresent } from '../util/read-text.js';
import { dirOption, io, json, projectLocation, refuseInsideAgent, UsageError, type LocationOptions } from './shared.js';

const TESTING = 'testing';
const NAMES = [...CONFIG_NAMES, TESTING];

type Options = LocationOptions & { json?: boolean };
type Json = Record<string, unknown>;

/** The file a change goes into, relative to the root, and what it holds now (or what to start from). */
function target(root: string, name: string): { rel: string; content: Json } {
  if (name === TESTING) {
    const rel = `${ISDLC_CONFIG_DIR}/${TESTING_FILE}`;
    return { rel, content: readObject(root, rel) ?? (JSON.parse(initialTestingConfig(root).text) as Json) };
  }
  const config = name as ConfigName;
  const loaded = loadConfig(root, config, CONFIG_DIRS);
  if (loaded.problem) throw new UsageError(`${loaded.problem}; fix the file by hand (then \`isdlc changes accept\`), or remove it`);
  const inProject = isAbsolute(loaded.from) && !relative(root, loaded.from).startsWith('..');
  if (inProject && !loaded.from.endsWith('.json')) {
    throw new UsageError(`${relative(root, loaded.from)} is not JSON: edit it by hand, then run \`isdlc changes accept\``);
  }
  const rel = inProject ? relative(root, loaded.from) : `${ISDLC_CONFIG_DIR}/${configFileName(config)}`;
  // No file of the project's yet: it starts as the config in use, which is what `config show` prints.
  // A copy: the value may be the bundled default itself, shared by everything else in this process.
  const start = { $schema: `./${CONFIG_SCHEMAS_DIR}/${configFileName(config)}`, ...(structuredClone(loaded.value) as Json) };
  return { rel, content: readObject(root, rel) ?? start };
}

function readObject(root: string, rel: string): Json | undefined {
  const text = readTextIfPresent(join(root, rel));
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${rel} does not parse (${(error as Error).message}): fix it by hand, then run \`isdlc changes accept\``);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`${rel} does not hold a JSON object`);
  return parsed as Json;
}

/** A value as typed: JSON where it parses as JSON (15, true, null, ["a"]), else the text itself. */
export function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Sets (or, with `undefined`, removes) the value at a dotted key path, making the objects on the way. */
export function setAtPath(content: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys.some((key) => key === '' || key === '__proto__' || key === 'constructor' || key === 'prototype'))
    throw new UsageError(`"${path}" is not a key path`);
  let node = content;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (next === undefined && value === undefined) return;
    if (next !== undefined && (typeof next !== 'object' || next === null || Array.isArray(next))) {
      throw new UsageError(`"${key}" in "${path}" holds ${JSON.stringify(next)}, not an object`);
    }
    node = (node[key] ??= {}) as Json;
  }
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

function check(name: string, content: Json): string | undefined {
  if (name === TESTING) {
    const checked = loadSchemas().checkTestingFile(content, DEFAULT_TIMEOUT_MINUTES);
    return checked.ok ? undefined : checked.problem;
  }
  const checked = checkConfigValue(name as ConfigName, content);
  return checked.ok ? undefined : checked.problem;
}

function change(name: string, key: string, value: unknown, options: Options): void {
  refuseInsideAgent(`isdlc config ${value === undefined ? 'unset' : 'set'}`);
  if (!NAMES.includes(name)) throw new UsageError(`unknown config "${name}"; one of: ${NAMES.join(', ')}`);
  const root = projectLocation(options).root;
  const { rel, content } = target(root, name);
  const waiting = waitingForReview(root, GUARDED, () => loadLoop().loopRows).pending.find((pending) => pending.rel === rel);
  if (waiting) {
    throw new UsageError(`${rel} was ${waiting.change} outside isdlc and waits for review: run \`isdlc changes\` and accept or reject that first`);
  }
  setAtPath(content, key, value);
  const problem = check(name, content);
  if (problem) throw new UsageError(`${rel} would not be valid, so nothing was written: ${problem}`);
  const text = `${JSON.stringify(content, null, 2)}\n`;
  const path = join(root, rel);
  const before = readTextIfPresent(path);
  if (before !== text) {
    mkdirSync(dirname(path), { recursive: true });
    journaledWrite(root, rel, Buffer.from(text), () => writeFileAtomic(path, text));
  }
  const said = value === undefined ? `Removed ${name}.${key}` : `Set ${name}.${key} to ${JSON.stringify(value)}`;
  const result = { config: name, key, value: value ?? null, file: rel, changed: before !== text };
  io.out(
    options.json
      ? json(result)
      : before === text
        ? `${rel} already says so; nothing written.\n`
        : `${said} in ${rel}. isdlc wrote it through its journal, so there is nothing to review (\`isdlc config show ${name}\` shows it in use).\n`,
  );
}

export function registerConfigSet(config: Command): void {
  config
    .command('set')
    .description("change one value of a config file (a person's change: written through isdlc's journal, checked against the schema first)")
    .argument('<name>', NAMES.join(' | '))
    .argument('<key>', 'the key, dotted for nested ones (e.g. coverage_command, or phase_requirements.06-implementation.test_iteration.max_iterations)')
    .argument('<value>', 'JSON where it parses as JSON (15, true, null, ["a"]), else the text as it is')
    .addOption(dirOption())
    .option('--json', 'print the result as JSON')
    .action((name: string, key: string, value: string, options: Options) => change(name, key, typedValue(value), options));
  config
    .command('unset')
    .description('remove one key from a config file (the default applies again), written as `set` writes')
    .argument('<name>', NAMES.join(' | '))
    .argument('<key>', 'the key, dotted for nested ones')
    .addOption(dirOption())
    .option('--json', 'print the result as JSON')
    .action((name: string, key: string, options: Options) => change(name, key, undefined, options));
}
