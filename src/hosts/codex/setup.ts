// isdlc in Codex's own files (src/install/host-setup.ts): its hooks in `.codex/hooks.json`, in
// `.codex/config.toml` the permission profile that keeps the agent's shell and apply_patch off isdlc's files
// and isdlc's MCP server, the workflow's instructions as a section of the project's `AGENTS.md`, and the
// phase agents as roles in `.codex/agents/`. The person's own entries stay as they are; their bytes before
// isdlc's first change are kept, and uninstall gives them back.
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChangeLine, HostInitContext, HostInitPlan, HostSetup } from '../../install/host-setup.js';
import { InstallError } from '../../install/host-setup.js';
import { serialise } from '../../install/json-file.js';
import { editJson, sameJson } from '../../install/json-edit.js';
import { keepOriginal, originalIfSame, originalOf } from '../../install/originals.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import type { InstallRecord } from '../../state/install-record.js';
import { firstOnPath } from '../../util/program-path.js';
import { readTextIfPresent } from '../../util/read-text.js';
import { ROLES_DIR, roleFiles } from './agent-roles.js';
import { AGENTS_FILE, agentsSection, withoutSection, withSection } from './agents-md.js';
import { CONFIG_FILE, HOOKS_FILE } from './files.js';
import { withOurHooks, withoutOurHooks } from './hooks-json.js';
import { codexFieldsOf, type CodexInstallFields } from './install-record.js';
import { configBlocks, personsDefaultPermissions, withIsdlcBlocks, withoutIsdlcBlocks } from './profile.js';
import { codexTempFolders, parentsAboveProject } from './folders-above.js';
import { codexTarget, CODEX_VERSIONS } from './versions.js';

/** Codex's options of `isdlc init` (src/hosts/codex/index.ts). */
export interface CodexInitOptions {
  /** `--codex-version`: the version to go by; else what `codex --version` prints. */
  codexVersion?: string;
}

const ORIGINALS = { hooks: 'codex-hooks', config: 'codex-config', agents: 'codex-agents-md' } as const;

type Json = Record<string, unknown>;

function readJson(root: string, rel: string): { value: Json; text: string | undefined } {
  const text = readTextIfPresent(join(root, rel));
  if (text === undefined) return { value: {}, text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { value: parsed as Json, text };
  } catch {
    // said below
  }
  throw new InstallError(`${join(root, rel)} is not a JSON object; fix it first, isdlc changed nothing`);
}

/** The paths a pattern (`*` for one path segment) matches on disk now. */
function matchesOnDisk(root: string, pattern: string): string[] {
  let found = [''];
  for (const part of pattern.split('/')) {
    found = found.flatMap((base) => {
      if (part !== '*') return existsSync(join(root, base, part)) ? [base ? `${base}/${part}` : part] : [];
      try {
        return readdirSync(join(root, base)).map((name) => (base ? `${base}/${name}` : name));
      } catch {
        return [];
      }
    });
  }
  return found;
}

/**
 * Top folders whose guarded paths are held where they are, the folders above them pinned: the agents' `docs/`
 * (the constitution's folder, and the task plan's), and `.git/`, where only the config and the hooks are
 * held: named writable (a pinned folder), the rest of it lets the agent commit, which Codex's workspace
 * profile alone refuses.
 */
const KEPT_WHERE_THEY_ARE: ReadonlySet<string> = new Set(['docs', '.git']);

/**
 * The paths the profile holds read-only, none inside another, each there once init has written isdlc's
 * files. A missing one is not named: Codex would stand an empty file or folder in for it, left in the
 * project as untracked work, and it cannot apply a profile that names a missing path inside a folder it
 * already holds (every patch then fails); what the agent makes there instead (another host's settings,
 * say) is undone by the tamper check at the next hook call. A guarded path in `docs/` or `.git/` is held
 * where it is, the folders above it pinned (folders-above.ts); any other at its top folder (`.claude`,
 * `.codex`): a tool's folder, none of it the agent's work, which then needs nothing pinned. Codex
 * takes no patterns: a monorepo's are named by the files that match them now (a project's constitution
 * written later is held once init runs again).
 */
