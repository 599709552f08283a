// `isdlc doctor`: proves the installation works the way the host will use it, and says how to fix
// what does not. It changes nothing: its probe calls run the registered command as a dry run. A probe
// proves the command works, not that the installed Claude Code starts it, so the hooks are also checked
// against that version's rules (docs/claude-code-versions.md), found again on every run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configProblems } from '../config/consistency.js';
import { CONFIG_NAMES, ProjectConfig, loadConfig } from '../config/project-config.js';
import { capabilitiesOf, CLAUDE_CODE, detectClaudeVersion, isVersion } from '../hosts/claude-code/versions.js';
import { projectTrust } from '../hosts/claude-code/trust.js';
import { sourceText } from '../hosts/claude-code/hook-plan.js';
import {
  bashEditDiffFinding,
  hostSettingsSources,
  hooksSwitchedOffFindings,
  originalHooksFindings,
  execFormFindings,
  minimumVersionFinding,
  readProjectSettingsFiles,
  userPromptExpansionFindings,
  type Finding,
  type Severity,
} from '../hosts/claude-code/host-checks.js';
import { INSTALL_RECORD, readRecord, SETTINGS_FILE } from '../install/install.js';
import { isOurMcpServer, MCP_FILE, MCP_SERVER_NAME } from '../hosts/claude-code/mcp-json.js';
import { PERMISSION_RULES, findOurHooks, registrationsFor, type HookCommand, type Settings } from '../hosts/claude-code/settings.js';
import { activeWorkflowOf, workflowPhasesOf } from '../state/current-phase.js';
import { ISDLC_DIR, locateState, readMonorepoConfig } from '../state/locate.js';
import type { IsdlcState } from '../state/schema.js';
import { knownPhaseKeys } from '../config/phases.js';
import { claudeSandboxSupport } from '../hosts/claude-code/sandbox-support.js';
import { protectionFindings } from '../hosts/claude-code/protection-level.js';
import { journalFindings } from '../integrity/journal-doctor.js';

export type { Finding, Severity };

/** A hook command as the host runs it: `${CLAUDE_PROJECT_DIR}` substituted, exec or shell form. */
export function hostInvocation(hook: HookCommand, root: string): { file: string; args: string[] } {
  const substitute = (text: string): string => text.split('${CLAUDE_PROJECT_DIR}').join(root);
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
    findings.push({ severity: 'ok', what: `Claude Code ${detected.version} (found by \`claude --version\` in ${detected.ms} ms): the hooks are checked against it` });
    return { version: detected.version, reinit: reinit() };
  }
  const recorded = readRecord(root)?.claude_code;
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
      env: { ...process.env, CLAUDE_PROJECT_DIR: root, ISDLC_DRY_RUN: '1' },
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
      findings.push({ severity: 'fail', what: `${label}: the registered command answers, but says isdlc is broken: ${told.slice(0, 300)}`, fix: `run \`${claude.reinit}\`` });
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
    if (problem && rel !== SETTINGS_FILE) findings.push({ severity: 'warn', what: `${rel} cannot be read: ${problem}`, fix: 'fix the JSON; Claude Code reads this file too' });
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

function checkGuardsLoad(root: string, reinit: string, findings: Finding[]): void {
  const bin = join(root, ISDLC_DIR, 'bin', 'isdlc.cjs');
  if (!existsSync(bin)) {
    findings.push({ severity: 'fail', what: `${bin} is missing`, fix: `run \`${reinit}\`` });
    return;
  }
  const run = spawnSync(process.execPath, [bin, 'hook', '--check'], { encoding: 'utf8', timeout: 10_000 });
  const reports: { bundle?: string; guards?: string[]; problems?: string[] }[] = [];
  try {
    for (const line of run.stdout.split('\n').filter(Boolean)) reports.push(JSON.parse(line) as (typeof reports)[number]);
    if (reports.length === 0 || run.status !== 0 && reports.every((r) => (r.problems ?? []).length === 0)) throw new Error('no report');
  } catch {
    findings.push({ severity: 'fail', what: `the installed guards could not be loaded: ${(run.stderr || run.stdout).trim().slice(0, 300)}`, fix: `run \`${reinit}\`` });
    return;
  }
  const problems = reports.flatMap((r) => (r.problems ?? []).map((p) => `${r.bundle ? `${r.bundle}: ` : ''}${p}`));
  if (problems.length > 0) {
    for (const problem of problems) findings.push({ severity: 'fail', what: `guard ${problem}`, fix: 'reinstall isdlc; this is a fault in the build' });
  } else {
    const guards = [...new Set(reports.flatMap((r) => r.guards ?? []))];
    findings.push({ severity: 'ok', what: `all ${guards.length} guards load in the ${reports.length} hook bundles: ${guards.join(', ')}` });
  }
  const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', timeout: 10_000 }).stdout.trim();
  if (version && version !== __ISDLC_VERSION__) {
    findings.push({ severity: 'warn', what: `installed hook is isdlc ${version}, this is ${__ISDLC_VERSION__}`, fix: `run \`${reinit}\` to update it` });
  }
}

