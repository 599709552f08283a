// `isdlc doctor`'s checks of Claude Code: which version the hooks are checked against (found again on
// every run, since it updates itself), whether each registered hook runs and answers (a probe that runs the
// registered command as a dry run), what that version makes of the settings (host-checks.ts), the sandbox,
// folder trust, and the MCP server's registration. A probe proves the command works, not that the installed
// Claude Code starts it, so the hooks are also checked against that version's rules
// (docs/claude-code-versions.md).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GuardedSet } from '../../integrity/guarded-set.js';
import type { Finding } from '../../install/host-setup.js';
import { readInstallRecord } from '../../state/install-record.js';
import { agentWritableFolder, firstOnPath, tempFolders } from '../../util/program-path.js';
import { recordOrUndefined } from '../../util/json.js';
import { SETTINGS_FILE } from './files.js';
import { claudeUserSettingsFile, readSettingsObject } from './settings-files.js';
import { sourceText } from './hook-plan.js';
import {
  bashEditDiffFinding,
  execFormFindings,
  hooksSwitchedOffFindings,
  hostSettingsSources,
  minimumVersionFinding,
  originalHooksFindings,
  readProjectSettingsFiles,
  userPromptExpansionFindings,
} from './host-checks.js';
import { PROJECT_DIR_VARIABLE } from './hook.js';
import { claudeCodeFieldsOf } from './install-record.js';
import { isOurMcpServer, MCP_FILE, MCP_SERVER_NAME } from './mcp-json.js';
import { protectionFindings } from './protection-level.js';
import { claudeSandboxSupport } from './sandbox-support.js';
import { AGENT_SHELL_CACHES, SANDBOX_CACHES_KEY, sandboxCachesHookEntry } from './sandbox-caches.js';
import { holdsEntry } from './owned-settings.js';
import { findOurHooks, PERMISSION_RULES, registrationsFor, type HookCommand, type Settings } from './settings.js';
import { projectTrust } from './trust.js';
import { capabilitiesOf, CLAUDE_CODE, detectClaudeVersion, isVersion } from './versions.js';

/** A hook command as the host runs it: `${CLAUDE_PROJECT_DIR}` substituted, exec or shell form. */
export function hostInvocation(hook: HookCommand, root: string): { file: string; args: string[] } {
  const substitute = (text: string): string => text.split(`\${${PROJECT_DIR_VARIABLE}}`).join(root);
  if (Array.isArray(hook.args)) return { file: substitute(hook.command), args: hook.args.map((arg) => substitute(String(arg))) };
  return { file: 'bash', args: ['-c', hook.command] };
}

function probePayload(event: string, matcher: string | undefined, root: string): Record<string, unknown> {
  const base = { session_id: 'isdlc-doctor', transcript_path: '', cwd: root, hook_event_name: event, permission_mode: 'default' };
  const tool = matcher?.split('|')[0];
  if (event === 'UserPromptSubmit') return { ...base, prompt: 'isdlc doctor probe' };
  if (event === 'UserPromptExpansion') {
    return { ...base, expansion_type: 'slash_command', command_name: 'help', command_args: '', command_source: 'builtin', prompt: '/help' };
  }
  // SessionStart's matcher matches what started the session, not a tool.
  if (event === 'SessionStart') return { ...base, source: tool ?? 'startup' };
  if (!tool) return { ...base, stop_hook_active: false, last_assistant_message: 'isdlc doctor probe' };
  const input: Record<string, unknown> =
    tool === 'Bash' ? { command: 'true', description: 'isdlc doctor probe' } : { description: 'isdlc doctor probe', prompt: 'probe' };
  const payload: Record<string, unknown> = { ...base, tool_name: tool, tool_input: input, tool_use_id: 'toolu_isdlc_doctor' };
  if (event === 'PostToolUse') payload['tool_response'] = { stdout: '', stderr: '', interrupted: false, isImage: false };
  if (event === 'PostToolUseFailure') payload['error'] = 'Exit code 1';
  return payload;
}

/** The Claude Code version the checks go by, and the command that registers isdlc again for it. */
interface VersionCheck {
  version: string;
  reinit: string;
}

const FIND_VERSION_FIX = 'pass `--claude-version X` with what `claude --version` prints where you run Claude Code';

/**
 * The installed Claude Code, found again on every run (it updates itself): the flag, else `claude
 * --version`, else the version init registered for, said as a warning.
 */
