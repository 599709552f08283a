// One `codex exec` session against the mock Responses API, in a throw-away project: its own CODEX_HOME
// (config, trust, sessions) and HOME, its own port, stdin closed, a hard timeout. The model provider is
// given as `-c` flags, because a project's `.codex/config.toml` may not set one (Codex ignores it there).
//
// CODEX_HOME lives in the suite's cache folder, not under the temp folder: Codex makes links to its
// sandbox helper under CODEX_HOME and refuses to when CODEX_HOME lies under `$TMPDIR` (or /tmp), and
// every sandboxed command and patch then fails.
import { childOutcome } from './child-output.js';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { cleanEnv, tempDir } from '../../helpers/project.js';
import { ensureCodex } from './codex-install.js';
import { CodexMockApi, type CodexReply, type CodexScript, type CodexTurn, type CodexTurnContext } from './codex-mock-api.js';
import { CODEX_CURRENT } from './codex-versions.js';
import { suiteCache } from './pinned-cache.js';

export interface CodexProject {
  /** The project folder (its real path: Codex keys trust and hooks by it). */
  dir: string;
  /** CODEX_HOME: the person's Codex config, trust and sessions. */
  codexHome: string;
  /** HOME for the session (the agent's `bash -lc` reads its profile from here). */
  home: string;
  version: string;
}

export interface CodexProjectOptions {
  version?: string;
  /** Files to write (relative path → content). */
  files?: Record<string, string>;
  /** Make it a git repository with one commit (default true); `codex exec` otherwise needs `--skip-git-repo-check`. */
  git?: boolean;
  /** Record the project as trusted in CODEX_HOME/config.toml (default true); untrusted, Codex ignores its `.codex/` folder. */
  trusted?: boolean;
}

const HOMES = suiteCache('codex-homes');
const homesMade: string[] = [];

/** Removes the CODEX_HOMEs this file's projects made (unless ISDLC_KEEP_TEST_DIRS is set). */
export function removeCodexHomes(): void {
  if (process.env['ISDLC_KEEP_TEST_DIRS']) return;
  for (const dir of homesMade.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Each end-to-end file running Codex: its versions are in the cache before the first test, and its CODEX_HOMEs go after the last. */
export function usesCodex(...versions: string[]): void {
  beforeAll(() => {
    for (const version of versions.length > 0 ? versions : [CODEX_CURRENT]) ensureCodex(version);
  }, 10 * 60_000);
  afterAll(removeCodexHomes);
}

function git(dir: string, args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    stdio: 'ignore',
    env: cleanEnv({ GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.test', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.test' }),
  });
}

/** A TOML basic string (JSON's escapes are TOML's for the characters paths and commands hold). */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

export function codexProject(options: CodexProjectOptions = {}): CodexProject {
  const base = realpathSync(tempDir('isdlc-codex-e2e-'));
  const dir = join(base, 'project');
  const home = join(base, 'home');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  mkdirSync(HOMES, { recursive: true });
  const codexHome = join(HOMES, randomBytes(6).toString('hex'));
  mkdirSync(codexHome);
  homesMade.push(codexHome);
  for (const [rel, content] of Object.entries(options.files ?? {})) writeProjectFile({ dir }, rel, content);
  if (options.git !== false) {
    git(dir, ['init', '-q', '-b', 'main']);
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'start']);
  }
  const project = { dir, codexHome, home, version: options.version ?? CODEX_CURRENT };
  writeFileSync(join(codexHome, 'config.toml'), '');
  if (options.trusted !== false) personConfig(project, `[projects.${tomlString(dir)}]\ntrust_level = "trusted"\n`);
  return project;
}

export function writeProjectFile(project: Pick<CodexProject, 'dir'>, rel: string, content: string, mode?: number): string {
  const file = join(project.dir, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content, mode === undefined ? undefined : { mode });
  return file;
}

/** Appends TOML to the person's CODEX_HOME/config.toml. */
export function personConfig(project: CodexProject, toml: string): void {
  appendFileSync(join(project.codexHome, 'config.toml'), `${toml.endsWith('\n') ? toml : `${toml}\n`}`);
}

