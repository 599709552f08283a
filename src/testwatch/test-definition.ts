// What defines a project's test command, as digests, so that it keeps its integrity. An agent that
// cannot make the tests pass can make the test command pass instead: `"test": "exit 0"`, a vitest config
// that includes no file, `script-shell=true` in .npmrc. The gate runs and reads the test command, so the
// files that decide what that command does are recorded when the workflow starts and compared at the gate.
//
// Only what reaches the tests is digested, not whole manifests: package.json's scripts the command runs
// (not its version or dependencies), pyproject.toml's pytest sections, Cargo.toml without its
// dependencies. Candidates that do not exist are recorded as null, so a config file that appears later
// (a vitest.config.ts that narrows `include`) counts as a change. A handful of small files is read.
import { createHash } from 'node:crypto';
import { statSync, readFileSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';
import { simpleCommands, type SimpleCommand } from '../detect/shell-words.js';

/** A part's sha256, or null when it does not exist. */
export type PartDigest = string | null;

export interface TestDefinition {
  /** One digest of the command and every part that exists. */
  digest: string;
  /**
   * Each part watched: a file (`vitest.config.ts`), or a piece of one after `#` (`package.json#scripts.test`,
   * `pyproject.toml#[tool.pytest*]`, `Cargo.toml#without-dependencies`).
   */
  files: Record<string, PartDigest>;
}

const PACKAGE = 'package.json';
const JS_EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'];
const withExtensions = (base: string, extensions: readonly string[]): string[] => extensions.map((ext) => `${base}.${ext}`);

/** What each runner reads besides its command line, relative to the project's root. */
const RUNNER_PARTS: Record<string, readonly string[]> = {
  // Vitest reads vite.config.* when it has no config of its own.
  vitest: [
    ...withExtensions('vitest.config', JS_EXTENSIONS),
    ...withExtensions('vite.config', JS_EXTENSIONS),
    ...withExtensions('vitest.workspace', [...JS_EXTENSIONS, 'json']),
  ],
  jest: [...withExtensions('jest.config', [...JS_EXTENSIONS, 'json']), `${PACKAGE}#jest`],
  // The mutation run's config: it chooses what is mutated and which tests judge the mutants.
  stryker: ['stryker.conf', 'stryker.config', '.stryker.conf', '.stryker.config'].flatMap((base) => withExtensions(base, ['json', 'js', 'mjs', 'cjs'])),
  mocha: [...withExtensions('.mocharc', ['js', 'cjs', 'mjs', 'yaml', 'yml', 'json', 'jsonc']), `${PACKAGE}#mocha`],
  // `.pytest.ini` wins over the others; conftest.py in a test folder loads like the root one.
  pytest: [
    'pytest.ini',
    '.pytest.ini',
    'pyproject.toml#[tool.pytest*]',
    'setup.cfg#[tool:pytest]',
    'tox.ini#[pytest]',
    'conftest.py',
    'tests/conftest.py',
    'test/conftest.py',
  ],
  tox: ['tox.ini'],
  nox: ['noxfile.py'],
  // .cargo/config can name a `runner` that replaces every test binary.
  cargo: ['Cargo.toml#without-dependencies', '.config/nextest.toml', '.cargo/config.toml', '.cargo/config'],
  go: ['go.mod#without-require', 'go.work'],
  make: ['Makefile', 'makefile', 'GNUmakefile'],
  bun: ['bunfig.toml'],
  // npm's own settings can change what every script does (`script-shell=true` passes them all).
  npm: ['.npmrc'],
  pnpm: ['.npmrc'],
  yarn: ['.yarnrc.yml', '.yarnrc'],
};

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** npm's built-in commands that run the script of the same name. */
const NPM_SCRIPT_COMMANDS: Record<string, string> = { test: 'test', t: 'test', tst: 'test', start: 'start', stop: 'stop', restart: 'restart' };
const NPM_RUN = new Set(['run', 'run-script', 'rum', 'urn']);
/** Tools that run other tools named in their arguments. */
const LAUNCHERS = new Set(['npx', 'bunx', 'pnpx', 'dotenv', 'cross-env']);
/** Interpreters whose file arguments are part of what runs (`node scripts/test.mjs`, `bash ./ci/test.sh`). */
const INTERPRETERS = new Set(['node', 'bash', 'sh', 'zsh', 'dash', 'python', 'python3', 'tsx', 'ts-node', 'deno', 'bun', 'ruby', 'perl']);
/** npm-run-all and its short forms run scripts by name or glob. */
const SCRIPT_RUNNERS = new Set(['npm-run-all', 'run-s', 'run-p']);
const MAX_DEPTH = 6;
const MAX_SCRIPT_FILES = 8;

type Scripts = Record<string, unknown>;

interface Walk {
  root: string;
  scripts: Scripts | null;
  parts: Set<string>;
  seenScripts: Set<string>;
  scriptFiles: number;
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** A relative path inside the root, or null for one outside it, in node_modules, or that `#` would misread. */
export function projectPath(root: string, path: string): string | null {
  if (path.includes('#') || path.includes('$')) return null;
  if (isAbsolute(path) && !path.startsWith(`${root}/`)) return null;
  const relative = normalize(isAbsolute(path) ? path.slice(root.length + 1) : path).replace(/\\/g, '/');
  if (isAbsolute(relative) || relative === '..' || relative.startsWith('../') || relative === '.' || relative.split('/').includes('node_modules')) return null;
  return relative.replace(/^\.\//, '');
}

function readScripts(root: string): Scripts | null {
  try {
    const parsed = JSON.parse(readFileSync(join(root, PACKAGE), 'utf8')) as { scripts?: unknown };
    return parsed.scripts && typeof parsed.scripts === 'object' ? (parsed.scripts as Scripts) : {};
  } catch {
    return null;
  }
}

function addRunner(walk: Walk, runner: string): void {
  for (const part of RUNNER_PARTS[runner] ?? []) walk.parts.add(part);
}

/** A script, with its pre and post hooks (npm runs them; a `pretest` can stage what the test sees). */
function addScript(walk: Walk, name: string, depth: number): void {
  if (walk.seenScripts.has(name)) return;
  walk.seenScripts.add(name);
  for (const hooked of [`pre${name}`, name, `post${name}`]) {
    walk.parts.add(`${PACKAGE}#scripts.${hooked}`);
    const body = walk.scripts?.[hooked];
    if (typeof body === 'string') addCommandLine(walk, body, depth + 1);
  }
}

function scriptsMatching(walk: Walk, pattern: string): string[] {
  if (!pattern.includes('*')) return [pattern];
  const regex = new RegExp(
    `^${pattern
      .split(/(\*\*|\*)/)
      .map((piece) => (piece === '**' ? '.*' : piece === '*' ? '[^:]*' : piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  );
  return Object.keys(walk.scripts ?? {}).filter((name) => regex.test(name));
}

const positional = (args: readonly string[]): string[] => {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).filter((arg) => !arg.startsWith('-'));
};

/** `npm test`, `npm run x`, `yarn x`, `pnpm exec vitest`, `bun test`: the scripts and runners it reaches. */
function addPackageManager(walk: Walk, command: SimpleCommand, depth: number): void {
  addRunner(walk, command.name);
  const [verb, next] = positional(command.args);
  if (verb === undefined) return;
  if (command.name === 'bun' && verb === 'test') return addRunner(walk, 'bun');
  if (command.name === 'npm' && NPM_SCRIPT_COMMANDS[verb]) return addScript(walk, NPM_SCRIPT_COMMANDS[verb], depth);
  if (NPM_RUN.has(verb) || (command.name !== 'npm' && verb === 'test')) {
    const name = NPM_RUN.has(verb) ? next : 'test';
    if (name) addScript(walk, name, depth);
    else if (command.name === 'bun' && next) addFile(walk, next);
    return;
  }
  if (['exec', 'dlx', 'x'].includes(verb) && next) return addTool(walk, next, command.args.slice(command.args.indexOf(next) + 1), depth);
  // yarn and pnpm run a script by its bare name, else a binary of that name.
  if (command.name !== 'npm' && typeof walk.scripts?.[verb] === 'string') return addScript(walk, verb, depth);
  if (command.name !== 'npm') addTool(walk, verb, command.args.slice(command.args.indexOf(verb) + 1), depth);
}

function addFile(walk: Walk, path: string): void {
  if (walk.scriptFiles >= MAX_SCRIPT_FILES) return;
  const relative = projectPath(walk.root, path);
  if (relative === null || !isFile(join(walk.root, relative))) return;
  walk.parts.add(relative);
  walk.scriptFiles += 1;
}

/** A tool started by name (after npx, from a script): a runner's config, or the script file it runs. */
function addTool(walk: Walk, name: string, args: readonly string[], depth: number): void {
  const command: SimpleCommand = { name: name.split('/').pop()!.toLowerCase(), word: name, args: [...args], redirects: [], cd: [] };
  addCommand(walk, command, depth);
}

function addCommand(walk: Walk, command: SimpleCommand, depth: number): void {
  const { name, args } = command;
  // A file run directly: `./run-tests.sh`, `scripts/ci/test`.
  if (command.word.includes('/')) addFile(walk, command.word);
  if (PACKAGE_MANAGERS.has(name)) return addPackageManager(walk, command, depth);
  if (SCRIPT_RUNNERS.has(name)) return; // read from the line itself (addCommandLine): the shell parser takes `test:*` for a file glob
  if (LAUNCHERS.has(name)) {
    // `cross-env NODE_ENV=test jest`: the tool is the first word that is not an option or a variable.
    const [tool] = positional(args).filter((arg) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg));
    if (tool) addTool(walk, tool, args.slice(args.indexOf(tool) + 1), depth);
    return;
  }
  if (name === 'pytest' || name === 'py.test') return addRunner(walk, 'pytest');
  if ((name === 'python' || name === 'python3') && args[0] === '-m' && args[1]) {
    return addTool(walk, args[1], args.slice(2), depth);
  }
  if (name === 'cargo' || name === 'go') return addRunner(walk, name);
  if (name === 'make' || name === 'gmake') return addRunner(walk, 'make');
  if (RUNNER_PARTS[name]) addRunner(walk, name);
  if (INTERPRETERS.has(name)) for (const arg of args) if (!arg.startsWith('-') && /[./]/.test(arg)) addFile(walk, arg);
}

function addCommandLine(walk: Walk, line: string, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const match of line.matchAll(/(?:^|[\s;&|(])(?:npm-run-all|run-s|run-p)((?:\s+[^\s;&|)]+)+)/g)) {
    for (const word of match[1]!.trim().split(/\s+/)) {
      const pattern = word.replace(/^["']|["']$/g, '');
      if (!pattern.startsWith('-')) for (const script of scriptsMatching(walk, pattern)) addScript(walk, script, depth);
    }
  }
  for (const command of simpleCommands(line)) addCommand(walk, command, depth);
}

/**
 * The parts that define `command`, without reading them: `explicitFiles` (whole files) replaces the search.
 * `alsoReaching` are further commands that run the same suite (the coverage command): their parts count too.
 */
export function definitionParts(root: string, command: string, explicitFiles?: readonly string[], alsoReaching: readonly string[] = []): string[] {
  if (explicitFiles && explicitFiles.length > 0) {
    return [...new Set(explicitFiles.map((file) => projectPath(root, file)).filter((file): file is string => file !== null))].sort();
  }
  const walk: Walk = { root, scripts: readScripts(root), parts: new Set(), seenScripts: new Set(), scriptFiles: 0 };
  for (const line of [command, ...alsoReaching]) addCommandLine(walk, line, 0);
  return [...walk.parts].sort();
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

function readIfPresent(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** The lines of the TOML/INI sections `keep` chooses (lines before the first header: section ''), comments and blank lines left out. */
function sectionLines(text: string, keep: (section: string) => boolean, dropLine: (section: string, line: string) => boolean = () => false): string[] {
  let section = '';
  const kept: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) section = header[1]!;
    if (keep(section) && !dropLine(section, line)) kept.push(line);
  }
  return kept;
}

const DEPENDENCY_SECTION = /(?:^|\.)(?:dev-|build-)?dependencies(?:\.|$)/;

/** The digest of one piece of a file, or null when the file or the piece is absent. */
function pieceDigest(file: string, selector: string, content: Buffer): PartDigest {
  const text = content.toString('utf8');
  if (file === PACKAGE) {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Unreadable: every piece differs from what it was, which is true enough.
      return sha256(content);
    }
    const [key, ...rest] = selector.split('.');
    let value: unknown = parsed[key!];
    if (rest.length > 0) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[rest.join('.')] : undefined;
    return value === undefined ? null : sha256(JSON.stringify(value));
  }
  if (selector.startsWith('[') && selector.endsWith(']')) {
    const wanted = selector.slice(1, -1);
    const matches = wanted.endsWith('*') ? (name: string) => name.startsWith(wanted.slice(0, -1)) : (name: string) => name === wanted;
    const lines = sectionLines(text, matches);
    return lines.length === 0 ? null : sha256(lines.join('\n'));
  }
  if (selector === 'without-dependencies') {
    // A new dependency or a version bump does not change how the tests run.
    return sha256(
      sectionLines(
        text,
        (section) => !DEPENDENCY_SECTION.test(section),
        (section, line) => /^(?:package|workspace\.package)$/.test(section) && /^version\s*=/.test(line),
      ).join('\n'),
    );
  }
  if (selector === 'without-require') {
    return sha256(
      text
        .replace(/^require\s*\([^)]*\)/gm, '')
        .replace(/^require\s+.*$/gm, '')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
    );
  }
  return sha256(content);
}

/** One part's digest now. */
export function partDigest(root: string, part: string, cache = new Map<string, Buffer | null>()): PartDigest {
  const hash = part.indexOf('#');
  const file = hash < 0 ? part : part.slice(0, hash);
  if (!cache.has(file)) cache.set(file, readIfPresent(join(root, file)));
  const content = cache.get(file)!;
  if (content === null) return null;
  return hash < 0 ? sha256(content) : pieceDigest(file, part.slice(hash + 1), content);
}

/** The digest of a definition: the command and the parts that exist (an absent part adds nothing). */
export function definitionDigest(command: string, files: Record<string, PartDigest>): string {
  const present = Object.keys(files)
    .sort()
    .filter((part) => files[part] !== null)
    .map((part) => [part, files[part]]);
  return sha256(JSON.stringify([command, present]));
}

/**
 * What defines `command` in the project at `root` now: its parts and their digests. `explicitFiles`
 * (testing.json's `definition_files`) names the files instead of the search. The digest holds the test
 * command's words, not the coverage command's: naming a coverage tool changes what is measured, not which
 * tests run, and only a person can name one (testing.json) or install one.
 */
export function testDefinition(root: string, command: string, explicitFiles?: readonly string[], alsoReaching: readonly string[] = []): TestDefinition {
  const cache = new Map<string, Buffer | null>();
  const files: Record<string, PartDigest> = {};
  for (const part of definitionParts(root, command, explicitFiles, alsoReaching)) files[part] = partDigest(root, part, cache);
  return { digest: definitionDigest(command, files), files };
}

export interface DefinitionChange {
  part: string;
  change: 'changed' | 'appeared' | 'removed' | 'now-part' | 'no-longer-part';
}

/**
 * What differs between a recorded definition and the one now. A part reached now that was not recorded
 * (the test script now calls another script) is new to it; a recorded part no longer reached is named too.
 */
export function definitionChanges(recorded: Record<string, PartDigest>, now: Record<string, PartDigest>): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  for (const part of [...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort()) {
    const before = recorded[part];
    const after = now[part];
    if (before === after) continue;
    if (before === undefined) {
      if (after !== null) changes.push({ part, change: 'now-part' });
    } else if (after === undefined) {
      if (before !== null) changes.push({ part, change: 'no-longer-part' });
    } else if (before === null) changes.push({ part, change: 'appeared' });
    else if (after === null) changes.push({ part, change: 'removed' });
    else changes.push({ part, change: 'changed' });
  }
  return changes;
}

/** `package.json#scripts.test` → `package.json scripts.test`, as a person reads it. */
export function partLabel(part: string): string {
  const [file, selector] = part.split('#');
  if (selector === undefined) return file!;
  if (selector === 'without-dependencies') return `${file} (apart from its dependencies and version)`;
  if (selector === 'without-require') return `${file} (apart from its require lines)`;
  return `${file} ${selector}`;
}

const CHANGE_WORDS: Record<DefinitionChange['change'], string> = {
  changed: 'changed',
  appeared: 'appeared',
  removed: 'was removed',
  'now-part': 'is now part of the test command',
  'no-longer-part': 'is no longer part of the test command',
};

export function describeChange(change: DefinitionChange): string {
  return `${partLabel(change.part)} ${CHANGE_WORDS[change.change]}`;
}
