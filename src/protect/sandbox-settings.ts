// What `isdlc init` puts into `.claude/settings.json` so that the agent cannot change isdlc's files:
//  - Claude Code's OS sandbox around every Bash call (bubblewrap on Linux, seatbelt on macOS), with no way
//    out for a command (`allowUnsandboxedCommands: false`) and no silent fallback when it cannot start
//    (`failIfUnavailable: true`), and isdlc's files in `filesystem.denyWrite`;
//  - `Edit(...)` deny rules for the same files, because the sandbox does not cover Claude Code's own file
//    tools (Write, Edit, MultiEdit, NotebookEdit), and deny rules hold in every permission mode;
//  - the file tools kept inside the project (`blockWritesOutsideWorkingDirectories`), because a settings
//    file outside it (the user's, the managed one) can undo all of the above. Where Claude Code has no
//    such setting, deny rules for those settings files instead.
// The path forms are the ones seen to work with the real Claude Code (docs/sandbox.md): a denyWrite entry
// relative to the project (`/x` would mean the file system's root, `$CLAUDE_PROJECT_DIR` is not
// expanded); a permission rule with one leading slash, which means "from the project root".
import { capabilitiesOf } from '../host/claude-code-versions.js';
import type { OwnedEdits } from '../install/owned-settings.js';
import { readMonorepoConfig } from '../state/locate.js';

/** isdlc's files, relative to the project root, as the sandbox and the deny rules name them. */
export interface ProtectedPaths {
  /** Folders isdlc owns whole. */
  folders: string[];
  /** Single files. */
  files: string[];
}

/** The settings files of Claude Code's own that, changed, would take isdlc's hooks or the sandbox away. */
const HOST_FILES = ['.claude/settings.json', '.claude/settings.local.json', '.mcp.json'];
/** git runs what these name (hooks, core.fsmonitor, aliases) outside the sandbox, for Claude Code and for the person. */
const GIT_FILES = { folders: ['.git/hooks'], files: ['.git/config'] };

/**
 * The files to protect: `.isdlc/` whole, the JavaScript framework's config folder (isdlc reads it), the
 * constitution(s), and the settings that register isdlc.
 */
export function protectedPaths(constitutions: readonly string[]): ProtectedPaths {
  return { folders: ['.isdlc', '.claude/hooks/config'], files: [...constitutions, ...HOST_FILES] };
}

/** The constitution files to protect: the project's, and each monorepo project's. */
export function constitutionFiles(root: string): string[] {
  const projects = Object.keys(readMonorepoConfig(root)?.projects ?? {});
  return ['docs/isdlc/constitution.md', ...projects.map((id) => `docs/isdlc/projects/${id}/constitution.md`)];
}

export interface SandboxChoice {
  /** Turn Claude Code's sandbox on (false: `--no-sandbox`, or no sandbox can run here). */
  sandbox: boolean;
  /** The Claude Code version registered for: which settings it has. */
  claudeVersion: string;
  constitutions: readonly string[];
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
const OUTSIDE_SETTINGS_RULES = ['Edit(~/.claude/**)', 'Edit(~/.claude.json)', 'Edit(//etc/claude-code/**)', 'Edit(//Library/Application Support/ClaudeCode/**)'];

/** Whether this Claude Code keeps its file tools inside the working directories on request. */
export function hasBlockWritesOutside(version: string): boolean {
  return capabilitiesOf(version).blockWritesOutside;
}

/** The `Edit(...)` rules for the protected paths: one leading slash means "from the project root". */
export function editDenyRules(paths: ProtectedPaths): string[] {
  return [
    ...paths.folders.map((folder) => `Edit(/${folder}/**)`),
    ...paths.files.map((file) => `Edit(/${file})`),
    ...GIT_FILES.files.map((file) => `Edit(/${file})`),
    ...GIT_FILES.folders.map((folder) => `Edit(/${folder}/**)`),
  ];
}

/** The values and entries init owns in `.claude/settings.json`. */
export function sandboxEdits(choice: SandboxChoice): OwnedEdits {
  const paths = protectedPaths(choice.constitutions);
  const blockOutside = hasBlockWritesOutside(choice.claudeVersion);
  const edits: OwnedEdits = {
    set: blockOutside ? { [BLOCK_WRITES_OUTSIDE]: true } : {},
    add: { [PERMISSION_DENY]: [...editDenyRules(paths), ...(blockOutside ? [] : OUTSIDE_SETTINGS_RULES)] },
  };
  if (choice.sandbox) {
    Object.assign(edits.set, {
      [SANDBOX_KEYS.enabled]: true,
      [SANDBOX_KEYS.failIfUnavailable]: true,
      [SANDBOX_KEYS.allowUnsandboxedCommands]: false,
    });
    edits.add[SANDBOX_KEYS.denyWrite] = [...paths.folders, ...paths.files];
  }
  return edits;
}