export interface HookHandler {
  command: string;
  timeout?: number;
}

/** `<project>/.codex/hooks.json`: each event's handlers in one matcher group (matching every tool where the event has tools). */
export function writeHooks(project: CodexProject, hooks: Partial<Record<string, HookHandler[]>>, matcher = '.*'): string {
  const events: Record<string, unknown> = {};
  for (const [event, handlers] of Object.entries(hooks)) {
    events[event] = [{ matcher, hooks: (handlers ?? []).map((handler) => ({ type: 'command', timeout: 30, ...handler })) }];
  }
  return writeProjectFile(project, '.codex/hooks.json', `${JSON.stringify({ hooks: events }, null, 2)}\n`);
}

export interface CodexRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** `codex exec --json` events, one per stdout line. */
  events: Record<string, unknown>[];
  api: CodexMockApi;
  ms: number;
}

export interface CodexRunOptions {
  /** The replies to the model requests in order, or one function answering every request. */
  turns?: CodexTurn[] | ((context: CodexTurnContext) => CodexReply);
  /** Several scripts, told apart by their thread's first prompt (a subagent's thread has its own). */
  scripts?: CodexScript[];
  prompt?: string;
  /** Pass `--dangerously-bypass-hook-trust` (default true): without it, only trusted hooks run. */
  bypassHookTrust?: boolean;
  /** More arguments for `codex exec`, before the prompt. */
  args?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
  version?: string;
}

export const MOCK_MODEL = 'gpt-5.5';
const KEY_VAR = 'ISDLC_E2E_OPENAI_KEY';

/** The `-c` flags that send Codex's model requests to the mock, without retries (a failed request fails the run at once). */
export function providerFlags(baseUrl: string): string[] {
  const settings: Record<string, string> = {
    model_provider: '"mock"',
    model: tomlString(MOCK_MODEL),
    'model_providers.mock.name': '"mock"',
    'model_providers.mock.base_url': tomlString(baseUrl),
    'model_providers.mock.env_key': tomlString(KEY_VAR),
    'model_providers.mock.wire_api': '"responses"',
    'model_providers.mock.request_max_retries': '0',
    'model_providers.mock.stream_max_retries': '0',
  };
  return Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}

function scriptsOf(options: CodexRunOptions): CodexScript[] {
  if (options.scripts) return options.scripts;
  const turns = options.turns ?? [];
  return [typeof turns === 'function' ? { name: 'main', after: turns } : { name: 'main', turns }];
}

export async function runCodex(project: CodexProject, options: CodexRunOptions = {}): Promise<CodexRun> {
  const binary = ensureCodex(options.version ?? project.version);
  const api = await CodexMockApi.start(scriptsOf(options));
  const args = [
    'exec',
    '--json',
    '--color',
    'never',
    ...providerFlags(api.url),
    ...(options.bypassHookTrust === false ? [] : ['--dangerously-bypass-hook-trust']),
    ...(existsSync(join(project.dir, '.git')) ? [] : ['--skip-git-repo-check']),
    ...(options.args ?? []),
    options.prompt ?? 'Do the task.',
  ];
  // Nothing of the test runner's environment that points at a project, a host or an account.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: project.home,
    LANG: 'C.UTF-8',
    TMPDIR: process.env['TMPDIR'] ?? '/tmp',
    SHELL: '/bin/bash',
    CODEX_HOME: project.codexHome,
    [KEY_VAR]: 'sk-e2e-not-a-real-key',
    ...options.env,
  };
  const started = Date.now();
  const child = spawn(binary.command, args, { cwd: project.dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const { stdout, stderr, exitCode, signal, timedOut } = await childOutcome(child, options.timeoutMs ?? 60_000);
  await api.close();
  const events: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a partial line at a kill
    }
  }
  return { exitCode, signal, timedOut, stdout, stderr, events, api, ms: Date.now() - started };
}

/** The lines a hook appended to a file, parsed as JSON (a recorder hook: `cat >> file; echo >> file`). */
export function jsonLines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