/** The loop bundle loads SQLite on this machine, the loop store reads, and the MCP server is registered. */
function checkLoops(root: string, reinit: string, findings: Finding[]): void {
  const bundle = join(root, ISDLC_DIR, 'bin', 'loop.cjs');
  if (!existsSync(bundle)) {
    findings.push({ severity: 'fail', what: `${bundle} is missing: iteration loops cannot run`, fix: `run \`${reinit}\`` });
    return;
  }
  const run = spawnSync(process.execPath, [bundle, '--probe', join(root, ISDLC_DIR)], { encoding: 'utf8', timeout: 10_000 });
  let report: { sqlite?: string; store?: string; live?: number; unclaimed?: number; problem?: string } = {};
  try {
    report = JSON.parse(run.stdout) as typeof report;
  } catch {
    report = { problem: (run.stderr || run.stdout || `exit ${run.status}`).trim().split('\n')[0]! };
  }
  if (report.problem) {
    findings.push({ severity: 'fail', what: `iteration loops: ${report.problem}`, fix: `run \`${reinit}\` on this machine; a loop.db that cannot be read is left for you to move aside` });
  } else {
    const live = report.store === 'present' ? `; ${report.live} running${report.unclaimed ? `, ${report.unclaimed} not yet claimed by a session` : ''}` : '; no loop yet';
    findings.push({ severity: 'ok', what: `iteration loops: SQLite ${report.sqlite} loads${live}` });
  }
  let mcp: unknown;
  try {
    mcp = JSON.parse(readFileSync(join(root, MCP_FILE), 'utf8'));
  } catch {
    mcp = undefined;
  }
  const servers = (mcp as { mcpServers?: Record<string, unknown> } | undefined)?.mcpServers;
  if (servers && isOurMcpServer(servers[MCP_SERVER_NAME])) findings.push({ severity: 'ok', what: `${MCP_FILE} starts the isdlc MCP server (loop tools)` });
  else findings.push({ severity: 'warn', what: `${MCP_FILE} does not register the isdlc MCP server: agents have no loop tools`, fix: `run \`${reinit}\`` });
}

function checkConfig(root: string, findings: Finding[]): ProjectConfig {
  for (const name of CONFIG_NAMES) {
    const loaded = loadConfig(root, name);
    if (loaded.problem) findings.push({ severity: 'fail', what: `${name}: ${loaded.problem}; the bundled default is used instead`, fix: 'fix the file, or remove it to use the default' });
    else findings.push({ severity: 'ok', what: `${name}: ${loaded.from === 'bundled' ? 'bundled default' : loaded.from}` });
  }
  const config = new ProjectConfig(root);
  const problems = configProblems({
    requirements: config.iterationRequirements,
    artifactPaths: config.artifactPaths,
    workflows: config.workflows,
    manifest: config.manifest,
    constitution: config.constitution,
  });
  for (const problem of problems) findings.push({ severity: 'fail', what: `config disagrees: ${problem}`, fix: 'make the files agree (`isdlc config show NAME` prints what is in use)' });
  if (problems.length === 0) findings.push({ severity: 'ok', what: `config files agree (constitution: ${config.constitution.articles.size} articles)` });
  return config;
}

