// One headless Claude Code session against the mock Messages API, in a project `isdlc init` set up:
// its own HOME (trust, sessions and caches live there), its own port, a hard timeout. The stream-json
// output (with hook events) is parsed; the mock keeps every request the model side received.
import { childOutcome } from './child-output.js';
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { BIN, cleanEnv, tempDir } from '../../helpers/project.js';
import { ensureClaudeCode } from './claude-install.js';
import { CURRENT } from './claude-versions.js';
import { MockApi, type ConversationScript } from './mock-api.js';

export interface E2eProject {
  dir: string;
  home: string;
  version: string;
}

export interface ProjectOptions {
  /** The Claude Code version this project is set up for and run with. */
  version?: string;
  /** Put the project in a folder whose name holds a space. */
  space?: boolean;
  /** Extra arguments for `isdlc init`. */
  initArgs?: string[];
  /** Mark the folder trusted in HOME/.claude.json, as accepting Claude Code's trust dialog does. */
  trusted?: boolean;
  /** Files to write before init (relative path → content). */
  files?: Record<string, string>;
}

function git(dir: string, args: string[]): void {
  execFileSync('git', args, {
    cwd: dir,
    stdio: 'ignore',
    env: cleanEnv({ GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.test', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.test' }),
  });
}

export function isdlc(project: E2eProject, args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, [BIN, ...args], { cwd: project.dir, encoding: 'utf8', env: cleanEnv(env) });
}

export function e2eProject(options: ProjectOptions = {}): E2eProject {
  const base = tempDir('isdlc-e2e-');
  const dir = join(base, options.space ? 'my project' : 'project');
  const home = join(base, 'home');
  mkdirSync(dir, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [rel, content] of Object.entries(options.files ?? {})) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', 'start']);
  const version = options.version ?? CURRENT;
  const project = { dir, home, version };
  isdlc(project, ['init', dir, '--claude-version', version, ...(options.initArgs ?? [])]);
  if (options.trusted) trust(project);
  return project;
}

/**
 * Takes isdlc's protection out of the project's settings (the sandbox, the deny rules, the block on
 * writes outside the project), as in a project set up by an older isdlc or edited by a person: for the
 * scenarios that show what the hooks do on their own, without the layers in front of them.
 */
export function unprotected(project: E2eProject): E2eProject {
  isdlc(project, ['init', project.dir, '--claude-version', project.version, '--no-sandbox']);
  const file = join(project.dir, '.claude', 'settings.json');
  const settings = JSON.parse(readFileSync(file, 'utf8')) as { permissions?: Record<string, unknown> };
  if (settings.permissions) {
    delete settings.permissions['deny'];
    delete settings.permissions['blockWritesOutsideWorkingDirectories'];
  }
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
  return asPersonWrote(project);
}

/**
 * Files of isdlc's the test wrote by hand, as a person setting the project up would: kept with `isdlc
 * changes accept`, or the first hook call undoes them (docs/tamper-evidence.md).
 */
export function asPersonWrote(project: E2eProject): E2eProject {
  isdlc(project, ['changes', 'accept']);
  return project;
}

/** What accepting Claude Code's trust dialog for this folder records. */
export function trust(project: E2eProject): void {
  const file = join(project.home, '.claude.json');
  const config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  const projects = (config['projects'] ?? {}) as Record<string, Record<string, unknown>>;
  projects[project.dir] = { ...(projects[project.dir] ?? {}), hasTrustDialogAccepted: true };
  writeFileSync(file, JSON.stringify({ ...config, projects }, null, 2));
}

/** The user's own Claude Code settings (HOME/.claude/settings.json), merged with what is there. */
export function userSettings(project: E2eProject, settings: Record<string, unknown>): void {
  const file = join(project.home, '.claude', 'settings.json');
  const before = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(join(project.home, '.claude'), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...before, ...settings }, null, 2));
}

export interface StreamEvent {
  type: string;
  subtype?: string;
  session_id?: string;
  [key: string]: unknown;
}

