// isdlc in Claude Code's own files (src/install/host-setup.ts): its hooks, permission rules and sandbox in
// `.claude/settings.json`, its MCP server in `.mcp.json`, the /isdlc command and the phase agents in
// `.claude/`, and the names its sandbox mounts in the project kept out of git. Nothing the person wrote is
// overwritten; uninstall gives back exactly what init took.
import { existsSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ChangeLine, Change, HostInitContext, HostInitPlan, HostSetup } from '../../install/host-setup.js';
import { InstallError } from '../../install/host-setup.js';
import { readJsonObject, serialise } from '../../install/json-file.js';
import { editJson } from '../../install/json-edit.js';
import { keepOriginal, originalIfSame, originalOf } from '../../install/originals.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import type { InstallRecord } from '../../state/install-record.js';
import { readTextIfPresent } from '../../util/read-text.js';
import { AGENT_DIR, agentFiles, COMMAND_FILE } from './agent-files.js';
import { MCP_FILE, SETTINGS_FILE } from './files.js';
import { sandboxMountNames, updateGitExclude, type ExcludeChange } from './git-exclude.js';
import { planHooks, resolveTarget, type HookPlan } from './hook-plan.js';
import { claudeCodeFieldsOf, type ClaudeCodeInstallFields } from './install-record.js';
import { initNotices } from './init-notices.js';
import { mergeOurMcpServer, removeOurMcpServer } from './mcp-json.js';
import { applyOwned, OwnedSettingsShapeError, removeOwned } from './owned-settings.js';
import { heldBySandbox, monorepoProjectIds, protectedPaths, sandboxEdits } from './sandbox-settings.js';
import { claudeSandboxSupport, type SandboxSupport } from './sandbox-support.js';
import { mergeOurSettings, removeOurSettings, type HookForm, type Settings } from './settings.js';
import { CLAUDE_CODE, UPGRADE_COMMANDS } from './versions.js';
import { firstOnPath } from '../../util/program-path.js';

/** Claude Code's options of `isdlc init`, as the command line gives them (src/hosts/claude-code/index.ts). */
export interface ClaudeCodeInitOptions {
  /** `--claude-version`: the version to go by; else what `claude --version` prints. */
  claudeVersion?: string;
  /** `--hook-form`: a hook form the user asked for; without one, the form that Claude Code runs. */
  hookForm?: HookForm;
  /** false with `--no-sandbox`: leave Claude Code's sandbox off (what isdlc turned on before is taken back). */
  sandbox?: boolean;
  /** Whether Claude Code's sandbox can run on this machine; found here unless a test says. */
  sandboxSupport?: SandboxSupport;
}

