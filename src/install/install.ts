// `isdlc init` and `isdlc uninstall`: put isdlc into a project, and take out exactly what was put in.
// Nothing the user wrote is overwritten; a file is rewritten only when its content would change, so a
// second init leaves the project byte for byte as it was.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { bundledConstitutionText, ProjectConfig } from '../config/project-config.js';
import { initialTestingConfig, TESTING_PATH } from '../config/testing-config.js';
import { AGENT_DIR, agentFiles, COMMAND_FILE } from '../hosts/claude-code/agent-files.js';
import { ISDLC_DIR, readMonorepoConfig } from '../state/locate.js';
import { StateStore } from '../state/store.js';
import { adoptAll } from '../integrity/journal-adopt.js';
import { hasJournal, JOURNAL_DIR, journalPath, updateJournal } from '../integrity/journal.js';
import { checkGuardedFiles, noteLogFloor } from '../integrity/tamper-check.js';
import { loadLoop } from '../loop/load.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { MCP_FILE, mergeOurMcpServer, removeOurMcpServer } from '../hosts/claude-code/mcp-json.js';
import { readTextIfPresent } from '../util/read-text.js';
import { initialState } from '../state/initial-state.js';
import { mergeOurSettings, removeOurSettings, type HookForm, type Settings } from '../hosts/claude-code/settings.js';
import { CLAUDE_CODE, UPGRADE_COMMANDS } from '../hosts/claude-code/versions.js';
import { planHooks, type ClaudeTarget, type HookPlan, type VersionSource } from '../hosts/claude-code/hook-plan.js';
import { applyOwned, OwnedSettingsShapeError, removeOwned, type OwnedRecord } from '../hosts/claude-code/owned-settings.js';
import { monorepoProjectIds, protectedPaths, sandboxEdits } from '../hosts/claude-code/sandbox-settings.js';
import type { SandboxSupport } from '../hosts/claude-code/sandbox-support.js';
import { missingPlaceholders, updateGitExclude } from '../hosts/claude-code/git-exclude.js';
import { BIN_FILES } from '../integrity/bin-files.js';

export { BIN_FILES };
export const SETTINGS_FILE = '.claude/settings.json';
export const INSTALL_RECORD = '.isdlc/install.json';
export const CONSTITUTION_FILE = 'docs/isdlc/constitution.md';

const GITIGNORE = `# isdlc: files that are local to this machine
hook-activity.log
hook-activity.log.1
journal/
*.rejected-*
*.lock
.*.tmp
bin/*.cache
bin/*.node
loop.db
loop.db-*
branch-heads/
`;

const CONFIG_README = `# isdlc configuration

isdlc reads each of these files from here first, then from \`.claude/hooks/config/\`, and otherwise uses
the defaults bundled with isdlc:

- \`iteration-requirements.json\`: what each phase must show before its gate opens
- \`artifact-paths.json\`: the files each phase must leave behind
- \`workflows.json\`: workflow types and their phases
- \`skills-manifest.json\` (or \`.yaml\`): which agent owns which phase
- \`testing.json\`: the command that runs the project's tests, which the gate runs itself before a phase
  that requires passing tests is completed (\`command\`, \`coverage_command\`, \`coverage_report\`,
  \`timeout_minutes\`, \`require_counts\`); \`isdlc init\` guessed it from the project, correct it here

To change one, start from the version in use: \`isdlc config show NAME > .isdlc/config/NAME.json\`, edit it,
then run \`isdlc doctor\` to check that the files still agree with each other. The constitution lives in
\`docs/isdlc/constitution.md\`.
`;

