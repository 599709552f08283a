// Runners that speak TAP: node-tap (its own summary line under any of its reporters), and any other TAP
// stream (tape, bats, `ava --tap`, `mocha --reporter tap`, vitest's tap reporter), counted from its points
// when the whole stream is in view, else from the counts its producer prints at the end. Bats' own
// formatter is here too: it prints its TAP as a list.
import { counts, lastMatch, names, summary, unique, type Parser } from './runner-summary.js';

interface TapPoint {
  ok: boolean;
  indent: number;
  name: string;
  directive?: 'skip' | 'todo';
  /** The point closes a subtest whose own points came before it: it is not a test of its own. */
  parent: boolean;
  /** The subtests (and tape's `# name` headers) it is inside, outermost first. */
  path: string[];
  /** The `# name` header it follows at the top level (tape names its tests so, and numbers their assertions). */
  group?: string;
}

interface TapStream {
  points: TapPoint[];
  /** The last plan at the top level (`1..N`), if any. */
  plan?: number;
  /** `Bail out!`: the producer stopped the run. */
  bailedOut?: string;
  /** The counts its producer printed as comments at the end (`# pass 3`, `# fail 2`). */
  comments: Record<string, number>;
}

const POINT = /^(\s*)(not ok|ok)\b(?:[ \t]+\d+)?(?:[ \t]+-)?[ \t]*(.*)$/;
const DIRECTIVE = /\s+#\s*(SKIP|TODO)\b\S*(?:\s.*)?$/i;
const COUNT_COMMENT = /^#\s+(tests|pass|fail|skip|skipped|todo)\s+(\d+)\s*$/;
/** Comments that are no header of a test: counts, node-tap's timings and summary, tape's last word. */
const NOT_A_HEADER = /^#\s+(?:(?:tests|pass|fail|skip|skipped|todo|suites|cancelled|duration_ms)\s+\d|time=|\{|ok\s*$|Subtest:|\(in test file|No coverage)/;
/** A subtest named by its file (node-tap runs one per test file): not part of a test's name. */
const FILE_NAME = /(?:^|\/)[\w.@-]+\.(?:[cm]?[jt]sx?|bats)$/;