/** Why the sandbox stays off, for the record and for the person. */
function sandboxDecision(options: ClaudeCodeInitOptions, plan: HookPlan): { on: boolean; why?: string } {
  if (options.sandbox === false) return { on: false, why: 'turned off with `isdlc init --no-sandbox`' };
  if (!plan.capabilities.sandbox) {
    return {
      on: false,
      why: `Claude Code ${plan.target.version}'s sandbox cannot run Bash (it works from ${CLAUDE_CODE.sandboxWorksFrom}); upgrade with ${UPGRADE_COMMANDS}, then run \`isdlc init\` again`,
    };
  }
  const support = options.sandboxSupport ?? claudeSandboxSupport();
  if (support.ok) return { on: true };
  return { on: false, why: `${support.why}${support.install ? `; install: ${support.install}, then run \`isdlc init\` again` : ''}` };
}

/** The names the person's files are kept under before isdlc's first change (install/originals.ts). */
const ORIGINALS = { settings: 'settings', mcp: 'mcp', gitExclude: 'git-exclude' } as const;

const plans = new WeakMap<ClaudeCodeInitOptions, HookPlan>();

/** A Claude Code that would not run the hooks stops init before any change. Asked once per init. */
function planFor(options: ClaudeCodeInitOptions): HookPlan {
  const known = plans.get(options);
  if (known) return known;
  const plan = planHooks(resolveTarget(options.claudeVersion), options.hookForm);
  if ('refused' in plan) throw new InstallError(plan.refused);
  plans.set(options, plan);
  return plan;
}

function prepareInit(context: HostInitContext, options: ClaudeCodeInitOptions): HostInitPlan {
  const { root, guarded } = context;
  const plan = planFor(options);
  // Settings first: if the user's file cannot be merged, stop before touching anything.
  const read = readJsonObject(join(root, SETTINGS_FILE));
  const settingsExisted = read.existed;
  const merged = mergeOurSettings(read.value, plan.form, plan.registrations);
  const previous = claudeCodeFieldsOf(context.previous);
  const sandbox = sandboxDecision(options, plan);
  const projectIds = monorepoProjectIds(root);
  let owned: ReturnType<typeof applyOwned>;
  try {
    const before = previous?.settings_owned ? { record: previous.settings_owned, created: previous.settings_created ?? [] } : undefined;
    owned = applyOwned(merged.settings, sandboxEdits({ guarded, sandbox: sandbox.on, claudeVersion: plan.target.version, projectIds, root }), before);
  } catch (error) {
    if (error instanceof OwnedSettingsShapeError)
      throw new InstallError(`${join(root, SETTINGS_FILE)}: ${error.message}. Fix it first; isdlc changed nothing.`);
    throw error;
  }
  const mcp = readJsonObject(join(root, MCP_FILE));
  let mcpMerged: ReturnType<typeof mergeOurMcpServer>;
  try {
    mcpMerged = mergeOurMcpServer(mcp.value);
  } catch (error) {
    throw new InstallError(`${join(root, MCP_FILE)}: ${(error as Error).message}. Fix it first; isdlc changed nothing.`);
  }

  const hookNode = firstOnPath('node', process.env['PATH']);
  const record: ClaudeCodeInstallFields = {
    settings_created: [...new Set([...(previous?.settings_created ?? []), ...merged.created, ...owned.created])],
    settings_file_created: previous?.settings_file_created ?? !settingsExisted,
    mcp_file_created: previous?.mcp_file_created ?? !mcp.existed,
    mcp_servers_created: previous?.mcp_servers_created ?? (!previous && mcp.value['mcpServers'] === undefined),
    claude_code: { version: plan.target.version, from: plan.target.from, hook_form: plan.form },
    settings_owned: owned.record,
    sandbox,
    ...(hookNode ? { hook_node: hookNode } : {}),
  };

  const write = (): ChangeLine[] => {
    const changes: ChangeLine[] = [];
    // The person's own file is edited in place; its bytes before isdlc's first change are kept for uninstall.
    const keep = (name: string, text: string | undefined): void => {
      if (!context.previous) keepOriginal(root, name, text);
    };
    const settingsPath = join(root, SETTINGS_FILE);
    const settingsBefore = readTextIfPresent(settingsPath);
    const settingsText = settingsBefore === undefined ? serialise(owned.settings) : editJson(settingsBefore, owned.settings);
    if (settingsBefore === settingsText) changes.push({ path: SETTINGS_FILE, change: 'unchanged' });
    else {
      keep(ORIGINALS.settings, settingsBefore);
      mkdirSync(dirname(settingsPath), { recursive: true });
      writeFileAtomic(settingsPath, settingsText);
      const what = sandbox.on ? 'isdlc hooks, permissions and the sandbox merged in' : 'isdlc hooks and permissions merged in';
      changes.push({ path: SETTINGS_FILE, change: settingsExisted ? 'updated' : 'created', note: what });
    }

    const mcpPath = join(root, MCP_FILE);
    const mcpBefore = readTextIfPresent(mcpPath);
    const mcpText = mcpBefore === undefined ? serialise(mcpMerged.config) : editJson(mcpBefore, mcpMerged.config);
    if (mcpMerged.conflict) changes.push({ path: MCP_FILE, change: 'kept', note: mcpMerged.conflict });
    else if (mcpBefore === mcpText) changes.push({ path: MCP_FILE, change: 'unchanged' });
    else {
      keep(ORIGINALS.mcp, mcpBefore);
      writeFileAtomic(mcpPath, mcpText);
      changes.push({ path: MCP_FILE, change: mcp.existed ? 'updated' : 'created', note: "the isdlc MCP server (the workflow's and the loop's tools) added" });
    }

    // After settings.json and .mcp.json exist: only names still missing are listed.
    const shown = protectedPaths(guarded, projectIds);
    const mounted = sandbox.on ? sandboxMountNames(root, heldBySandbox(root, [...shown.folders, ...shown.files], guarded.folders)) : [];
    const exclude = updateGitExclude(root, mounted, {
      keep: (before) => keep(ORIGINALS.gitExclude, before),
      original: originalOf(root, ORIGINALS.gitExclude),
    });
    if (exclude.file && exclude.change !== 'unchanged') {
      changes.push({
        path: relative(root, exclude.file),
        change: excludeChange(exclude.change),
        note: mounted.length > 0 ? `${mounted.length} names the sandbox mounts in the project, kept out of git` : "isdlc's block taken out",
      });
    }
    return changes;
  };

  return {
    record: record as unknown as Record<string, unknown>,
    files: agentFiles(context.config),
    write,
    notices: () => initNotices(root, { plan, sandbox, replaced: owned.replaced }),
  };
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or gone already
  }
}

/** How a change of the exclude file reads in init's and uninstall's list. */
function excludeChange(change: ExcludeChange): Change {
  if (change === 'deleted') return 'removed';
  if (change === 'removed') return 'updated';
  return change as Change;
}

/** `text` as JSON, the same values in the same order as `value`. */
function holds(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/**
 * A shared JSON file without isdlc's part (`cleaned`): the person's bytes from before init where the rest
 * is what they held then; the file removed where isdlc created it and nothing else is in it; else edited
 * in place.
 */
function giveBack(
  root: string,
  rel: string,
  name: string,
  cleaned: Record<string, unknown>,
  empty: boolean,
  created: boolean | undefined,
  what: string,
): ChangeLine[] {
  const path = join(root, rel);
  const text = readTextIfPresent(path);
  if (text === undefined) return [];
  const original = originalOf(root, name);
  const asBefore = originalIfSame(original, (before) => holds(before, cleaned));
  if (asBefore === undefined && empty && (created || (original !== undefined && 'absent' in original))) {
    rmSync(path);
    return [{ path: rel, change: 'removed', note: 'isdlc created it and nothing else was in it' }];
  }
  const next = asBefore ?? editJson(text, cleaned);
  if (next === text) return [];
  writeFileAtomic(path, next);
  return [{ path: rel, change: 'updated', note: asBefore === undefined ? what : `${what}: as it was before isdlc, byte for byte` }];
}

function uninstall(root: string, installRecord: InstallRecord | undefined): ChangeLine[] {
  const record = claudeCodeFieldsOf(installRecord);
  const changes: ChangeLine[] = [];
  const settingsPath = join(root, SETTINGS_FILE);
  if (existsSync(settingsPath)) {
    const settings = readJsonObject(settingsPath).value as Settings;
    const withoutHooks = removeOurSettings(settings, record?.settings_created);
    const cleaned = record?.settings_owned ? removeOwned(withoutHooks, record.settings_owned, record.settings_created ?? []) : withoutHooks;
    const given = giveBack(
      root,
      SETTINGS_FILE,
      ORIGINALS.settings,
      cleaned,
      Object.keys(cleaned).length === 0,
      record?.settings_file_created,
      'isdlc hooks and permission taken out',
    );
    if (given[0]?.change === 'removed') removeIfEmpty(dirname(settingsPath));
    changes.push(...given);
  }

  const mcpPath = join(root, MCP_FILE);
  if (existsSync(mcpPath)) {
    const config = readJsonObject(mcpPath).value;
    const cleaned = removeOurMcpServer(config, record?.mcp_servers_created === true);
    const servers = cleaned['mcpServers'];
    const onlyServers = Object.keys(cleaned).length === 1 && typeof servers === 'object' && servers !== null && Object.keys(servers).length === 0;
    const empty = Object.keys(cleaned).length === 0 || onlyServers;
    changes.push(...giveBack(root, MCP_FILE, ORIGINALS.mcp, cleaned, empty, record?.mcp_file_created, 'the isdlc MCP server taken out'));
  }

  const exclude = updateGitExclude(root, [], { original: originalOf(root, ORIGINALS.gitExclude) });
  if (exclude.file && (exclude.change === 'removed' || exclude.change === 'deleted'))
    changes.push({ path: relative(root, exclude.file), change: excludeChange(exclude.change), note: "isdlc's block taken out" });
  return changes;
}

export const CLAUDE_CODE_SETUP: HostSetup = {
  checkInit: (options) => void planFor(options),
  prepareInit: (context, options) => prepareInit(context, options),
  uninstall,
  installed: (rel) => rel === COMMAND_FILE || rel.startsWith(`${AGENT_DIR}/`),
  folders: [dirname(COMMAND_FILE), AGENT_DIR, '.claude'],
};