export interface InstallRecord {
  version: 1;
  isdlc_version: string;
  installed_at: string;
  /** Files init created (relative to the project); uninstall removes these, unless the user changed them. */
  files: Record<string, { sha256: string }>;
  /** Containers in settings.json that did not exist before init. */
  settings_created: string[];
  settings_file_created: boolean;
  /** `.mcp.json` did not exist before init. */
  mcp_file_created?: boolean;
  /** The Claude Code init registered the hooks for, where its version came from, and the hook form used. */
  claude_code?: { version: string; from: VersionSource; hook_form: HookForm };
  /** Values init set and list entries it added in settings.json (the sandbox, the deny rules), to give back. */
  settings_owned?: OwnedRecord;
  /** Whether init turned Claude Code's sandbox on, and why not. */
  sandbox?: { on: boolean; why?: string };
  /** init made a journal of isdlc's writes (src/integrity/journal.ts): without one, a check cannot tell forged files. */
  journal?: boolean;
}

export type Change = 'created' | 'updated' | 'unchanged' | 'kept' | 'removed' | 'skipped';

export interface ChangeLine {
  path: string;
  change: Change;
  note?: string;
}

export class InstallError extends Error {}

function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** A JSON object file of the user's, or an empty object; one we cannot merge into stops init before any change. */
function readJsonObject(file: string): { value: Record<string, unknown>; existed: boolean } {
  const text = readTextIfPresent(file);
  if (text === undefined) return { value: {}, existed: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InstallError(`${file} is not valid JSON (${(error as Error).message}). Fix it first; isdlc changed nothing.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new InstallError(`${file} does not hold a JSON object. Fix it first; isdlc changed nothing.`);
  }
  return { value: parsed as Record<string, unknown>, existed: true };
}

function readSettings(root: string): { settings: Settings; existed: boolean } {
  const { value, existed } = readJsonObject(join(root, SETTINGS_FILE));
  return { settings: value as Settings, existed };
}

function readMcpConfig(root: string): { config: Record<string, unknown>; existed: boolean } {
  const { value, existed } = readJsonObject(join(root, MCP_FILE));
  return { config: value, existed };
}

function serialise(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function readRecord(root: string): InstallRecord | undefined {
  const text = readTextIfPresent(join(root, INSTALL_RECORD));
  if (!text) return undefined;
  try {
    return JSON.parse(text) as InstallRecord;
  } catch {
    return undefined;
  }
}

export interface InitOptions {
  /** Where the bundled files to install are (the running package's dist/). */
  binSource: string;
  /** The Claude Code to register the hooks for. */
  claude: ClaudeTarget;
  /** A hook form the user asked for; without one, the form that Claude Code runs. */
  hookForm?: HookForm;
  /** Whether Claude Code's sandbox can run on this machine (the caller checks, so tests can say). */
  sandboxSupport: SandboxSupport;
  /** `--no-sandbox`: leave Claude Code's sandbox off (what isdlc turned on before is taken back). */
  noSandbox?: boolean;
  version: string;
  now?: Date;
}

export interface InitResult {
  changes: ChangeLine[];
  /** What was registered, for which Claude Code. */
  plan: HookPlan;
  /** Whether the sandbox is on, and why not. */
  sandbox: { on: boolean; why?: string };
  /** Values of the user's in settings.json that init replaced (e.g. `sandbox.enabled: false`). */
  replaced: { path: string; was: unknown }[];
}

/** Why the sandbox stays off, for the record and for the person. */
function sandboxDecision(options: InitOptions, plan: HookPlan): { on: boolean; why?: string } {
  if (options.noSandbox) return { on: false, why: 'turned off with `isdlc init --no-sandbox`' };
  if (!plan.capabilities.sandbox) {
    return { on: false, why: `Claude Code ${plan.target.version}'s sandbox cannot run Bash (it works from ${CLAUDE_CODE.sandboxWorksFrom}); upgrade with ${UPGRADE_COMMANDS}, then run \`isdlc init\` again` };
  }
  const support = options.sandboxSupport;
  if (support.ok) return { on: true };
  return { on: false, why: `${support.why}${support.install ? `; install: ${support.install}, then run \`isdlc init\` again` : ''}` };
}

export function initProject(root: string, options: InitOptions): InitResult {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new InstallError(`${root} is not a directory`);
  for (const file of BIN_FILES) {
    if (!existsSync(join(options.binSource, file))) {
      throw new InstallError(`${join(options.binSource, file)} is missing: run \`npm run build\` in the isdlc package first`);
    }
  }
  // A Claude Code that would not run the hooks stops init here, before any change.
  const plan = planHooks(options.claude, options.hookForm);
  if ('refused' in plan) throw new InstallError(plan.refused);
  // What changed isdlc's files since its last write is undone before init reads any of them: init takes its
  // files as it leaves them, so it must never make someone else's change isdlc's own.
  const undone = undoChangesFirst(root);
  // Settings next: if the user's file cannot be merged, stop before touching anything.
  const { settings, existed: settingsExisted } = readSettings(root);
  const merged = mergeOurSettings(settings, plan.form, plan.registrations);
  const previous = readRecord(root);
  const sandbox = sandboxDecision(options, plan);
  const projectIds = monorepoProjectIds(root);
  let owned: ReturnType<typeof applyOwned>;
  try {
    const before = previous?.settings_owned ? { record: previous.settings_owned, created: previous.settings_created } : undefined;
    owned = applyOwned(merged.settings, sandboxEdits({ sandbox: sandbox.on, claudeVersion: plan.target.version, projectIds }), before);
  } catch (error) {
    if (error instanceof OwnedSettingsShapeError) throw new InstallError(`${join(root, SETTINGS_FILE)}: ${error.message}. Fix it first; isdlc changed nothing.`);
    throw error;
  }
  const mcp = readMcpConfig(root);
  let mcpMerged: ReturnType<typeof mergeOurMcpServer>;
  try {
    mcpMerged = mergeOurMcpServer(mcp.config);
  } catch (error) {
    throw new InstallError(`${join(root, MCP_FILE)}: ${(error as Error).message}. Fix it first; isdlc changed nothing.`);
  }

  const now = (options.now ?? new Date()).toISOString();
  const record: InstallRecord = {
    version: 1,
    isdlc_version: options.version,
    installed_at: previous?.installed_at ?? now,
    files: { ...(previous?.files ?? {}) },
    settings_created: [...new Set([...(previous?.settings_created ?? []), ...merged.created, ...owned.created])],
    settings_file_created: previous?.settings_file_created ?? !settingsExisted,
    mcp_file_created: previous?.mcp_file_created ?? !mcp.existed,
    claude_code: { version: plan.target.version, from: plan.target.from, hook_form: plan.form },
    settings_owned: owned.record,
    sandbox,
    journal: true,
  };
  const changes: ChangeLine[] = undone;

  /** Writes a file only when its content differs; `own` files are recorded for uninstall. */
  const put = (rel: string, content: string | Buffer, mode: 'replace' | 'if-absent', own = true): void => {
    const path = join(root, rel);
    const existing = existsSync(path) ? readFileSync(path) : undefined;
    const wanted = typeof content === 'string' ? Buffer.from(content) : content;
    if (existing && (mode === 'if-absent' || existing.equals(wanted))) {
      changes.push({ path: rel, change: existing.equals(wanted) ? 'unchanged' : 'kept', ...(existing.equals(wanted) ? {} : { note: 'yours, left as it is' }) });
      return;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, wanted);
    if (own) record.files[rel] = { sha256: sha256(wanted) };
    changes.push({ path: rel, change: existing ? 'updated' : 'created' });
  };

  for (const file of BIN_FILES) {
    const source = join(options.binSource, file);
    const target = join(root, ISDLC_DIR, 'bin', file);
    if (source === target) continue; // init run from the installed copy itself
    put(relative(root, target), readFileSync(source), 'replace');
  }
  // The agent-facing files: brought up to date while they are as isdlc wrote them; a file the user wrote
  // or edited is theirs and stays.
  const untouchedOurs = (rel: string): boolean => {
    const path = join(root, rel);
    return Boolean(previous?.files[rel] && existsSync(path) && previous.files[rel]!.sha256 === sha256(readFileSync(path)));
  };
  for (const [rel, content] of Object.entries(agentFiles(new ProjectConfig(root)))) put(rel, content, untouchedOurs(rel) ? 'replace' : 'if-absent');
  // Brought up to date the same way (an older .gitignore does not know loop.db).
  for (const [rel, content] of [[`${ISDLC_DIR}/.gitignore`, GITIGNORE], [`${ISDLC_DIR}/config/README.md`, CONFIG_README]] as const) {
    put(rel, content, untouchedOurs(rel) ? 'replace' : 'if-absent');
  }
  if (!existsSync(join(root, ISDLC_DIR, 'constitution.md'))) put(CONSTITUTION_FILE, bundledConstitutionText(), 'if-absent');
  // The gate runs this command itself; the person corrects the guess here, the agent cannot (it is guarded).
  const testing = initialTestingConfig(root);
  put(TESTING_PATH, testing.text, untouchedOurs(TESTING_PATH) ? 'replace' : 'if-absent');
  const testingChange = changes.at(-1);
  if (testingChange && (testingChange.change === 'created' || testingChange.change === 'updated')) testingChange.note = `the gate's test command, from ${testing.basis}`;

  for (const stateFile of stateFilesFor(root)) {
    const rel = relative(root, stateFile);
    if (existsSync(stateFile)) {
      changes.push({ path: rel, change: 'kept', note: 'existing state left as it is' });
      continue;
    }
    new StateStore(stateFile).update((draft) => {
      Object.assign(draft, initialState({ projectName: basename(root), now, version: options.version }));
    }, { expectedVersion: 0 });
    changes.push({ path: rel, change: 'created' });
  }

  const settingsText = serialise(owned.settings);
  const settingsPath = join(root, SETTINGS_FILE);
  if (readTextIfPresent(settingsPath) === settingsText) changes.push({ path: SETTINGS_FILE, change: 'unchanged' });
  else {
    mkdirSync(dirname(settingsPath), { recursive: true });
    writeFileAtomic(settingsPath, settingsText);
    const what = sandbox.on ? 'isdlc hooks, permissions and the sandbox merged in' : 'isdlc hooks and permissions merged in';
    changes.push({ path: SETTINGS_FILE, change: settingsExisted ? 'updated' : 'created', note: what });
  }

  const mcpText = serialise(mcpMerged.config);
  if (mcpMerged.conflict) changes.push({ path: MCP_FILE, change: 'kept', note: mcpMerged.conflict });
  else if (readTextIfPresent(join(root, MCP_FILE)) === mcpText) changes.push({ path: MCP_FILE, change: 'unchanged' });
  else {
    writeFileAtomic(join(root, MCP_FILE), mcpText);
    changes.push({ path: MCP_FILE, change: mcp.existed ? 'updated' : 'created', note: 'the isdlc MCP server (loop tools) added' });
  }

  // After settings.json and .mcp.json exist: only names still missing are listed.
  const placeholders = sandbox.on ? missingPlaceholders(root, protectedPaths(projectIds).files) : [];
  const exclude = updateGitExclude(root, placeholders);
  if (exclude.file && exclude.change !== 'unchanged') {
    changes.push({ path: relative(root, exclude.file), change: exclude.change === 'removed' ? 'updated' : (exclude.change as Change), note: placeholders.length > 0 ? `${placeholders.length} names the sandbox shows as placeholders, kept out of git` : "isdlc's block taken out" });
  }

  warmHookCache(join(root, ISDLC_DIR, 'bin', 'isdlc.cjs'));

  const recordText = serialise(record);
  if (readTextIfPresent(join(root, INSTALL_RECORD)) !== recordText) {
    writeFileAtomic(join(root, INSTALL_RECORD), recordText);
    changes.push({ path: INSTALL_RECORD, change: previous ? 'updated' : 'created' });
  }
  changes.push(startJournal(root));
  return { changes, plan, sandbox, replaced: owned.replaced };
}

