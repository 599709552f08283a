// What isdlc knows about Claude Code's versions: which of them run the hooks `isdlc init` registers, and
// how to find the version installed here. Every boundary below was seen by running the real Claude Code
// of that version (docs/claude-code-versions.md says how); a version between two seen ones is assumed to
// behave like the next one seen above it.
import { spawnSync } from 'node:child_process';

/** `major.minor.patch`, as `claude --version` prints it. */
export type ClaudeVersion = readonly [major: number, minor: number, patch: number];

export const CLAUDE_CODE = Object.freeze({
  /** The oldest version the end-to-end suite runs; every payload field isdlc reads is present there. */
  minimumSupported: '2.1.100',
  /** Below it Claude Code runs an exec-form hook's `command` without its `args` (bare `node`). */
  execFormHooksFrom: '2.1.139',
  /** From here the UserPromptExpansion event fires (2.1.101 to 2.1.115 accept the key but never fire it). */
  userPromptExpansionFiresFrom: '2.1.116',
  /** Up to here a `UserPromptExpansion` key makes Claude Code drop every hook of that settings file. */
  userPromptExpansionKeyDropsHooksUpTo: '2.1.100',
  /** `bashEditDiffEnabled` is in 2.1.332 and not in 2.1.138; the first version that has it is not known. */
  bashEditDiffSeenIn: '2.1.332',
  bashEditDiffAbsentIn: '2.1.138',
  /**
   * The sandbox runs Bash from here. 2.1.100 from npm fails every sandboxed Bash call (exit 126): its
   * seccomp helper comes without the execute bit. 2.1.138 is the oldest version seen to work.
   */
  sandboxWorksFrom: '2.1.138',
  /**
   * 2.1.332's sandbox refuses to rename a folder above a protected file (EBUSY); 2.1.138's does not, so
   * the agent's shell can move `.claude`, `docs` or `.git` aside and put its own in place. Where the
   * change came in between is not known.
   */
  sandboxHoldsFoldersSeenIn: '2.1.332',
  /** `permissions.blockWritesOutsideWorkingDirectories` is in 2.1.332 and not in 2.1.138; where it starts is not known. */
  blockWritesOutsideSeenIn: '2.1.332',
  /** The newest version these facts were checked against: what init registers for when none is found. */
  newestKnown: '2.1.332',
});

/** How to get a newer Claude Code, for messages. */
export const UPGRADE_COMMANDS = '`claude update` (or `npm i -g @anthropic-ai/claude-code@latest`)';

export function parseVersion(text: string): ClaudeVersion | undefined {
  const match = /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/.exec(text.trim());
  if (!match) return undefined;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function isVersion(text: string): boolean {
  return parseVersion(text) !== undefined;
}

function mustParse(text: string): ClaudeVersion {
  const version = parseVersion(text);
  if (!version) throw new Error(`not a Claude Code version: ${JSON.stringify(text)}`);
  return version;
}

/** Negative when `a` is older than `b`, zero when equal, positive when newer. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [mustParse(a), mustParse(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * The version in what `claude --version` prints (`2.1.332 (Claude Code)`, the same on the older
 * JavaScript builds): the first line that starts with one (a wrapper may print a notice first).
 */
export function parseClaudeVersionOutput(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const match = /^v?(\d+\.\d+\.\d+)(?=$|[\s(])/.exec(line.trim());
    if (match && isVersion(match[1]!)) return match[1];
  }
  return undefined;
}

export interface ClaudeCapabilities {
  /** isdlc supports this version (`init` refuses below it). */
  supported: boolean;
  /** `{"command": "node", "args": [...]}` runs with its arguments. */
  execFormHooks: boolean;
  /** The UserPromptExpansion event fires (a typed `/isdlc ...` reaches the hook). */
  userPromptExpansionFires: boolean;
  /** A `UserPromptExpansion` key silently disables every hook of its settings file. */
  userPromptExpansionKeyDropsHooks: boolean;
  /** Claude Code's sandbox runs Bash (with isdlc's files read-only). */
  sandbox: boolean;
  /** The sandbox also refuses to rename the folders above a protected file. */
  sandboxHoldsFolders: boolean;
  /** `permissions.blockWritesOutsideWorkingDirectories` keeps the file tools inside the project. */
  blockWritesOutside: boolean;
}

export function capabilitiesOf(version: string): ClaudeCapabilities {
  const atLeast = (boundary: string): boolean => compareVersions(version, boundary) >= 0;
  return {
    supported: atLeast(CLAUDE_CODE.minimumSupported),
    execFormHooks: atLeast(CLAUDE_CODE.execFormHooksFrom),
    userPromptExpansionFires: atLeast(CLAUDE_CODE.userPromptExpansionFiresFrom),
    userPromptExpansionKeyDropsHooks: compareVersions(version, CLAUDE_CODE.userPromptExpansionKeyDropsHooksUpTo) <= 0,
    sandbox: atLeast(CLAUDE_CODE.sandboxWorksFrom),
    sandboxHoldsFolders: atLeast(CLAUDE_CODE.sandboxHoldsFoldersSeenIn),
    blockWritesOutside: atLeast(CLAUDE_CODE.blockWritesOutsideSeenIn),
  };
}

export type ClaudeVersionDetection = { found: true; version: string; ms: number } | { found: false; reason: string; ms: number };

export interface DetectOptions {
  /** The environment whose PATH is searched (default: this process's). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/**
 * Asks the `claude` on PATH for its version. It gets no stdin (an interactive build must not wait for a
 * person) and 10 seconds; a native build answers in 0.1 to 0.4 s on the machines measured.
 */
export function detectClaudeVersion(options: DetectOptions = {}): ClaudeVersionDetection {
  const timeout = options.timeoutMs ?? 10_000;
  const started = performance.now();
  // An npm-installed claude on Windows is `claude.cmd`, which only a shell starts.
  const windows = process.platform === 'win32';
  const run = spawnSync(windows ? 'claude --version' : 'claude', windows ? [] : ['--version'], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout,
    killSignal: 'SIGKILL',
    shell: windows,
    windowsHide: true,
  });
  const ms = Math.round(performance.now() - started);
  const error: NodeJS.ErrnoException | undefined = run.error;
  if (error?.code === 'ENOENT') return { found: false, reason: 'no `claude` command on PATH', ms };
  if (error?.code === 'ETIMEDOUT' || run.signal === 'SIGKILL') {
    const limit = timeout >= 1000 ? `${Math.round(timeout / 1000)} s` : `${timeout} ms`;
    return { found: false, reason: `\`claude --version\` did not answer within ${limit}`, ms };
  }
  if (error) return { found: false, reason: `\`claude --version\` could not be run: ${error.message}`, ms };
  const stdout = run.stdout ?? '';
  if (run.status !== 0) {
    const said = (run.stderr || stdout).trim().split('\n')[0]?.slice(0, 200) ?? '';
    return { found: false, reason: `\`claude --version\` exited ${String(run.status ?? run.signal)}${said ? `: ${said}` : ''}`, ms };
  }
  const version = parseClaudeVersionOutput(stdout);
  if (!version) return { found: false, reason: `\`claude --version\` printed ${JSON.stringify(stdout.trim().slice(0, 100))}, not a version`, ms };
  return { found: true, version, ms };
}
