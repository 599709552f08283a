// Which shell commands run tests. A command line is split into the commands it chains; each is
// stripped of what only wraps a runner (environment assignments, `npx`, `pnpm exec`, `python -m`,
// `bundle exec`, ...) and then compared with the known runners and the phase's own `test_commands`.
// Text that merely mentions a runner (`echo "npm test"`, `git commit -m "fix pytest"`) is not a test run.
import { splitCommandLine } from '../detect/shell-commands.js';

/**
 * What the command line's exit status says about the tests: `own` when the test command is the last
 * thing run; `zero-means-passed` when only `&&`-chained commands follow it (a failure could be theirs,
 * a success is also the tests'); `unrelated` after a pipe, `;` or `||`.
 */
export type ExitStatusMeaning = 'own' | 'zero-means-passed' | 'unrelated';

export interface TestCommandMatch {
  /** The chained command that runs the tests, as written. */
  segment: string;
  exitStatus: ExitStatusMeaning;
  /**
   * Why what the tool returned cannot show that the tests passed: their output was filtered or sent
   * elsewhere, their failure was turned into success, or something printed after them.
   */
  distrust?: string;
}

const ANY: RegExp = /^/;
const PACKAGE_SCRIPTS: readonly RegExp[] = [
  /^\S+\s+(?:run\s+)?(?:test|t|e2e|unit|integration)(?::[\w:.-]+)?(?=\s|$)/,
  /^\S+\s+run\s+[\w:.-]*test[\w:.-]*(?=\s|$)/,
];

/**
 * Known runners, by the first word of the command (after wrappers are taken off). Looking up the word
 * first means one or two small expressions run per command, not thirty: this is on the hot path.
 */
const RUNNERS: ReadonlyMap<string, readonly RegExp[]> = new Map<string, readonly RegExp[]>([
  ['npm', PACKAGE_SCRIPTS],
  ['pnpm', PACKAGE_SCRIPTS],
  ['yarn', PACKAGE_SCRIPTS],
  ['bun', [...PACKAGE_SCRIPTS, /^bun\s+test(?=\s|$)/]],
  ['go', [/^go\s+test(?=\s|$)/]],
  ['cargo', [/^cargo\s+(?:test|nextest\s+run)(?=\s|$)/]],
  ['dotnet', [/^dotnet\s+test(?=\s|$)/]],
  ['node', [/\s--test(?=\s|$)/]],
  ['cypress', [/^cypress\s+run(?=\s|$)/]],
  ['playwright', [/^playwright\s+test(?=\s|$)/]],
  ['ruby', [/test.*\.rb(?=\s|$)/]],
  ['deno', [/^deno\s+test(?=\s|$)/]],
  ['karma', [/^karma\s+start(?=\s|$)/]],
  ['swift', [/^swift\s+test(?=\s|$)/]],
  ['make', [/^make\s+(?:test|check)(?=\s|$)/]],
  ...['mvn', './mvnw', 'mvnw'].map((word): [string, RegExp[]] => [word, [/\s(?:test|verify)(?=\s|$)/]]),
  ...['gradle', './gradlew', 'gradlew'].map((word): [string, RegExp[]] => [word, [/\s(?:test|check)(?=\s|$)/]]),
  ...['rails', 'rake'].map((word): [string, RegExp[]] => [word, [/^\S+\s+test(?=\s|$)/]]),
  ...['python', 'python3'].map((word): [string, RegExp[]] => [word, [/^\S+\s+-m\s+unittest(?=\s|$)/]]),
  ...['pytest', 'py.test', 'jest', 'mocha', 'vitest', 'ava', 'tap', 'uvu', 'tape', 'jasmine', 'bats', 'phpunit', 'rspec', 'pest', 'tox', 'nox'].map(
    (word): [string, RegExp[]] => [word, [ANY]],
  ),
]);

const ENV_ASSIGNMENTS = /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+)+/;
const BIN_PATH = /^(?:\.\/)?(?:node_modules\/\.bin|vendor\/bin|bin)\//;

/** Wrappers that run a runner, by their first word: taken off the front until none is left. */
const WRAPPERS: ReadonlyMap<string, readonly RegExp[]> = new Map<string, readonly RegExp[]>([
  ...['time', 'env', 'nice', 'command', 'exec', 'sudo'].map((word): [string, RegExp[]] => [word, [/^\S+(?:\s+-\S+)*\s+/]]),
  ...['npx', 'bunx', 'pnpx'].map((word): [string, RegExp[]] => [word, [/^\S+(?:\s+--?\S+)*\s+/]]),
  ['pnpm', [/^\S+\s+(?:exec|dlx)(?:\s+--?\S+)*\s+(?:--\s+)?/]],
  ['npm', [/^\S+\s+(?:exec|dlx)(?:\s+--?\S+)*\s+(?:--\s+)?/]],
  ['yarn', [/^\S+\s+(?:exec|dlx)(?:\s+--?\S+)*\s+(?:--\s+)?/, /^yarn\s+(?=(?:jest|mocha|vitest|playwright|cypress)\b)/]],
  ['bun', [/^bun\s+x\s+/]],
  ...['uv', 'poetry', 'pipenv', 'hatch', 'pdm'].map((word): [string, RegExp[]] => [word, [/^\S+\s+run\s+/]]),
  ...['python', 'python3', 'py'].map((word): [string, RegExp[]] => [word, [/^\S+(?:\s+-\S+)*\s+-m\s+(?=pytest\b)/]]),
  ['bundle', [/^bundle\s+exec\s+/]],
  ['php', [/^php\s+/]],
]);