/**
 * The journal of isdlc's writes starts from the files as init leaves them: init is the person's command.
 * What differed from an earlier journal (changes no hook call had found yet) is named, not hidden.
 */
function undoChangesFirst(root: string): ChangeLine[] {
  if (!hasJournal(root)) return [];
  const check = checkGuardedFiles(root, { foundBy: 'isdlc init', loopRows: () => loadLoop().loopRows });
  return check.findings.map((finding) => ({
    path: finding.rel,
    change: finding.change === 'created' ? 'removed' : 'updated',
    note: `changed outside isdlc since its last write: ${finding.outcome === 'reverted' ? 'undone' : 'reported'}${finding.keptAs ? `, the changed version kept as ${finding.keptAs}` : ''}; \`isdlc changes accept\` keeps it`,
  }));
}

function startJournal(root: string): ChangeLine {
  const existed = hasJournal(root);
  const loopRows = () => loadLoop().loopRows;
  const changed = updateJournal(root, (index) => {
    const before = JSON.stringify(index);
    adoptAll(root, index, loopRows);
    noteLogFloor(root, index);
    return JSON.stringify(index) !== before;
  });
  const rel = `${ISDLC_DIR}/${JOURNAL_DIR}/`;
  if (existed && !changed) return { path: rel, change: 'unchanged' };
  if (!existed) return { path: rel, change: 'created', note: "the record of isdlc's own writes, which every hook call compares with" };
  return { path: rel, change: 'updated', note: "isdlc's files as init left them" };
}