function claudeVersionToCheck(root: string, flag: string | undefined, findings: Finding[]): VersionCheck {
  const reinit = (version?: string): string => `isdlc init ${root}${version ? ` --claude-version ${version}` : ''}`;
  if (flag) {
    findings.push({ severity: 'ok', what: `Claude Code ${flag} (from --claude-version): the hooks are checked against it` });
    return { version: flag, reinit: reinit(flag) };
  }
  const detected = detectClaudeVersion();
  if (detected.found) {
    findings.push({
      severity: 'ok',
      what: `Claude Code ${detected.version} (found by \`claude --version\` in ${detected.ms} ms): the hooks are checked against it`,
    });
    return { version: detected.version, reinit: reinit() };
  }
  const recorded = claudeCodeFieldsOf(readInstallRecord(root))?.claude_code;
  if (recorded && typeof recorded.version === 'string' && isVersion(recorded.version)) {
    findings.push({
      severity: 'warn',
      what: `the installed Claude Code's version could not be found (${detected.reason}): the hooks are checked against ${recorded.version}, the version init registered for (${sourceText(recorded)})`,
      fix: FIND_VERSION_FIX,
    });
    return { version: recorded.version, reinit: reinit(recorded.from === 'assumed' ? undefined : recorded.version) };
  }
  findings.push({
    severity: 'warn',
    what: `the installed Claude Code's version could not be found (${detected.reason}) and init recorded none: the hooks are checked against ${CLAUDE_CODE.newestKnown}, the newest isdlc knows`,
    fix: FIND_VERSION_FIX,
  });
  return { version: CLAUDE_CODE.newestKnown, reinit: reinit() };
}

function checkSettings(root: string, claude: VersionCheck, findings: Finding[]): void {
  const file = join(root, SETTINGS_FILE);
  const rerun = `run \`${claude.reinit}\``;
  let settings: Settings;
  try {
    settings = JSON.parse(readFileSync(file, 'utf8')) as Settings;
  } catch (error) {
    findings.push({ severity: 'fail', what: `${SETTINGS_FILE} cannot be read: ${(error as Error).message}`, fix: `fix or create it, then ${rerun}` });
    return;
  }
  const capabilities = capabilitiesOf(claude.version);
  const ours = findOurHooks(settings);
  for (const registration of registrationsFor(capabilities)) {
    const found = ours.filter((hook) => hook.event === registration.event && (hook.matcher ?? '') === (registration.matcher ?? ''));
    const label = `${registration.event}${registration.matcher ? ` [${registration.matcher}]` : ''}`;
    if (found.length === 0) {
      findings.push({ severity: 'fail', what: `no isdlc hook registered for ${label}`, fix: rerun });
      continue;
    }
    if (found.length > 1) findings.push({ severity: 'warn', what: `isdlc hook registered ${found.length} times for ${label}`, fix: `${rerun} to keep one` });
    const hook = found[0]!.hook;
    // What this Claude Code would not start proves nothing when started here: execFormFindings says it.
    if (Array.isArray(hook.args) && !capabilities.execFormHooks) continue;
    const { file: command, args } = hostInvocation(hook, root);
    const script = args.find((arg) => arg.endsWith('.cjs'));
    if (script && !existsSync(script)) {
      findings.push({ severity: 'fail', what: `${label}: the registered script ${script} does not exist`, fix: rerun });
      continue;
    }
    const started = performance.now();
    const run = spawnSync(command, args, {
      input: JSON.stringify(probePayload(registration.event, registration.matcher, root)),
      env: { ...process.env, [PROJECT_DIR_VARIABLE]: root, ISDLC_DRY_RUN: '1' },
      cwd: root,
      encoding: 'utf8',
      timeout: (typeof hook.timeout === 'number' ? hook.timeout : 10) * 1000,
    });
    const ms = Math.round(performance.now() - started);
    const stdout = (run.stdout ?? '').trim();
    if (run.error || run.status !== 0) {
      findings.push({
        severity: 'fail',
        what: `${label}: the registered command failed (${run.error?.message ?? `exit ${String(run.status)}`}) ${(run.stderr ?? '').trim().slice(0, 300)}`,
        fix: `check that \`node\` is on the PATH Claude Code uses, then run \`${claude.reinit}\``,
      });
    } else if (stdout !== '' && !stdout.startsWith('{')) {
      findings.push({ severity: 'fail', what: `${label}: the registered command printed something that is not a hook decision: ${stdout.slice(0, 200)}` });
    } else if (stdout.includes('isdlc install-integrity')) {
      // It answered, but only because another bundle stood in for a missing or broken one.
      const told = /"systemMessage":"((?:[^"\\]|\\.)*)"/.exec(stdout)?.[1] ?? stdout;
      findings.push({
        severity: 'fail',
        what: `${label}: the registered command answers, but says isdlc is broken: ${told.slice(0, 300)}`,
        fix: `run \`${claude.reinit}\``,
      });
    } else if (stdout.includes('"deny"')) {
      findings.push({ severity: 'warn', what: `${label}: a harmless probe call was denied: ${stdout.slice(0, 300)}` });
    } else {
      findings.push({ severity: 'ok', what: `${label}: registered command runs and answers (${ms} ms)` });
    }
    if (typeof hook.timeout === 'number' && hook.timeout > 600) {
      findings.push({ severity: 'warn', what: `${label}: timeout ${hook.timeout} is in seconds (${Math.round(hook.timeout / 60)} minutes)`, fix: rerun });
    }
  }
  const files = readProjectSettingsFiles(root);
  for (const { rel, problem } of files) {
    if (problem && rel !== SETTINGS_FILE)
      findings.push({ severity: 'warn', what: `${rel} cannot be read: ${problem}`, fix: 'fix the JSON; Claude Code reads this file too' });
  }
  const host = hostSettingsSources();
  findings.push(...hooksSwitchedOffFindings(files, host));
  findings.push(...originalHooksFindings(files));
  // Below the minimum, re-registering cannot help (init refuses): the minimum's finding says to upgrade.
  if (capabilities.supported) {
    findings.push(...execFormFindings(settings, claude.version, claude.reinit));
    findings.push(...userPromptExpansionFindings(files, claude.version, claude.reinit));
    findings.push(bashEditDiffFinding(files, host, claude.version));
  }
}