export interface HookResponse {
  hook_name: string;
  hook_event: string;
  stdout: string;
  stderr: string;
  exit_code: number;
  outcome: string;
}

export interface ClaudeRun {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  events: StreamEvent[];
  api: MockApi;
  sessionId: string | undefined;
  ms: number;
  /** Claude Code's own record of each hook it ran (`--include-hook-events`). */
  hookResponses: HookResponse[];
}

export interface RunOptions {
  /** The prompt; several are sent one after another in one session (stream-json input), like a person typing. */
  prompt: string | string[];
  scripts: ConversationScript[];
  /** `--resume` this session. */
  resume?: string;
  /** Permission flags; bypass by default (hooks' denies hold in it, as in every mode). */
  permissions?: string[];
  args?: string[];
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Run another Claude Code version than the one the project was set up for. */
  version?: string;
}

const BYPASS = ['--dangerously-skip-permissions'];

function isResult(line: string): boolean {
  try {
    return (JSON.parse(line) as { type?: unknown }).type === 'result';
  } catch {
    return false;
  }
}

/**
 * With several prompts, each is written once the session has answered the one before (a `result`
 * event), then stdin is closed, which ends the session.
 */
function feedPrompts(child: ChildProcessByStdio<Writable, Readable, Readable>, prompt: string | string[]): void {
  if (typeof prompt === 'string') {
    child.stdin.end();
    return;
  }
  const queue = [...prompt];
  const send = (): void => {
    const next = queue.shift();
    if (next === undefined) {
      child.stdin.end();
      return;
    }
    child.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: next } })}\n`);
  };
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{') && isResult(line)) send();
  });
  send();
}

export async function runClaude(project: E2eProject, options: RunOptions): Promise<ClaudeRun> {
  const launcher = ensureClaudeCode(options.version ?? project.version);
  const api = await MockApi.start(options.scripts);
  const args = [
    ...launcher.args,
    '-p',
    ...(typeof options.prompt === 'string' ? [options.prompt] : ['--input-format', 'stream-json']),
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-hook-events',
    ...(options.permissions ?? BYPASS),
    ...(options.resume ? ['--resume', options.resume] : []),
    ...(options.args ?? []),
  ];
  // Nothing of the test runner's environment that points at a project, a host or an account.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: project.home,
    LANG: 'C.UTF-8',
    TMPDIR: process.env['TMPDIR'] ?? '/tmp',
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'sk-ant-e2e-not-a-real-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // As root, --dangerously-skip-permissions needs this; it changes nothing else.
    IS_SANDBOX: '1',
    ...options.env,
  };
  const started = Date.now();
  const child = spawn(launcher.command, args, { cwd: project.dir, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  feedPrompts(child, options.prompt);
  const { stdout, stderr, exitCode, timedOut } = await childOutcome(child, options.timeoutMs ?? 90_000);
  await api.close();
  const events: StreamEvent[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      events.push(JSON.parse(line) as StreamEvent);
    } catch {
      // a partial line at a kill
    }
  }
  const hookResponses = events.filter((event) => event.type === 'system' && event.subtype === 'hook_response') as unknown as HookResponse[];
  const sessionId = events.find((event) => typeof event.session_id === 'string')?.session_id;
  return { exitCode, timedOut, stdout, stderr, events, api, sessionId, ms: Date.now() - started, hookResponses };
}

export interface ActivityEntry {
  event: string;
  tool?: string;
  decision?: string;
  guard?: string;
  reason?: string;
  session?: string;
  notes?: string[];
  user_messages?: string[];
  problem?: string;
  [key: string]: unknown;
}

/** isdlc's own record of the hook calls it answered. */
export function activity(project: E2eProject): ActivityEntry[] {
  const file = join(project.dir, '.isdlc', 'hook-activity.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ActivityEntry);
}

export function readState(project: E2eProject): Record<string, unknown> {
  return JSON.parse(readFileSync(join(project.dir, '.isdlc', 'state.json'), 'utf8')) as Record<string, unknown>;
}