/**
 * Runs the installed hook once on sample calls of every kind, so its code cache covers every path
 * (docs/hot-path.md). Nothing in the project is touched; if it fails the hook still works, only slower.
 */
function warmHookCache(bin: string): void {
  spawnSync(process.execPath, [bin, 'hook', '--warm-cache'], { stdio: 'ignore', timeout: 20_000, env: { ...process.env, CLAUDE_PROJECT_DIR: '' } });
}

/** The state files a project needs: one, or one per project of a monorepo. */
function stateFilesFor(root: string): string[] {
  const monorepo = readMonorepoConfig(root);
  if (!monorepo) return [join(root, ISDLC_DIR, 'state.json')];
  return Object.keys(monorepo.projects ?? {}).map((id) => join(root, ISDLC_DIR, 'projects', id, 'state.json'));
}

export interface UninstallOptions {
  /** Also remove state, logs, config and the constitution (the latter only if unchanged since init). */
  purge: boolean;
}

function removeIfEmpty(dir: string): boolean {
  try {
    if (readdirSync(dir).length > 0) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

export function uninstallProject(root: string, options: UninstallOptions): ChangeLine[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new InstallError(`${root} is not a directory`);
  const record = readRecord(root);
  const changes: ChangeLine[] = [];

  const settingsPath = join(root, SETTINGS_FILE);
  if (existsSync(settingsPath)) {
    const { settings } = readSettings(root);
    const withoutHooks = removeOurSettings(settings, record?.settings_created);
    const cleaned = record?.settings_owned ? removeOwned(withoutHooks, record.settings_owned, record.settings_created) : withoutHooks;
    if (record?.settings_file_created && Object.keys(cleaned).length === 0) {
      rmSync(settingsPath);
      removeIfEmpty(dirname(settingsPath));
      changes.push({ path: SETTINGS_FILE, change: 'removed', note: 'isdlc created it and nothing else was in it' });
    } else if (serialise(cleaned) !== readTextIfPresent(settingsPath)) {
      writeFileAtomic(settingsPath, serialise(cleaned));
      changes.push({ path: SETTINGS_FILE, change: 'updated', note: 'isdlc hooks and permission taken out' });
    }
  }

  const mcpPath = join(root, MCP_FILE);
  if (existsSync(mcpPath)) {
    const { config } = readMcpConfig(root);
    const cleaned = removeOurMcpServer(config);
    const servers = cleaned['mcpServers'];
    const empty = Object.keys(cleaned).length === 1 && typeof servers === 'object' && servers !== null && Object.keys(servers).length === 0;
    if (record?.mcp_file_created && empty) {
      rmSync(mcpPath);
      changes.push({ path: MCP_FILE, change: 'removed', note: 'isdlc created it and nothing else was in it' });
    } else if (cleaned !== config) {
      writeFileAtomic(mcpPath, serialise(cleaned));
      changes.push({ path: MCP_FILE, change: 'updated', note: 'the isdlc MCP server taken out' });
    }
  }

  const exclude = updateGitExclude(root, []);
  if (exclude.file && exclude.change === 'removed') changes.push({ path: relative(root, exclude.file), change: 'updated', note: "isdlc's block taken out" });

  const removeOwnedFile = (rel: string): void => {
    const path = join(root, rel);
    if (!existsSync(path)) return;
    const owned = record?.files[rel];
    if (owned && owned.sha256 !== sha256(readFileSync(path))) {
      changes.push({ path: rel, change: 'kept', note: 'changed since isdlc created it' });
      return;
    }
    rmSync(path);
    changes.push({ path: rel, change: 'removed' });
  };

  for (const file of BIN_FILES) removeOwnedFile(`${ISDLC_DIR}/bin/${file}`);
  const binDir = join(root, ISDLC_DIR, 'bin');
  if (existsSync(binDir)) {
    for (const name of readdirSync(binDir)) if (name.endsWith('.cache')) rmSync(join(binDir, name));
    removeIfEmpty(binDir);
  }
  for (const rel of [`${ISDLC_DIR}/.gitignore`, `${ISDLC_DIR}/config/README.md`, TESTING_PATH]) if (record?.files[rel]) removeOwnedFile(rel);
  for (const rel of Object.keys(record?.files ?? {})) if (rel === COMMAND_FILE || rel.startsWith(`${AGENT_DIR}/`)) removeOwnedFile(rel);
  for (const dir of [dirname(COMMAND_FILE), AGENT_DIR, '.claude']) removeIfEmpty(join(root, dir));
  removeIfEmpty(join(root, ISDLC_DIR, 'config'));

  if (options.purge) {
    if (record?.files[CONSTITUTION_FILE]) removeOwnedFile(CONSTITUTION_FILE);
    else if (existsSync(join(root, CONSTITUTION_FILE))) changes.push({ path: CONSTITUTION_FILE, change: 'kept', note: 'not created by isdlc' });
    removeIfEmpty(join(root, 'docs/isdlc'));
    removeIfEmpty(join(root, 'docs'));
    if (existsSync(join(root, ISDLC_DIR))) {
      rmSync(join(root, ISDLC_DIR), { recursive: true, force: true });
      changes.push({ path: `${ISDLC_DIR}/`, change: 'removed', note: 'state, logs and config' });
    }
  } else {
    if (existsSync(journalPath(root))) {
      rmSync(journalPath(root), { recursive: true, force: true });
      changes.push({ path: `${ISDLC_DIR}/${JOURNAL_DIR}/`, change: 'removed' });
    }
    if (existsSync(join(root, INSTALL_RECORD))) {
      rmSync(join(root, INSTALL_RECORD));
      changes.push({ path: INSTALL_RECORD, change: 'removed' });
    }
    for (const rel of [`${ISDLC_DIR}/`, CONSTITUTION_FILE]) {
      if (existsSync(join(root, rel))) changes.push({ path: rel, change: 'kept', note: rel === CONSTITUTION_FILE ? 'docs are kept; --purge removes it if unchanged' : 'state and logs are kept; --purge removes them' });
    }
  }
  return changes;
}
