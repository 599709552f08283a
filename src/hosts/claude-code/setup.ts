// isdlc in Claude Code's own files (src/install/host-setup.ts): its hooks, permission rules and sandbox in
// `.claude/settings.json`, its MCP server in `.mcp.json`, the /isdlc command and the phase agents in
// `.claude/`, and the names its sandbox mounts in the project kept out of git. Nothing the person wrote is
// overwritten; uninstall gives back exactly what init took.
import { existsSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ChangeLine, Change, HostInitContext, HostInitPlan, HostSetup } from '../../install/host-setup.js';
import { InstallError } from '../../install/host-setup.js';
import { readJsonObject, serialise } from '../../install/json-file.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import type { InstallRecord } from '../../state/install-record.js';
import { readTextIfPresent } from '../../util/read-text.js';
import { AGENT_DIR, agentFiles, COMMAND_FILE } from './agent-files.js';
import { MCP_FILE, SETTINGS_FILE } from './files.js';
import { sandboxMountNames, updateGitExclude } from './git-exclude.js';
import { planHooks, resolveTarget, type HookPlan } from './hook-plan.js';
import { claudeCodeFieldsOf, type ClaudeCodeInstallFields } from './install-record.js';
import { initNotices } from './init-notices.js';
import { mergeOurMcpServer, removeOurMcpServer } from './mcp-json.js';
import { applyOwned, OwnedSettingsShapeError, removeOwned } from './owned-settings.js';
import { monorepoProjectIds, protectedPaths, sandboxEdits } from './sandbox-settings.js';
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
    owned = applyOwned(merged.settings, sandboxEdits({ guarded, sandbox: sandbox.on, claudeVersion: plan.target.version, projectIds }), before);
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
    claude_code: { version: plan.target.version, from: plan.target.from, hook_form: plan.form },
    settings_owned: owned.record,
    sandbox,
    ...(hookNode ? { hook_node: hookNode } : {}),
  };

  const write = (): ChangeLine[] => {
    const changes: ChangeLine[] = [];
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
    const shown = protectedPaths(guarded, projectIds);
    const mounted = sandbox.on ? sandboxMountNames(root, [...shown.folders, ...shown.files]) : [];
    const exclude = updateGitExclude(root, mounted);
    if (exclude.file && exclude.change !== 'unchanged') {
      changes.push({
        path: relative(root, exclude.file),
        change: exclude.change === 'removed' ? 'updated' : (exclude.change as Change),
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

function uninstall(root: string, installRecord: InstallRecord | undefined): ChangeLine[] {
  const record = claudeCodeFieldsOf(installRecord);
  const changes: ChangeLine[] = [];
  const settingsPath = join(root, SETTINGS_FILE);
  if (existsSync(settingsPath)) {
    const settings = readJsonObject(settingsPath).value as Settings;
    const withoutHooks = removeOurSettings(settings, record?.settings_created);
    const cleaned = record?.settings_owned ? removeOwned(withoutHooks, record.settings_owned, record.settings_created ?? []) : withoutHooks;
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
    const config = readJsonObject(mcpPath).value;
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
  return changes;
}

export const CLAUDE_CODE_SETUP: HostSetup = {
  checkInit: (options) => void planFor(options),
  prepareInit: (context, options) => prepareInit(context, options),
  uninstall,
  installed: (rel) => rel === COMMAND_FILE || rel.startsWith(`${AGENT_DIR}/`),
  folders: [dirname(COMMAND_FILE), AGENT_DIR, '.claude'],
};