export function readTap(text: string): TapStream {
  const points: TapPoint[] = [];
  const headers: { indent: number; name: string }[] = [];
  const comments: Record<string, number> = {};
  let group: string | undefined;
  let plan: number | undefined;
  let bailedOut: string | undefined;
  let yamlIndent = -1;
  // Bats prints what a failing test said as comments after its point: no header of the next test.
  let diagnostics = false;
  for (const line of text.split('\n')) {
    const indent = /^\s*/.exec(line)![0].length;
    const body = line.trim();
    if (yamlIndent >= 0) {
      if (body === '...' && indent <= yamlIndent) yamlIndent = -1;
      diagnostics = false;
      continue;
    }
    if (body === '---') {
      yamlIndent = indent;
      continue;
    }
    const point = POINT.exec(line);
    if (point) {
      const raw = point[3]!.replace(/\s+# time=[\d.]+m?s\s*$/, '');
      const directive = DIRECTIVE.exec(raw);
      const name = (directive ? raw.slice(0, directive.index) : raw).trim();
      const previous = points.at(-1);
      const path = [...(indent === 0 && group ? [group] : []), ...headers.filter((h) => h.indent < indent).map((h) => h.name)];
      points.push({
        ok: point[2] === 'ok',
        indent,
        name,
        ...(directive ? { directive: directive[1]!.toLowerCase() as 'skip' | 'todo' } : {}),
        parent: previous !== undefined && previous.indent > indent,
        path,
        ...(indent === 0 && group ? { group } : {}),
      });
      // The subtest this point closes, and any deeper ones, are over.
      for (let i = headers.length - 1; i >= 0 && headers[i]!.indent >= indent; i -= 1) headers.pop();
      diagnostics = point[2] !== 'ok';
      continue;
    }
    const subtest = /^# Subtest: (.+)$/.exec(body);
    if (subtest) {
      while (headers.length > 0 && headers.at(-1)!.indent >= indent) headers.pop();
      headers.push({ indent, name: subtest[1]!.trim() });
      continue;
    }
    const planned = /^1\.\.(\d+)\b/.exec(body);
    if (planned && indent === 0) {
      plan = Number(planned[1]);
      continue;
    }
    const bail = /^Bail out!\s*(.*)$/.exec(body);
    if (bail) {
      bailedOut = bail[1] || 'the run was stopped';
      continue;
    }
    const count = indent === 0 ? COUNT_COMMENT.exec(body) : null;
    if (count) {
      comments[count[1]!] = Number(count[2]);
      continue;
    }
    if (indent === 0 && /^# \S/.test(body) && !diagnostics && !NOT_A_HEADER.test(body)) group = body.replace(/^#\s*(?:TODO\s+)?/, '').trim() || undefined;
  }
  return { points, ...(plan !== undefined ? { plan } : {}), ...(bailedOut ? { bailedOut } : {}), comments };
}

/** A point's name with what holds it, less the test files node-tap names its top subtests after. */
function fullName(point: TapPoint): string {
  return [...point.path.filter((part) => !FILE_NAME.test(part)), point.name].filter(Boolean).join(' > ');
}

/** The failing and skipped tests a stream names: its leaves, not the subtests that hold them. */
export function tapNames(stream: TapStream): { failingTests: string[]; skippedTests: string[] } {
  const leaves = stream.points.filter((point) => !point.parent);
  return {
    failingTests: unique(leaves.filter((point) => !point.ok && point.directive !== 'todo').map(fullName)),
    skippedTests: unique(leaves.filter((point) => point.directive !== undefined).map(fullName)),
  };
}

/** node-tap: `# { total: 5, pass: 3, fail: 2 }` after the run, whichever reporter printed the rest. */
export const nodeTap: Parser = (text, end) => {
  const line = lastMatch(end, /^# \{ total: (\d+)((?:, \w+: \d+)*) \}\s*$/m);
  const asserts = line ? undefined : lastMatch(end, /^Asserts:[ \t]+(.*\bcomplete)\s*$/m);
  if (!line && !asserts) return null;
  const c: Record<string, number> = {};
  if (line) for (const match of line[2]!.matchAll(/(\w+): (\d+)/g)) c[match[1]!] = Number(match[2]);
  else Object.assign(c, counts(asserts![1]!));
  const total = line ? Number(line[1]) : (c['complete'] ?? 0);
  const stream = readTap(text);
  const named = stream.points.length > 0 ? tapNames(stream) : { failingTests: baseReporterFailures(text), skippedTests: [] };
  const result = summary('node-tap', {
    passed: c['pass'] ?? 0,
    failed: c['fail'] ?? 0,
    skipped: (c['skip'] ?? 0) + (c['todo'] ?? 0),
    ...named,
  });
  if (total === 0) result.couldNotRun = 'no tests ran';
  return result;
};

/** node-tap's base and terse reporters: `✖ greet > greets a user by name`. */
function baseReporterFailures(text: string): string[] {
  return names(text, /^\u2716 (.+?)\s*$/gm);
}

/**
 * Any other TAP stream: the top-level plan says how many points the stream holds; when all of them are in
 * view the leaves are counted as TAP reads them (`not ok # TODO` is no failure), else the producer's own
 * `# pass` and `# fail`.
 */
export const tapStream: Parser = (text) => {
  const stream = readTap(text);
  if (stream.plan === undefined) return null;
  const top = stream.points.filter((point) => point.indent === 0);
  const leaves = stream.points.filter((point) => !point.parent);
  const complete = top.length === stream.plan && (top.length > 0 || stream.points.length === 0);
  const c = stream.comments;
  if (!complete && c['pass'] === undefined) return null;
  const named = tapNames(stream);
  const todoFailures = leaves.filter((point) => !point.ok && point.directive === 'todo').length;
  const result = complete
    ? summary('tap', {
        passed: leaves.filter((point) => point.ok && !point.directive).length,
        failed: leaves.filter((point) => !point.ok && point.directive !== 'todo').length,
        skipped: leaves.filter((point) => point.directive).length,
        ...named,
      })
    : summary('tap', {
        passed: c['pass'] ?? 0,
        failed: Math.max(0, (c['fail'] ?? 0) - todoFailures),
        skipped: (c['skip'] ?? c['skipped'] ?? 0) + (c['todo'] ?? 0),
        ...named,
      });
  if (stream.plan === 0 && result.failed > 0) result.couldNotRun = 'a test file failed to load';
  else if (stream.plan === 0 && stream.points.length === 0) result.couldNotRun = 'no tests ran';
  if (stream.bailedOut) {
    result.errors += 1;
    if (result.passed + result.failed === 0) result.couldNotRun = `the run bailed out (${stream.bailedOut})`;
  }
  return result;
};

/** Bats' own formatter (a terminal's default): `4 tests, 1 failure, 1 skipped`. */
export const batsPretty: Parser = (text, end) => {
  const line = lastMatch(end, /^(\d+) tests?, (\d+) failures?(?:, (\d+) skipped)?(?:, (\d+) not run)?\s*$/m);
  if (!line) return null;
  const [tests, failures, skipped, notRun] = [Number(line[1]), Number(line[2]), Number(line[3] ?? 0), Number(line[4] ?? 0)];
  return summary('bats', {
    passed: tests - failures - skipped - notRun,
    failed: failures,
    skipped: skipped + notRun,
    // The formatter moves the cursor back over each line: once the codes are gone, the name follows its progress.
    failingTests: names(text, /(?:^|\s)\u2717 (.+?)\s*$/gm),
    skippedTests: names(text, /(?:^|\s)- (.+?) \(skipped(?::[^)]*)?\)\s*$/gm),
  });
};