function checkStateFile(file: string, config: ProjectConfig, findings: Finding[]): void {
  const dir = join(file, '..');
  let state: IsdlcState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as IsdlcState;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    findings.push(
      code === 'ENOENT'
        ? { severity: 'warn', what: `${file} does not exist`, fix: 'run `isdlc init` to create it' }
        : { severity: 'fail', what: `${file} does not parse: ${(error as Error).message}`, fix: 'repair the JSON by hand (a hook will set a broken file aside and start afresh)' },
    );
    return;
  }
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    findings.push({ severity: 'fail', what: `${file} does not hold a JSON object` });
    return;
  }
  findings.push({ severity: 'ok', what: `${file} parses (state_version ${String(state.state_version ?? 'none')})` });
  const workflow = activeWorkflowOf(state);
  if (workflow) {
    const known = knownPhaseKeys(config);
    const unknown = workflowPhasesOf(state).filter((phase) => !known.has(phase));
    if (unknown.length > 0) findings.push({ severity: 'warn', what: `active workflow names phases the config does not define: ${unknown.join(', ')}` });
  }
  const leftovers = readdirSync(dir).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock') || name.includes('.corrupt-'));
  for (const name of leftovers) {
    findings.push(
      name.includes('.corrupt-')
        ? { severity: 'warn', what: `${join(dir, name)} is a state file that was set aside as unreadable`, fix: 'repair it and move it back, or delete it' }
        : { severity: 'warn', what: `${join(dir, name)} was left by an interrupted write`, fix: 'delete it if no isdlc process is running' },
    );
  }
}

export interface DoctorOptions {
  /** The Claude Code version to check against, as the user gave it; else it is found with `claude --version`. */
  claudeVersion?: string;
}

export function runDoctor(root: string, options: DoctorOptions = {}): Finding[] {
  const findings: Finding[] = [];
  if (!existsSync(join(root, ISDLC_DIR))) {
    return [{ severity: 'fail', what: `${root} has no ${ISDLC_DIR}/: isdlc is not set up here`, fix: `run \`isdlc init ${root}\`` }];
  }
  const claude = claudeVersionToCheck(root, options.claudeVersion, findings);
  const tooOld = minimumVersionFinding(claude.version, root);
  if (tooOld) findings.push(tooOld);
  if (!existsSync(join(root, INSTALL_RECORD))) findings.push({ severity: 'warn', what: `${INSTALL_RECORD} is missing`, fix: `run \`${claude.reinit}\`` });
  checkGuardsLoad(root, claude.reinit, findings);
  checkSettings(root, claude, findings);
  findings.push(...protectionFindings(root, claudeSandboxSupport(), claude.version));
  findings.push(...journalFindings(root));
  checkTrust(root, findings);
  checkLoops(root, claude.reinit, findings);
  const config = checkConfig(root, findings);
  let monorepo;
  try {
    monorepo = readMonorepoConfig(root);
  } catch (error) {
    findings.push({ severity: 'fail', what: `.isdlc/monorepo.json: ${(error as Error).message}`, fix: 'repair it or remove it' });
  }
  const stateFiles = monorepo
    ? Object.keys(monorepo.projects ?? {}).map((id) => join(root, ISDLC_DIR, 'projects', id, 'state.json'))
    : [locateState(root, { env: {}, cwd: root }).stateFile];
  for (const file of stateFiles) checkStateFile(file, config, findings);
  return findings;
}

const SYMBOL: Record<Severity, string> = { ok: '✓', warn: '!', fail: '✗' };

export function formatFindings(root: string, findings: Finding[]): string {
  const lines = [`isdlc doctor: ${root}`];
  for (const finding of findings) {
    lines.push(`${SYMBOL[finding.severity]} ${finding.what}`);
    if (finding.fix && finding.severity !== 'ok') lines.push(`    fix: ${finding.fix}`);
  }
  const failed = findings.filter((f) => f.severity === 'fail').length;
  const warned = findings.filter((f) => f.severity === 'warn').length;
  lines.push(failed === 0 ? `All good${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}.` : `${failed} problem${failed > 1 ? 's' : ''} to fix.`);
  return `${lines.join('\n')}\n`;
}