export function readOnlyPaths(root: string, guarded: readonly string[]): string[] {
  const present = guarded
    .flatMap((path) => (path.includes('*') ? matchesOnDisk(root, path) : [path]))
    .map((path) => (KEPT_WHERE_THEY_ARE.has(path.split('/')[0]!) ? path : path.split('/')[0]!))
    .filter((path) => existsSync(join(root, path)));
  const unique = [...new Set(present)];
  // Sorted: the same files give the same profile, whichever of them existed first.
  return unique.filter((path) => !unique.some((other) => other !== path && path.startsWith(`${other}/`))).sort();
}

function prepareInit(context: HostInitContext, options: CodexInitOptions): HostInitPlan {
  const { root } = context;
  const target = codexTarget(options.codexVersion);
  const hooks = readJson(root, HOOKS_FILE);
  const configText = readTextIfPresent(join(root, CONFIG_FILE));
  const agentsText = readTextIfPresent(join(root, AGENTS_FILE));
  const theirs = personsDefaultPermissions(configText);
  if (theirs !== undefined && theirs !== 'isdlc') {
    throw new InstallError(
      `${join(root, CONFIG_FILE)} sets default_permissions = "${theirs}" already: isdlc's profile would replace it. Take that line out (or set up isdlc for Claude Code only), then run init again; isdlc changed nothing`,
    );
  }
  const node = firstOnPath('node', process.env['PATH']) ?? 'node';
  const bin = join(root, '.isdlc', 'bin', 'isdlc.cjs');
  const nextHooks = withOurHooks(hooks.value, node, bin);
  const previous = codexFieldsOf(context.previous);
  const record: CodexInstallFields = {
    codex: { version: target.version, from: target.from, wall: target.wall },
    codex_hooks_file_created: previous?.codex_hooks_file_created ?? hooks.text === undefined,
    codex_config_file_created: previous?.codex_config_file_created ?? configText === undefined,
    codex_agents_file_created: previous?.codex_agents_file_created ?? agentsText === undefined,
  };

  const write = (): ChangeLine[] => {
    const changes: ChangeLine[] = [];
    const keep = (name: string, text: string | undefined): void => {
      if (!previous) keepOriginal(root, name, text);
    };
    const hooksPath = join(root, HOOKS_FILE);
    const hooksText = hooks.text === undefined ? serialise(nextHooks) : editJson(hooks.text, nextHooks);
    if (hooksText === hooks.text) changes.push({ path: HOOKS_FILE, change: 'unchanged' });
    else {
      keep(ORIGINALS.hooks, hooks.text);
      mkdirSync(dirname(hooksPath), { recursive: true });
      writeFileAtomic(hooksPath, hooksText);
      changes.push({ path: HOOKS_FILE, change: hooks.text === undefined ? 'created' : 'updated', note: "isdlc's hooks merged in" });
    }
    const configPath = join(root, CONFIG_FILE);
    // Worked out once isdlc's own files are in place: a path init just made is held where it is, not at the
    // missing folder it was in a moment ago (which would have held all of docs/, say).
    const blocks = configBlocks(
      readOnlyPaths(root, context.guarded.paths),
      { command: node, args: [bin, 'mcp', '--dir', root] },
      parentsAboveProject(realpathSync(root), codexTempFolders()),
    );
    const nextConfig = withIsdlcBlocks(configText, blocks);
    if (nextConfig === configText) changes.push({ path: CONFIG_FILE, change: 'unchanged' });
    else {
      keep(ORIGINALS.config, configText);
      mkdirSync(dirname(configPath), { recursive: true });
      writeFileAtomic(configPath, nextConfig);
      changes.push({
        path: CONFIG_FILE,
        change: configText === undefined ? 'created' : 'updated',
        note: "isdlc's permission profile (its files read-only to the agent) and MCP server",
      });
    }
    const nextAgents = withSection(agentsText, agentsSection(context.config));
    if (nextAgents === agentsText) changes.push({ path: AGENTS_FILE, change: 'unchanged' });
    else {
      keep(ORIGINALS.agents, agentsText);
      writeFileAtomic(join(root, AGENTS_FILE), nextAgents);
      changes.push({
        path: AGENTS_FILE,
        change: agentsText === undefined ? 'created' : 'updated',
        note: "isdlc's section: how a workflow runs through isdlc's tools, for Codex's agent",
      });
    }
    return changes;
  };

  return {
    record: record as unknown as Record<string, unknown>,
    files: roleFiles(context.config),
    write,
    notices: () => [
      `registered for Codex ${target.version}${target.from === 'assumed' ? ' (assumed: no `codex` found on PATH; pass --codex-version)' : ''}.` +
        (target.wall
          ? ' Its sandbox keeps isdlc\'s files read-only to the agent through the "isdlc" permission profile.'
          : ` Codex ${target.version} has no permission profiles (they came in ${CODEX_VERSIONS.wallFrom}): isdlc's files are not held read-only, isdlc only notices changes afterwards.`),
      "Codex runs a project's hooks only in a trusted project and only hooks a person trusted: open `codex` in the project, trust it, and review isdlc's hooks in /hooks. Until then Codex skips them without a word; `isdlc doctor` says whether they have run.",
    ],
  };
}