function firstWord(text: string): string {
  const space = text.search(/\s/);
  return space < 0 ? text : text.slice(0, space);
}

/** The command with wrappers, subshell parentheses and redirections taken off. */
export function strippedCommand(segment: string): string {
  let text = segment
    .trim()
    .replace(/^\(+\s*/, '')
    .replace(/\s*\)+$/, '');
  for (let round = 0; round < 8; round += 1) {
    const word = firstWord(text);
    const candidates = word.includes('=') ? [ENV_ASSIGNMENTS] : word.includes('/') ? [BIN_PATH] : (WRAPPERS.get(word) ?? []);
    const stripped = candidates.map((wrapper) => text.replace(wrapper, '')).find((next) => next !== text);
    if (stripped === undefined) break;
    text = stripped.trimStart();
  }
  return text
    .replace(/\s+\d?>>?\s*\S+/g, '')
    .replace(/\s+2>&1/g, '')
    .trim();
}

function isKnownRunner(stripped: string): boolean {
  return (RUNNERS.get(firstWord(stripped)) ?? []).some((pattern) => pattern.test(stripped));
}

function matchesConfigured(stripped: string, configured: readonly string[]): boolean {
  return configured.some((command) => {
    const wanted = strippedCommand(command);
    return wanted !== '' && (stripped === wanted || stripped.startsWith(`${wanted} `));
  });
}

/** A redirection of the runner's output (or its errors) anywhere but the terminal; `2>&1` keeps both in it. */
const OUTPUT_AWAY = /(?:^|\s)(?:[12]?>>?|&>>?)\s*(?!&1\b)\S/;

/** `tee FILE` passes everything through; it is a filter only when something reads from it in turn. */
const TEE_ONLY = /^tee(?:\s+-\S+)*(?:\s+[^|\s]+)*$/;

/** Options that make a runner answer without running a test (`pytest --version`, `jest --listTests`, `cargo test --no-run`). */
const INFO_ONLY = /\s(?:--version|--help|-h|--listTests|--list-tests|--collect-only|--co|--no-run|-list)(?=[\s=]|$)/;

/**
 * What makes a run's result unprovable from what the tool returned, or undefined. The runner's part of
 * the line is `parts[index]`.
 */
function distrustOf(parts: readonly { text: string; joinedBy: string }[], index: number): string | undefined {
  const part = parts[index]!;
  if (INFO_ONLY.test(strippedCommand(part.text))) return 'it only asks the runner for its version, its help or a list of tests, so no test ran';
  const unquoted = part.text.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""').replace(/\s2>&1\b/g, '');
  if (OUTPUT_AWAY.test(unquoted)) return 'its output was sent to a file';
  if (part.joinedBy === '&') return 'it was sent to the background';
  if (part.joinedBy === '||') return `its failure is turned into success (\`|| ${parts[index + 1]?.text ?? ''}\`)`;
  if (part.joinedBy === ';') return `\`${parts[index + 1]?.text ?? ''}\` runs after it, whatever its result, and may print or exit in its place`;
  if (part.joinedBy === '|') {
    const receiver = parts[index + 1];
    if (receiver && TEE_ONLY.test(strippedCommand(receiver.text)) && (receiver.joinedBy === '' || receiver.joinedBy === '&&')) return undefined;
    return `its output goes through \`${receiver?.text ?? ''}\``;
  }
  return undefined;
}

export function findTestCommand(line: string, configured: readonly string[] = []): TestCommandMatch | null {
  const parts = splitCommandLine(line);
  for (const [index, part] of parts.entries()) {
    const stripped = strippedCommand(part.text);
    if (!isKnownRunner(stripped) && !matchesConfigured(stripped, configured)) continue;
    const after = parts.slice(index + 1);
    const exitStatus: ExitStatusMeaning =
      after.length === 0 ? 'own' : [part, ...after.slice(0, -1)].every((p) => p.joinedBy === '&&') ? 'zero-means-passed' : 'unrelated';
    const distrust = distrustOf(parts, index);
    return { segment: part.text, exitStatus, ...(distrust ? { distrust } : {}) };
  }
  return null;
}
