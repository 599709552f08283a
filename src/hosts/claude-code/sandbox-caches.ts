// Where the agent's shell keeps toolchain caches inside Claude Code's sandbox. The sandbox leaves it the
// project and Claude Code's temp folder to write ($TMPDIR there: /tmp/claude-<uid>); npm, Go, cargo and pip
// keep theirs in the home folder, which it holds read-only, so `npm install` and `go build` fail there.
//
// The variables that move them must reach the sandboxed shell and nothing else. Claude Code's `env` setting
// reaches its hooks and MCP servers too, which run outside the sandbox with the person's rights: a cache the
// agent can write, read by them, is a way out (a Go build cache is trusted object code, cargo's home holds a
// config that names programs to run, npx runs what npm's cache holds), and a path in it would be one user's
// (/tmp/claude-1000) in a file the whole team commits. So init registers a SessionStart hook instead that
// writes one line into CLAUDE_ENV_FILE, the script Claude Code runs ahead of every Bash command (the main
// agent's, a subagent's, a background one's): inside the sandbox (SANDBOX_RUNTIME is set there) it sends
// the caches under $TMPDIR, as it is for whoever runs it. isdlc's own sandboxed runs (the gate, loop rules)
// use caches of their own in a temp folder no one else sees (src/sandbox/read-only-world.ts).
import type { MatcherEntry } from './settings.js';

/** The variables, and the folder under $TMPDIR each points at. */
export const AGENT_SHELL_CACHES: Readonly<Record<string, string>> = Object.freeze({
  // Most tools' caches on Linux (pip, Go's build cache when GOCACHE is unset, uv, pre-commit, ...).
  XDG_CACHE_HOME: 'cache',
  npm_config_cache: 'npm-cache',
  GOCACHE: 'go-build',
  PIP_CACHE_DIR: 'pip-cache',
  // cargo's registry, git checkouts and their locks; the home's config.toml is then not read.
  CARGO_HOME: 'cargo',
});

/** Where a hook entry goes in `.claude/settings.json`. */
export const SANDBOX_CACHES_KEY = 'hooks.SessionStart';

/** The line the hook writes into CLAUDE_ENV_FILE: evaluated inside the agent's shell, before each command. */
export function sandboxCachesScript(): string {
  const exports = Object.entries(AGENT_SHELL_CACHES)
    .map(([name, folder]) => `${name}="$TMPDIR/${folder}"`)
    .join(' ');
  return `if [ -n "$SANDBOX_RUNTIME" ] && [ -n "$TMPDIR" ]; then export ${exports}; fi`;
}

/** The SessionStart entry (every source: a cleared or compacted session gets a new CLAUDE_ENV_FILE). */
export function sandboxCachesHookEntry(): MatcherEntry {
  const script = sandboxCachesScript();
  if (script.includes("'")) throw new Error('the script is quoted with single quotes and must hold none');
  return {
    hooks: [
      {
        type: 'command',
        command: `: isdlc, caches of the sandboxed shell in its temp folder; [ -z "$CLAUDE_ENV_FILE" ] || printf '%s\\n' '${script}' >> "$CLAUDE_ENV_FILE"`,
        timeout: 10,
      },
    ],
  };
}
