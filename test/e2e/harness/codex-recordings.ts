// Real hook payloads of the pinned Codex: sessions that make every kind of call a hook sees (shell, a
// failing shell, a patch, a patch that fails to apply, an MCP tool, one that fails, one that asks for
// permission, a subagent, a held Stop, a resumed session), with a recorder hook registered for every
// event writing each payload it is given to a file of its own (hooks of one event run concurrently).
// test/fixtures/payloads/codex-<version>/ holds what these recorded; codex-payloads.test.ts records again
// and checks Codex still sends the same fields.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from '../../helpers/project.js';
import { addFile, applyPatch, call, mcpTool, say, shell, spawnAgent, spawnedAgentId, updateFile, waitAgent } from './codex-script.js';
import { codexProject, runCodex, writeHooks, writeProjectFile, type CodexProject } from './codex-session.js';

export type Payload = Record<string, unknown>;

export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreModelRequest',
  'PostModelRequest',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionEnd',
];

const ECHO_SERVER = join(REPO, 'test/e2e/harness/echo-mcp-server.mjs');

/** `[mcp_servers.echo]` runs its tools unasked; `[mcp_servers.asking]`, the same server, asks first. */
const MCP_CONFIG = `[mcp_servers.echo]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(ECHO_SERVER)}]
default_tools_approval_mode = "approve"

[mcp_servers.asking]
command = ${JSON.stringify(process.execPath)}
args = [${JSON.stringify(ECHO_SERVER)}]
`;

/** A Stop hook that holds the first Stop of the session (a marker file beside the project says it did). */
const HOLD_ONCE = `#!/bin/sh
cat > /dev/null
marker="$1"
[ -e "$marker" ] && exit 0
: > "$marker"
printf '%s\\n' '{"decision":"block","reason":"Run the tests before you stop."}'
`;

function recorded(dir: string): Payload[] {
  return readdirSync(dir)
    .sort()
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as Payload);
}

function recordingProject(): { project: CodexProject; dir: string } {
  const project = codexProject();
  const dir = join(project.dir, '..', 'payloads');
  mkdirSync(dir);
  // Nanoseconds and the shell's pid: one file per call, in the order the calls started.
  const recorder = { command: `cat > '${dir}'/$(date +%s%N)-$$.json` };
  writeHooks(project, Object.fromEntries(HOOK_EVENTS.map((event) => [event, [recorder]])));
  return { project, dir };
}

export interface Recording {
  project: CodexProject;
  payloads: Payload[];
}

/** One session of every tool kind, ending in a Stop that is held once; then the session resumed. */
export async function recordToolCalls(): Promise<{ main: Recording; resumed: Recording }> {
  const { project, dir } = recordingProject();
  writeProjectFile(project, '.codex/config.toml', MCP_CONFIG);
  const hold = writeProjectFile(project, '.codex/hold-once.sh', HOLD_ONCE, 0o755);
  const hooks = JSON.parse(readFileSync(join(project.dir, '.codex', 'hooks.json'), 'utf8')) as { hooks: Record<string, { hooks: unknown[] }[]> };
  hooks.hooks['Stop']![0]!.hooks.push({ type: 'command', command: `sh '${hold}' '${join(project.dir, '..', 'held')}'`, timeout: 30 });
  writeProjectFile(project, '.codex/hooks.json', JSON.stringify(hooks, null, 2));
  const run = await runCodex(project, {
    prompt: 'Record the payloads.',
    turns: [
      call(shell('echo out; echo err >&2')),
      call(shell('echo failing; exit 3')),
      call(applyPatch(addFile('notes.txt', 'one\ntwo'))),
      call(applyPatch(updateFile('missing.txt', ['a'], ['b']))),
      call(mcpTool('echo', 'echo', { text: 'hi' })),
      call(mcpTool('echo', 'fail', { why: 'because' })),
      call(mcpTool('asking', 'echo', { text: 'may I' })),
      say('All recorded.'),
      say('Tests run.'),
    ],
  });
  if (run.exitCode !== 0) throw new Error(`the recording session failed: ${run.stderr}`);
  const main = { project, payloads: recorded(dir) };
  const before = main.payloads.length;
  const resumedRun = await runCodex(project, { args: ['resume', '--last'], prompt: 'Go on.', turns: [say('Resumed.')] });
  if (resumedRun.exitCode !== 0) throw new Error(`the resumed session failed: ${resumedRun.stderr}`);
  return { main, resumed: { project, payloads: recorded(dir).slice(before) } };
}

/** A session delegating to a subagent of a role the project defines, which runs a command. */
export async function recordSubagent(): Promise<Recording> {
  const { project, dir } = recordingProject();
  writeProjectFile(
    project,
    '.codex/agents/reviewer.toml',
    'name = "reviewer"\ndescription = "Reviews the work."\ndeveloper_instructions = "Review the work."\n',
  );
  const run = await runCodex(project, {
    scripts: [
      { name: 'reviewer', match: (prompt) => prompt.startsWith('Review'), turns: [call(shell('echo from-the-subagent')), say('Reviewed.')] },
      {
        name: 'main',
        turns: [
          call(spawnAgent('Review the work.', { agent_type: 'reviewer' })),
          ({ api }) => call(waitAgent([spawnedAgentId(api.output(api.callIds('spawn_agent')[0]!))])),
          say('Delegated.'),
        ],
      },
    ],
  });
  if (run.exitCode !== 0) throw new Error(`the subagent session failed: ${run.stderr}`);
  return { project, payloads: recorded(dir) };
}