/** Trust decides whether isdlc's permission rules count; hooks run either way. */
function checkTrust(root: string, findings: Finding[]): void {
  const trust = projectTrust(root);
  if (trust.trusted) {
    findings.push({ severity: 'ok', what: `Claude Code trusts this folder (${trust.file}): isdlc's permission rules apply` });
    return;
  }
  findings.push({
    severity: 'warn',
    what:
      `Claude Code has not trusted this folder yet (${trust.why}): the permission rules isdlc added (${PERMISSION_RULES.map((r) => `\`${r}\``).join(', ')}) take effect once it does. ` +
      'Until then Claude Code asks before each isdlc command and MCP tool, and headless (-p) runs refuse them; hooks run either way',
    fix: `run \`claude\` in ${root} once and accept the trust dialog`,
  });
}

/** Whether `.mcp.json` starts isdlc's MCP server, through which agents reach the workflow and loop tools. */
function checkMcpServer(root: string, reinit: string, findings: Finding[]): void {
  let mcp: unknown;
  try {
    mcp = JSON.parse(readFileSync(join(root, MCP_FILE), 'utf8'));
  } catch {
    mcp = undefined;
  }
  const servers = (mcp as { mcpServers?: Record<string, unknown> } | undefined)?.mcpServers;
  if (servers && isOurMcpServer(servers[MCP_SERVER_NAME]))
    findings.push({ severity: 'ok', what: `${MCP_FILE} starts the isdlc MCP server (the workflow's and the loop's tools)` });
  else
    findings.push({
      severity: 'warn',
      what: `${MCP_FILE} does not register the isdlc MCP server: agents have none of the workflow's and the loop's tools`,
      fix: `run \`${reinit}\``,
    });
}

export interface ClaudeCodeDoctorOptions {
  /** `--claude-version`: the version to check against, as the user gave it; else it is found with `claude --version`. */
  claudeVersion?: string;
}

export interface ClaudeCodeDoctorReport {
  /** The command that sets isdlc up again for the Claude Code checked against. */
  reinit: string;
  /** Which Claude Code the checks go by, and whether isdlc supports it. */
  version: Finding[];
  /** Its settings, the registered hooks run, the sandbox, folder trust and the MCP server. */
  findings: Finding[];
}

/**
 * The `node` the registered hooks start: Claude Code finds it on its PATH, outside every sandbox. One in a
 * folder an agent's code can write (the project, a temp folder, a relative PATH entry) would run as the
 * person at every tool call; one that is not the node init saw may have been put in front of it.
 */
