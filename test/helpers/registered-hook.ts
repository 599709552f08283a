// Runs the hook command that `isdlc init` wrote into .claude/settings.json exactly as Claude Code would:
// pick the registration whose matcher fits the tool, substitute ${CLAUDE_PROJECT_DIR}, start the
// command (directly for the exec form, through bash for a command line), payload on stdin, the
// project's directory as cwd and in CLAUDE_PROJECT_DIR.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { hookInProcess } from './in-process.js';
import { cleanEnv, readJson, REPO, type Run } from './project.js';

interface HookEntry {
  type: string;
  command: string;
  args?: string[];
  timeout?: number;
}

interface MatcherEntry {
  matcher?: string;
  hooks: HookEntry[];
}

/** Claude Code matchers: `A|B` lists exact tool names, anything else is a regular expression. */
function matches(matcher: string | undefined, tool: string | undefined): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  if (tool === undefined) return false;
  if (/^[A-Za-z0-9_|]+$/.test(matcher)) return matcher.split('|').includes(tool);
  return new RegExp(matcher).test(tool);
}

export function registeredCommands(project: string, event: string, tool?: string, settingsFile = join(project, '.claude/settings.json')): HookEntry[] {
  const settings = readJson<{ hooks?: Record<string, MatcherEntry[]> }>(settingsFile);
  return (settings.hooks?.[event] ?? []).filter((entry) => matches(entry.matcher, tool)).flatMap((entry) => entry.hooks);
}

/**
 * `settingsFile`: where the registration is read from, when not the project's settings as they are now.
 * Claude Code reads the hooks once, when the session starts: a session goes on running them after its
 * agent rewrote the settings file.
 */
export function runRegisteredHook(project: string, payload: Record<string, unknown>, env: Record<string, string> = {}, settingsFile?: string): Run {
  return runRegisteredHookWith(project, payload, JSON.stringify(payload), env, settingsFile);
}

/** The one isdlc hook registered for the payload's event and tool, with `${CLAUDE_PROJECT_DIR}` put in. */
function registeredIsdlcHook(project: string, payload: Record<string, unknown>, settingsFile?: string): { file: string; args: string[]; timeout: number } {
  const event = String(payload['hook_event_name']);
  // Matchers match the tool name, and for SessionStart what started the session.
  const subject = event === 'SessionStart' ? payload['source'] : payload['tool_name'];
  const tool = typeof subject === 'string' ? subject : undefined;
  const ours = registeredCommands(project, event, tool, settingsFile).filter((hook) => JSON.stringify(hook).includes('.isdlc/bin/isdlc.cjs'));
  if (ours.length !== 1) throw new Error(`expected one isdlc hook for ${event} ${tool ?? ''}, found ${ours.length}`);
  const hook = ours[0]!;
  const substitute = (text: string): string => text.split('${CLAUDE_PROJECT_DIR}').join(project);
  const [file, args] = hook.args ? [substitute(hook.command), hook.args.map(substitute)] : ['bash', ['-c', hook.command]];
  return { file, args, timeout: hook.timeout ?? 600 };
}

/** As runRegisteredHook, with `input` sent as it is: JSON no object of the test's can be stringified into. */
export function runRegisteredHookWith(
  project: string,
  payload: Record<string, unknown>,
  input: string,
  env: Record<string, string> = {},
  settingsFile?: string,
): Run {
  const { file, args, timeout } = registeredIsdlcHook(project, payload, settingsFile);
  const result = spawnSync(file, args, {
    cwd: project,
    env: cleanEnv({ CLAUDE_PROJECT_DIR: project, ...env }),
    input,
    encoding: 'utf8',
    timeout: timeout * 1000,
  });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The hook registered for the payload, answered in this process by the built CLI (test/helpers/in-process.ts)
 * with the arguments the registration gives: for tests of what isdlc decides, where the process that
 * `isdlc init` registered is not the subject. The registration must be `node <project>/.isdlc/bin/isdlc.cjs
 * hook ...`, and the installed bundles are taken to be the built ones (tests that change them use
 * runRegisteredHook).
 */
export function answerAsRegistered(project: string, payload: Record<string, unknown>, env: Record<string, string> = {}, settingsFile?: string): Run {
  const { file, args } = registeredIsdlcHook(project, payload, settingsFile);
  const executable = join(project, '.isdlc/bin/isdlc.cjs');
  if (file !== 'node' || args[0] !== executable || args[1] !== 'hook') throw new Error(`not the registration isdlc init writes: ${file} ${args.join(' ')}`);
  return hookInProcess(REPO, args.slice(2), JSON.stringify(payload), project, cleanEnv({ CLAUDE_PROJECT_DIR: project, ...env }));
}
