// Which shell commands run tests (seed 000 AC-IE-004). A command line is split into the commands it
// chains; each is stripped of what only wraps a runner (environment assignments, `npx`, `pnpm exec`,
// `python -m`, `bundle exec`, ...) and then compared with the known runners and the phase's own
// `test_commands`. Text that merely mentions a runner (`echo "npm test"`, `git commit -m "fix pytest"`)
// is not a test run.
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
}

/** Known runners, matched against the start of a stripped command. */
const RUNNER_PATTERNS: readonly RegExp[] = [
  /^(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:test|t)(?::[\w:.-]+)?(?=\s|$)/,
  /^(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:e2e|unit|integration)(?::[\w:.-]+)?(?=\s|$)/,
  /^(?:npm|pnpm|yarn|bun)\s+run\s+[\w:.-]*test[\w:.-]*(?=\s|$)/,
  /^(?:pytest|py\.test)(?=\s|$)/,
  /^go\s+test(?=\s|$)/,
  /^cargo\s+(?:test|nextest\s+run)(?=\s|$)/,
  /^(?:mvn|\.\/mvnw|mvnw)\b.*\s(?:test|verify)(?=\s|$)/,
  /^(?:gradle|\.\/gradlew|gradlew)\b.*\s(?:test|check)(?=\s|$)/,
  /^dotnet\s+test(?=\s|$)/,
  /^(?:jest|mocha|vitest|ava|tap|phpunit|rspec|pest)(?=\s|$)/,
  /^node\s+(?:[^|;&]*\s)?--test(?=\s|$)/,
  /^cypress\s+run(?=\s|$)/,
  /^playwright\s+test(?=\s|$)/,
  /^(?:rails|rake)\s+test(?=\s|$)/,
  /^ruby\s+.*test.*\.rb(?=\s|$)/,
  /^(?:tox|nox)(?=\s|$)/,
  /^(?:python|python3)\s+-m\s+unittest(?=\s|$)/,
  /^deno\s+test(?=\s|$)/,
  /^bun\s+test(?=\s|$)/,
  /^swift\s+test(?=\s|$)/,
  /^make\s+(?:test|check)(?=\s|$)/,
];

/** Wrappers that run a runner: removed from the front until none is left. */
const WRAPPERS: readonly RegExp[] = [
  /^(?:[A-Za-z_][A-Za-z0-9_]*=(?:"[^"]*"|'[^']*'|\S*)\s+)+/, // CI=1 NODE_ENV=test ...
  /^(?:time|env|nice|command|exec|sudo(?:\s+-\S+)*)\s+/,
  /^(?:npx|bunx|pnpx)(?:\s+--?\S+)*\s+/,
  /^(?:pnpm|yarn|npm)\s+(?:exec|dlx)(?:\s+--?\S+)*\s+(?:--\s+)?/,
  /^bun\s+x\s+/,
  /^yarn\s+(?=(?:jest|mocha|vitest|playwright|cypress)\b)/,
  /^(?:uv|poetry|pipenv|hatch|pdm)\s+run\s+/,
  /^(?:python|python3|py)(?:\s+-\S+)*\s+-m\s+(?=pytest\b)/,
  /^bundle\s+exec\s+/,
  /^php\s+/,
  /^(?:\.\/)?(?:node_modules\/\.bin|vendor\/bin|bin)\//,
];

/** The command with wrappers, subshell parentheses and redirections taken off. */
export function strippedCommand(segment: string): string {
  let text = segment.trim().replace(/^\(+\s*/, '').replace(/\s*\)+$/, '');
  for (let changed = true; changed; ) {
    changed = false;
    for (const wrapper of WRAPPERS) {
      const next = text.replace(wrapper, '');
      if (next !== text) {
        text = next.trimStart();
        changed = true;
      }
    }
  }
  return text.replace(/\s+\d?>>?\s*\S+/g, '').replace(/\s+2>&1/g, '').trim();
}

function matchesConfigured(stripped: string, configured: readonly string[]): boolean {
  return configured.some((command) => {
    const wanted = strippedCommand(command);
    return wanted !== '' && (stripped === wanted || stripped.startsWith(`${wanted} `));
  });
}

export function findTestCommand(line: string, configured: readonly string[] = []): TestCommandMatch | null {
  const parts = splitCommandLine(line);
  for (const [index, part] of parts.entries()) {
    const stripped = strippedCommand(part.text);
    if (!RUNNER_PATTERNS.some((pattern) => pattern.test(stripped)) && !matchesConfigured(stripped, configured)) continue;
    const after = parts.slice(index + 1);
    const exitStatus: ExitStatusMeaning =
      after.length === 0 ? 'own' : [part, ...after.slice(0, -1)].every((p) => p.joinedBy === '&&') ? 'zero-means-passed' : 'unrelated';
    return { segment: part.text, exitStatus };
  }
  return null;
}