function checkHookNode(root: string, findings: Finding[]): void {
  const found = firstOnPath('node', process.env['PATH']);
  const recorded = claudeCodeFieldsOf(readInstallRecord(root))?.hook_node;
  if (!found) {
    findings.push({ severity: 'fail', what: 'no `node` on PATH: the hooks Claude Code starts as `node` cannot run', fix: 'put Node.js 22 or later on PATH' });
    return;
  }
  if (agentWritableFolder(dirname(found), root, tempFolders())) {
    findings.push({
      severity: 'fail',
      what: `the hooks run the first \`node\` on PATH, ${found}, which lies in a folder an agent's code can write (the project, a temp folder, or a relative PATH entry): it would run with your rights at every tool call`,
      fix: `take ${dirname(found)} off PATH, or put the folder of your Node.js first`,
    });
    return;
  }
  if (recorded && recorded !== found) {
    findings.push({
      severity: 'warn',
      what: `the hooks now run ${found} (the first \`node\` on PATH); when isdlc was set up it was ${recorded}`,
      fix: `if you did not change your Node.js, look at ${found}; if you did, run \`isdlc init ${root}\` to take it`,
    });
    return;
  }
  findings.push({ severity: 'ok', what: `the hooks run ${found}` });
}

/** The value at a dotted path of a settings object. */
function getPath(settings: Settings | undefined, path: string): unknown {
  return path.split('.').reduce<unknown>((here, key) => recordOrUndefined(here)?.[key], settings);
}

/**
 * Inside Claude Code's sandbox the agent's shell writes only the project and Claude Code's temp folder: npm,
 * Go, cargo and pip fail on their caches in the home folder unless init's SessionStart hook sends them to
 * that temp folder (sandbox-caches.ts). The same variables in a settings file's `env` reach Claude Code's
 * hooks and MCP servers as well, outside the sandbox: pointing into a folder the agent writes, they would
 * have those processes read what the agent left there.
 */
function checkSandboxCaches(root: string, findings: Finding[]): void {
  const sandboxed = claudeCodeFieldsOf(readInstallRecord(root))?.sandbox?.on === true;
  const project = readProjectSettingsFiles(root);
  if (sandboxed) {
    const entries = getPath(project.find((file) => file.rel === SETTINGS_FILE)?.settings, SANDBOX_CACHES_KEY);
    if (!Array.isArray(entries) || !holdsEntry(entries, sandboxCachesHookEntry())) {
      findings.push({
        severity: 'warn',
        what: "the agent's shell keeps npm's, Go's, cargo's and pip's caches in your home folder, which Claude Code's sandbox keeps read-only: `npm install`, `go build` and the like fail there",
        fix: `run \`isdlc init ${root}\`: it registers a SessionStart hook that sends them to Claude Code's temp folder, for the agent's shell alone`,
      });
    }
  }
  const temps = [...tempFolders(), '/private/tmp'];
  const sources = [{ rel: claudeUserSettingsFile(), settings: readSettingsObject(claudeUserSettingsFile()) }, ...project];
  for (const { rel, settings } of sources) {
    const env = settings?.['env'];
    if (!env || typeof env !== 'object' || Array.isArray(env)) continue;
    for (const [name, value] of Object.entries(env as Record<string, unknown>)) {
      if (!Object.hasOwn(AGENT_SHELL_CACHES, name) || typeof value !== 'string' || !agentWritableFolder(value, root, temps)) continue;
      findings.push({
        severity: 'warn',
        what: `${rel} sets "env": {"${name}": "${value}"}, a folder the agent's shell can write; Claude Code gives \`env\` to its hooks and MCP servers too, which run outside the sandbox and would read what the agent left there`,
        fix: `take ${name} out of "env" in ${rel}${sandboxed ? ": isdlc's SessionStart hook sets it for the agent's shell alone" : ''}`,
      });
    }
  }
}

export function claudeCodeDoctor(root: string, guarded: GuardedSet, options: ClaudeCodeDoctorOptions): ClaudeCodeDoctorReport {
  const version: Finding[] = [];
  const claude = claudeVersionToCheck(root, options.claudeVersion, version);
  const tooOld = minimumVersionFinding(claude.version, root);
  if (tooOld) version.push(tooOld);
  const findings: Finding[] = [];
  checkSettings(root, claude, findings);
  checkHookNode(root, findings);
  checkSandboxCaches(root, findings);
  findings.push(...protectionFindings(root, guarded, claudeSandboxSupport(), claude.version));
  checkTrust(root, findings);
  checkMcpServer(root, claude.reinit, findings);
  return { reinit: claude.reinit, version, findings };
}