function uninstall(root: string, installRecord: InstallRecord | undefined): ChangeLine[] {
  const record = codexFieldsOf(installRecord);
  const changes: ChangeLine[] = [];
  const hooksPath = join(root, HOOKS_FILE);
  const hooksText = readTextIfPresent(hooksPath);
  if (hooksText !== undefined) {
    let value: Json | undefined;
    try {
      value = JSON.parse(hooksText) as Json;
    } catch {
      value = undefined;
    }
    if (value && typeof value === 'object') {
      const cleaned = withoutOurHooks(value);
      const original = originalOf(root, ORIGINALS.hooks);
      const asBefore = originalIfSame(original, (before) => {
        try {
          return sameJson(JSON.parse(before), cleaned);
        } catch {
          return false;
        }
      });
      if (asBefore === undefined && Object.keys(cleaned).length === 0 && (record?.codex_hooks_file_created || (original && 'absent' in original))) {
        rmSync(hooksPath);
        changes.push({ path: HOOKS_FILE, change: 'removed', note: 'isdlc created it and nothing else was in it' });
      } else {
        const next = asBefore ?? editJson(hooksText, cleaned);
        if (next !== hooksText) {
          writeFileAtomic(hooksPath, next);
          changes.push({ path: HOOKS_FILE, change: 'updated', note: "isdlc's hooks taken out" });
        }
      }
    }
  }
  const configPath = join(root, CONFIG_FILE);
  const configText = readTextIfPresent(configPath);
  if (configText !== undefined) {
    const cleaned = withoutIsdlcBlocks(configText);
    const original = originalOf(root, ORIGINALS.config);
    const asBefore = originalIfSame(original, (before) => before.replace(/\s+$/, '') === cleaned.replace(/\s+$/, ''));
    if (asBefore === undefined && cleaned.trim() === '' && (record?.codex_config_file_created || (original && 'absent' in original))) {
      rmSync(configPath);
      changes.push({ path: CONFIG_FILE, change: 'removed', note: 'isdlc created it and nothing else was in it' });
    } else {
      const next = asBefore ?? cleaned;
      if (next !== configText) {
        writeFileAtomic(configPath, next);
        changes.push({ path: CONFIG_FILE, change: 'updated', note: "isdlc's profile and MCP server taken out" });
      }
    }
  }
  changes.push(...removeSection(root, record));
  return changes;
}

/** AGENTS.md without isdlc's section: the person's bytes from before init where the rest is what they had. */
function removeSection(root: string, record: CodexInstallFields | undefined): ChangeLine[] {
  const path = join(root, AGENTS_FILE);
  const text = readTextIfPresent(path);
  if (text === undefined) return [];
  const cleaned = withoutSection(text);
  const original = originalOf(root, ORIGINALS.agents);
  const asBefore = originalIfSame(original, (before) => before === cleaned || before.trim() === cleaned.trim());
  if (asBefore === undefined && cleaned.trim() === '' && (record?.codex_agents_file_created || (original && 'absent' in original))) {
    rmSync(path);
    return [{ path: AGENTS_FILE, change: 'removed', note: 'isdlc created it and nothing else was in it' }];
  }
  const next = asBefore ?? cleaned;
  if (next === text) return [];
  writeFileAtomic(path, next);
  return [{ path: AGENTS_FILE, change: 'updated', note: "isdlc's section taken out" }];
}

export const CODEX_SETUP: HostSetup = {
  checkInit: (options) => void codexTarget((options as CodexInitOptions).codexVersion),
  prepareInit: (context, options) => prepareInit(context, options),
  uninstall,
  installed: (rel) => rel.startsWith(`${ROLES_DIR}/`),
  // Deepest first; each only when empty, after the roles init installed are gone.
  folders: [ROLES_DIR, '.codex'],
};