type Pick = (payload: Payload) => boolean;
const is =
  (event: string, tool?: string, extra: (payload: Payload) => boolean = () => true): Pick =>
  (payload) =>
    payload['hook_event_name'] === event && (tool === undefined || payload['tool_name'] === tool) && extra(payload);
const command = (payload: Payload): string => {
  const value = (payload['tool_input'] as { command?: unknown } | undefined)?.command;
  return typeof value === 'string' ? value : '';
};
const inSubagent = (payload: Payload): boolean => typeof payload['agent_id'] === 'string';

/** Each fixture: the recording it comes from and which payload of it. */
const FIXTURES: Record<string, ['main' | 'resumed' | 'sub', Pick]> = {
  'session-start-startup.json': ['main', is('SessionStart')],
  'session-start-resume.json': ['resumed', is('SessionStart')],
  'user-prompt-submit.json': ['main', is('UserPromptSubmit')],
  'pre-model-request.json': ['main', is('PreModelRequest')],
  'post-model-request.json': ['main', is('PostModelRequest')],
  'pre-bash.json': ['main', is('PreToolUse', 'Bash', (p) => command(p).startsWith('echo out'))],
  'post-bash.json': ['main', is('PostToolUse', 'Bash', (p) => command(p).startsWith('echo out'))],
  'post-bash-exit3.json': ['main', is('PostToolUse', 'Bash', (p) => command(p).includes('exit 3'))],
  'pre-apply-patch.json': ['main', is('PreToolUse', 'apply_patch', (p) => command(p).includes('Add File'))],
  'post-apply-patch.json': ['main', is('PostToolUse', 'apply_patch', (p) => command(p).includes('Add File'))],
  'pre-apply-patch-unappliable.json': ['main', is('PreToolUse', 'apply_patch', (p) => command(p).includes('missing.txt'))],
  'pre-mcp.json': ['main', is('PreToolUse', 'mcp__echo__echo')],
  'post-mcp.json': ['main', is('PostToolUse', 'mcp__echo__echo')],
  'pre-mcp-error.json': ['main', is('PreToolUse', 'mcp__echo__fail')],
  'permission-request-mcp.json': ['main', is('PermissionRequest', 'mcp__asking__echo')],
  'stop.json': ['main', is('Stop', undefined, (p) => p['stop_hook_active'] === false)],
  'stop-hook-active.json': ['main', is('Stop', undefined, (p) => p['stop_hook_active'] === true)],
  'session-end.json': ['main', is('SessionEnd')],
  'pre-spawn-agent.json': ['sub', is('PreToolUse', 'spawn_agent')],
  'post-spawn-agent.json': ['sub', is('PostToolUse', 'spawn_agent')],
  'subagent-start.json': ['sub', is('SubagentStart')],
  'user-prompt-submit-subagent.json': ['sub', is('UserPromptSubmit', undefined, inSubagent)],
  'pre-bash-in-subagent.json': ['sub', is('PreToolUse', 'Bash', inSubagent)],
  'post-bash-in-subagent.json': ['sub', is('PostToolUse', 'Bash', inSubagent)],
  'pre-model-request-subagent.json': ['sub', is('PreModelRequest', undefined, inSubagent)],
  'subagent-stop.json': ['sub', is('SubagentStop')],
  'pre-wait-agent.json': ['sub', is('PreToolUse', 'multi_agent_v1wait_agent')],
  'post-wait-agent.json': ['sub', is('PostToolUse', 'multi_agent_v1wait_agent')],
};

/** Where a fixture says the project and CODEX_HOME were (the recording's throw-away folders are moved there). */
export const FIXTURE_PROJECT = '/tmp/codex-e2e/project';
export const FIXTURE_CODEX_HOME = '/home/person/.codex';

function moved(value: unknown, from: [string, string][]): unknown {
  if (typeof value === 'string') return from.reduce((text, [a, b]) => text.split(a).join(b), value);
  if (Array.isArray(value)) return value.map((item) => moved(item, from));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, moved(item, from)]));
  return value;
}

/** The fixtures' payloads out of the recordings, with the throw-away paths moved to FIXTURE_PROJECT and FIXTURE_CODEX_HOME. */
export function fixturePayloads(recordings: Record<'main' | 'resumed' | 'sub', Recording>): Record<string, Payload | undefined> {
  const picked: Record<string, Payload | undefined> = {};
  for (const [name, [from, pick]] of Object.entries(FIXTURES)) {
    const { project, payloads } = recordings[from];
    const payload = payloads.find(pick);
    picked[name] =
      payload &&
      (moved(payload, [
        [project.codexHome, FIXTURE_CODEX_HOME],
        [project.dir, FIXTURE_PROJECT],
      ]) as Payload);
  }
  return picked;
}
