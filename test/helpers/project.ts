// Throw-away projects on disk, and the ways users and hosts run isdlc in them.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { journalPath, noteFolders, recordAsIs, updateJournal } from '../../src/integrity/journal.js';
import { unjournaled } from '../../src/integrity/unjournaled.js';
import { GUARDED } from './hosts.js';
import { ISDLC_DIR } from '../../src/state/locate.js';
import { cliInProcess, hookInProcess } from './in-process.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
export const BIN = join(REPO, 'dist/isdlc.cjs');
export const FIXTURES = join(REPO, 'test/fixtures');

const made: string[] = [];
/** Removes the folders tempDir made (after each test file: test/helpers/after-each-file.ts), unless ISDLC_KEEP_TEST_DIRS is set. */
export function removeTempDirs(): void {
  if (process.env['ISDLC_KEEP_TEST_DIRS']) return;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function tempDir(prefix = 'isdlc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * Writes a file as the person would while setting a project up, in their editor: when it is one of
 * isdlc's guarded files in a project that keeps a journal, the write is accepted the way `isdlc changes
 * accept` accepts it, so the next hook call takes it as isdlc's. Tests that play an agent changing isdlc's
 * files use writeFileSync (or a real shell command) instead.
 */
export function writeFile(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  personWrote(path);
}

function journalRootAbove(path: string): string | undefined {
  for (let dir = dirname(resolve(path)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(journalPath(dir, 'index.json'))) return dir;
  }
  return undefined;
}

/** The person's own write of `path` (already on disk): recorded in the project's journal, as `isdlc changes accept` would. */
export function personWrote(path: string): void {
  const root = journalRootAbove(path);
  if (!root) return;
  const rel = relative(root, resolve(path)).split(sep).join('/');
  if (rel.startsWith('..') || GUARDED.kindOfRelative(rel) === undefined || unjournaledPath(rel)) return;
  updateJournal(root, (index) => {
    recordAsIs(root, index, rel, true);
    noteFolders(root, index, rel);
  });
}

const unjournaledPath = (rel: string): boolean => rel.startsWith(`${ISDLC_DIR}/`) && unjournaled(rel.slice(ISDLC_DIR.length + 1));

export function writeJson(path: string, value: unknown): void {
  writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

export function readJson<T = Record<string, unknown>>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function toRun(result: SpawnSyncReturns<string>): Run {
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The Claude Code version the suite's projects are set up for, unless a test says otherwise. */
export const TESTED_CLAUDE_VERSION = '2.1.332';

let claudeShim: string | undefined;
/**
 * A folder whose `claude` prints TESTED_CLAUDE_VERSION, first on every child's PATH: `isdlc init` and
 * `doctor` ask `claude --version`, and a real Claude Code on this machine (or none) must not change what
 * the tests see. A test that wants another passes its own PATH.
 */
function claudeShimDir(): string {
  // Made again after the folders of the test file before it were removed.
  if (!claudeShim || !existsSync(claudeShim)) {
    claudeShim = mkdtempSync(join(tmpdir(), 'isdlc-claude-shim-'));
    made.push(claudeShim);
    writeFileSync(join(claudeShim, 'claude'), `#!/bin/sh\nprintf '%s (Claude Code)\\n' '${TESTED_CLAUDE_VERSION}'\n`, { mode: 0o755 });
  }
  return claudeShim;
}

/** Environment for child processes: the test runner's, minus anything that points at a project. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${claudeShimDir()}${delimiter}${process.env['PATH'] ?? ''}` };
  delete env['CLAUDE_PROJECT_DIR'];
  delete env['ISDLC_PROJECT'];
  delete env['NODE_PATH'];
  // Set inside Claude Code's shell: the CLI then refuses a person's decisions. Tests say when they want it.
  delete env['CLAUDECODE'];
  // init's code-cache warm-up (half a second a project) is left to the first hook calls, except in the
  // tests about it, which pass ISDLC_NO_WARM_CACHE: ''.
  return { ...env, ISDLC_NO_WARM_CACHE: '1', ...extra };
}

/** The commands the CLI finishes after its action returns: they run in a child process. */
const LATER = [['phase', 'complete'], ['mcp']];
const finishesLater = (args: string[]): boolean => {
  const words = args.filter((word) => !word.startsWith('-'));
  return LATER.some((command) => command.every((word, i) => words[i] === word));
};

/**
 * `isdlc <args>` as a user types it, answered by the built CLI in this process (test/helpers/in-process.ts);
 * the commands that finish later, `hook` (it reads stdin, see hook()), help and version start the executable
 * (cliProcess).
 */
