// What `isdlc init` puts into `.claude/settings.json` so that the agent cannot change isdlc's files:
//  - Claude Code's OS sandbox around every Bash call (bubblewrap on Linux, seatbelt on macOS), with no way
//    out for a command (`allowUnsandboxedCommands: false`) and no silent fallback when it cannot start
//    (`failIfUnavailable: true`), and isdlc's files in `filesystem.denyWrite`;
//  - `Edit(...)` deny rules for the same files, because the sandbox does not cover Claude Code's own file
//    tools (Write, Edit, MultiEdit, NotebookEdit), and deny rules hold in every permission mode;
//  - the file tools kept inside the project (`blockWritesOutsideWorkingDirectories`), because a settings
//    file outside it (the user's, the managed one) can undo all of the above. Where Claude Code has no
//    such setting, deny rules for those settings files instead;
//  - a SessionStart hook that sends the caches of the agent's sandboxed shell to Claude Code's temp folder
//    (sandbox-caches.ts), so that npm, Go, cargo and pip work in it.
// The path forms are the ones seen to work with the real Claude Code (docs/sandbox.md): a denyWrite entry
// relative to the project (`/x` would mean the file system's root, `$CLAUDE_PROJECT_DIR` is not
// expanded); a permission rule with one leading slash, which means "from the project root".
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { capabilitiesOf } from './versions.js';
import { SANDBOX_CACHES_KEY, sandboxCachesHookEntry } from './sandbox-caches.js';
import type { OwnedEdits } from './owned-settings.js';
import type { GuardedSet } from '../../integrity/guarded-set.js';
import { readMonorepoConfig } from '../../state/locate.js';

/** isdlc's files, relative to the project root, as the sandbox and the deny rules name them. */
export interface ProtectedPaths {
  /** Folders protected whole. */
  folders: string[];
  /** Single files. */
  files: string[];
}

/**
 * Claude Code keeps git's files and its own definitions read-only in its sandbox already, so they need no
 * denyWrite entry; the file tools need the deny rules. A definition's frontmatter `hooks:` run outside the
 * sandbox from the next session on: one the agent's Write tool left could rewrite anything (docs/sandbox.md).
 */
const denyRuleOnly = (guarded: GuardedSet, path: string): boolean => guarded.runAsCode.includes(path);

/** The monorepo's project ids (none for a single project). */
export function monorepoProjectIds(root: string): string[] {
  return Object.keys(readMonorepoConfig(root)?.projects ?? {});
}

/**
 * The guarded set (guarded-set.ts) as denyWrite takes it: relative paths, a `*` (a monorepo project id)
 * spelled out for each project, since the sandbox's paths are not patterns.
 */
export function protectedPaths(guarded: GuardedSet, projectIds: readonly string[]): ProtectedPaths {
  const paths = guarded.paths
    .filter((path) => !denyRuleOnly(guarded, path))
    .flatMap((path) => (path.includes('*') ? projectIds.map((id) => path.replace('*', id)) : [path]));
  return { folders: paths.filter((path) => guarded.folders.has(path)), files: paths.filter((path) => !guarded.folders.has(path)) };
}

/** The `Edit(...)` rules for the guarded set: one leading slash means "from the project root"; `*` is a pattern there. */
export function editDenyRules(guarded: GuardedSet, root?: string): string[] {
  const paths = root ? heldBySandbox(root, guarded.paths, guarded.folders) : guarded.paths;
  return paths.map((path) => (guarded.folders.has(path) ? `Edit(/${path}/**)` : `Edit(/${path})`));
}

export interface SandboxChoice {
  /** What the sandbox and the deny rules keep from the agent: isdlc's files and every host's. */
  guarded: GuardedSet;
  /** Turn Claude Code's sandbox on (false: `--no-sandbox`, or no sandbox can run here). */
  sandbox: boolean;
  /** The Claude Code version registered for: which settings it has. */
  claudeVersion: string;
  /** The monorepo's project ids (none for a single project). */
  projectIds: readonly string[];
  /** The project: where paths that do not exist yet are held as their missing folder (src/sandbox/missing-paths.ts). */
  root?: string;
}

/** The top folders init makes (isdlc's, the constitution's, Claude Code's settings) before the sandbox first runs. */
const MADE_BY_INIT: ReadonlySet<string> = new Set(['.isdlc', '.claude', 'docs']);

/**
 * What denyWrite and the Edit rules list (Claude Code makes what an Edit rule denies read-only to its sandbox
 * too): a path in a top folder the project does not have and init does not make (another
 * host's `.codex/`) is left to isdlc's tamper check and its own sandbox, since Claude Code's sandbox cannot
 * mount two missing files in one missing folder (every Bash call then fails, "Can't create file at .codex").
 */
export function heldBySandbox(root: string, paths: readonly string[], folders: ReadonlySet<string>): string[] {
  return paths.filter((path) => {
    const top = path.split('/')[0]!;
    // A missing file at the top is held by a placeholder, as ever; a missing folder of another host's is not.
    if (path === top && !folders.has(path)) return true;
    return MADE_BY_INIT.has(top) || existsSync(join(root, top));
  });
}

export const SANDBOX_KEYS = {
  enabled: 'sandbox.enabled',
  failIfUnavailable: 'sandbox.failIfUnavailable',
  allowUnsandboxedCommands: 'sandbox.allowUnsandboxedCommands',
  denyWrite: 'sandbox.filesystem.denyWrite',
} as const;
export const PERMISSION_DENY = 'permissions.deny';
export const BLOCK_WRITES_OUTSIDE = 'permissions.blockWritesOutsideWorkingDirectories';

/** Settings files outside the project whose change could lift the sandbox or the deny rules. */
const OUTSIDE_SETTINGS_RULES = [
  'Edit(~/.claude/**)',
  'Edit(~/.claude.json)',
  'Edit(//etc/claude-code/**)',
  'Edit(//Library/Application Support/ClaudeCode/**)',
];

/** Whether this Claude Code keeps its file tools inside the working directories on request. */
export function hasBlockWritesOutside(version: string): boolean {
  return capabilitiesOf(version).blockWritesOutside;
}

/** The values and entries init owns in `.claude/settings.json`. */
export function sandboxEdits(choice: SandboxChoice): OwnedEdits {
  const paths = protectedPaths(choice.guarded, choice.projectIds);
  const blockOutside = hasBlockWritesOutside(choice.claudeVersion);
  const edits: OwnedEdits = {
    set: blockOutside ? { [BLOCK_WRITES_OUTSIDE]: true } : {},
    add: { [PERMISSION_DENY]: [...editDenyRules(choice.guarded, choice.root), ...(blockOutside ? [] : OUTSIDE_SETTINGS_RULES)] },
  };
  if (choice.sandbox) {
    Object.assign(edits.set, {
      [SANDBOX_KEYS.enabled]: true,
      [SANDBOX_KEYS.failIfUnavailable]: true,
      [SANDBOX_KEYS.allowUnsandboxedCommands]: false,
    });
    const listed = [...paths.folders, ...paths.files];
    edits.add[SANDBOX_KEYS.denyWrite] = choice.root ? heldBySandbox(choice.root, listed, choice.guarded.folders) : listed;
    edits.add[SANDBOX_CACHES_KEY] = [sandboxCachesHookEntry()];
  }
  return edits;
}