export function cli(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Run {
  const ownProcess = finishesLater(args) || args[0] === 'hook' || ['--help', '-h', '--version', '-v'].some((flag) => args.includes(flag));
  if (ownProcess) return cliProcess(args, options);
  return cliInProcess(REPO, args, options.cwd ?? REPO, cleanEnv(options.env));
}

/** `isdlc <args>` in a child process, through the executable a user runs. */
export function cliProcess(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Run {
  return toRun(
    spawnSync(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? REPO,
      env: cleanEnv(options.env),
      encoding: 'utf8',
      input: options.input ?? '',
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
}

/**
 * `isdlc hook` with a payload and the host's project variable set, answered by the built CLI's registry in
 * this process; hookProcess starts the executable (its choice of bundle, its checks, its exit).
 */
export function hook(project: string, payload: unknown, args: string[] = []): Run {
  if (args.some((arg) => ['--check', '--warm-cache', '--help', '-h'].includes(arg))) return hookProcess(project, payload, args);
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return hookInProcess(REPO, args, input, project, cleanEnv({ CLAUDE_PROJECT_DIR: project }));
}

/** `isdlc hook` as a child process with a payload on stdin and the host's project variable set. */
export function hookProcess(project: string, payload: unknown, args: string[] = []): Run {
  return toRun(
    spawnSync(process.execPath, [BIN, 'hook', ...args], {
      cwd: project,
      env: cleanEnv({ CLAUDE_PROJECT_DIR: project }),
      encoding: 'utf8',
      input: typeof payload === 'string' ? payload : JSON.stringify(payload),
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
}

/** A recorded payload from test/fixtures/payloads, moved into `project`. */
export function fixture(name: string, project?: string): Record<string, unknown> {
  const payload = readJson(join(FIXTURES, 'payloads', name));
  if (project) payload['cwd'] = project;
  return payload;
}

/** A project set up the way a user does it: `isdlc init DIR`. */
export function initedProject(prefix = 'isdlc-project-'): string {
  const dir = tempDir(prefix);
  const run = cli(['init', dir]);
  if (run.status !== 0) throw new Error(`init failed: ${run.stderr}`);
  return dir;
}

/** initedProject, of a project with a test script (init finds `npm test`): what doctor passes as it is. */
export function initedProjectWithTests(prefix = 'isdlc-project-'): string {
  const dir = tempDir(prefix);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { test: 'node --test' } })}\n`);
  const run = cli(['init', dir]);
  if (run.status !== 0) throw new Error(`init failed: ${run.stderr}`);
  return dir;
}

/**
 * The project as `isdlc init --no-sandbox` leaves it: no sandbox around the agent's shell, so the hook's
 * text rules refuse what they recognise (with the sandbox on they only note it: the OS refuses the write).
 */
export function withoutSandbox(project: string): string {
  const run = cli(['init', project, '--no-sandbox']);
  if (run.status !== 0) throw new Error(`init --no-sandbox failed: ${run.stderr}`);
  return project;
}

export function activityLog(project: string): Record<string, unknown>[] {
  try {
    return readFileSync(join(project, '.isdlc/hook-activity.log'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  } catch {
    return [];
  }
}

export function lastActivity(project: string): Record<string, unknown> {
  const entries = activityLog(project);
  const last = entries[entries.length - 1];
  if (!last) throw new Error('activity log is empty');
  return last;
}

export interface Decision {
  kind: 'allow' | 'deny' | 'block';
  reason?: string;
  context?: string;
  systemMessage?: string;
  raw?: Record<string, unknown>;
}

/** Reads a hook's stdout the way Claude Code does. */
export function decisionOf(run: Run): Decision {
  const out = run.stdout.trim();
  if (out === '') return { kind: 'allow' };
  const raw = JSON.parse(out) as Record<string, unknown>;
  const specific = (raw['hookSpecificOutput'] ?? {}) as Record<string, unknown>;
  const decision: Decision = { kind: 'allow', raw };
  if (specific['permissionDecision'] === 'deny') {
    decision.kind = 'deny';
    decision.reason = String(specific['permissionDecisionReason']);
  } else if (raw['decision'] === 'block') {
    decision.kind = 'block';
    decision.reason = String(raw['reason']);
  }
  if (typeof specific['additionalContext'] === 'string') decision.context = specific['additionalContext'];
  if (typeof raw['systemMessage'] === 'string') decision.systemMessage = raw['systemMessage'];
  return decision;
}

/** A task plan from test/fixtures/plans at the project's tasks.md (`docs/isdlc/tasks.md` by default). */
export function writePlan(project: string, name = 'valid-v2.md', path = 'docs/isdlc/tasks.md'): void {
  writeFile(join(project, path), readFileSync(join(FIXTURES, 'plans', name), 'utf8'));
}

/** `git ARGS` in `dir`, with an identity of its own (the machine may have none). */
export function git(dir: string, ...args: string[]): void {
  const run = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: dir, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${dir}: ${run.stderr}`);
}
