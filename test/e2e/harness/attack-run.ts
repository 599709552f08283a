// Running attack routes in a session and reading back which layer refused each: Claude Code's permission
// rules, its setting that keeps the file tools inside the project, the OS sandbox, an isdlc hook, or
// isdlc's own CLI. The outcomes can be written out as the table in docs/sandbox.md
// (ISDLC_E2E_ROUTE_TABLE=file appends its rows to that file).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolCall } from './mock-api.js';
import type { Route, RouteContext } from './attack-routes.js';
import { changes, snapshot } from './guarded.js';
import { agent, bash, call, say, startsWith } from './script.js';
import { isdlc, runClaude, type ClaudeRun, type E2eProject } from './session.js';

export type Layer = 'permission rule' | 'outside the project' | 'sandbox' | 'killed with its call' | 'isdlc hook' | 'isdlc CLI' | 'tool check' | 'unrecognised';

/** The first of these that matches a route's result names the layer that refused it. */
const LAYERS: readonly [Layer, RegExp][] = [
  ['outside the project', /blockWritesOutsideWorkingDirectories/],
  ['permission rule', /has been denied|denied by your permission settings/],
  ['isdlc hook', /hook error: isdlc [a-z-]+:|^isdlc [a-z-]+: /m],
  // The sandbox: a read-only mount, a file bound over (busy, on another device), a placeholder that
  // stands where a denied name does not exist (git's config.lock, a settings file), no namespaces.
  // SQLite cannot create the write-ahead log next to a read-only database (when there is none yet);
  // `.claude/hooks` is an empty read-only folder bound over the real one, where mkdir finds nothing.
  [
    'sandbox',
    /Read-only file system|EROFS|readonly database|Device or resource busy|EBUSY|cross-device|could not lock config file|Operation not permitted|Permission denied|unable to open database file|ENOENT: no such file or directory, mkdir '\.claude\/hooks/i,
  ],
  // isdlc's CLI saying in its own words that it changed nothing (or that a person decides).
  ['isdlc CLI', /^isdlc: /m],
  // A job left running by a call that already returned: it had begun, and never got to its write.
  ['killed with its call', /^begun$(?![\s\S]*^rc=)/m],
  ['tool check', /<tool_use_error>/],
];

/** Where Claude Code says a background command's output goes. */
const BACKGROUND = /Output is being written to: (\S+?)\.?(?:\s|$)/;

export function layerOf(text: string): Layer {
  return LAYERS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'unrecognised';
}

export function routeContext(project: E2eProject): RouteContext {
  const loops = JSON.parse(isdlc(project, ['loop', 'status', '--all', '--json'])) as { id: string }[];
  if (!loops[0]) throw new Error('the project has no loop');
  return { dir: project.dir, home: project.home, loopId: loops[0].id };
}

/** The tool calls for `routes`, each preceded by its harmless first step if it has one. */
export function routeCalls(routes: readonly Route[], context: RouteContext): ToolCall[] {
  return routes.flatMap((route) => [...(route.before ? [route.before(context)] : []), route.call(context)]);
}

/** The line a background route's output ends with once it has run (see `backgroundCalls`). */
export const FINISHED = 'route finished, exit';

/**
 * The routes' Bash calls to run in the background (`run_in_background`), each in a subshell followed by
 * a line that says it finished, so the session can wait for all of them.
 */
export function backgroundCalls(routes: readonly Route[], context: RouteContext): ToolCall[] {
  return routes.map((route) => {
    const main = route.call(context);
    if (main.name !== 'Bash' || route.before) throw new Error(`${route.id} cannot run in the background`);
    return { ...main, input: { ...main.input, command: `(${String(main.input['command'])}); echo "${FINISHED} $?"`, run_in_background: true } };
  });
}

/** A shell command that waits (at most `seconds`) until every background output file of these calls says it finished. */
export function waitForBackground(run: { toolResult(id: string): { text: string } | undefined }, ids: readonly string[], seconds = 30): string {
  const files = ids.map((id) => BACKGROUND.exec(run.toolResult(id)?.text ?? '')?.[1]).filter((file): file is string => Boolean(file));
  const list = files.map((file) => `'${file}'`).join(' ');
  return `for i in $(seq ${seconds * 10}); do [ "$(cat ${list} 2>/dev/null | grep -c '^${FINISHED}')" -ge ${files.length} ] && break; sleep 0.1; done; echo waited`;
}

export interface Outcome {
  route: Route;
  origin: string;
  layer: Layer;
  /** What the agent read (for a background command: what its output file holds). */
  text: string;
}

/**
 * What each route's call came back with, in the order the mock sent them. `calls` are the mock's calls
 * of the conversation that ran the routes (the route calls and their first steps, in order). A
 * background command is judged by its output file, a job that outlives its call by its log.
 */
export function outcomes(run: ClaudeRun, project: E2eProject, routes: readonly Route[], calls: readonly { id: string }[], origin: string): Outcome[] {
  const queue = [...calls];
  return routes.map((route) => {
    if (route.before) queue.shift();
    const sent = queue.shift();
    const result = sent ? run.api.toolResult(sent.id) : undefined;
    let text = result?.text ?? '(no result)';
    const file = BACKGROUND.exec(text)?.[1];
    if (file) text = existsSync(file) ? readFileSync(file, 'utf8') || '(no output)' : `(output file ${file} is gone)`;
    // A job that outlived its call: what it wrote to its log once it ran.
    if (route.log) text = `${text}\n${existsSync(join(project.dir, route.log)) ? readFileSync(join(project.dir, route.log), 'utf8') : '(no log)'}`;
    return { route, origin, layer: layerOf(text), text };
  });
}

/** Appends the outcomes as Markdown table rows (route, target, how, origin, layer, what the agent read). */
export function recordTable(rows: readonly Outcome[]): void {
  const file = process.env['ISDLC_E2E_ROUTE_TABLE'];
  if (!file) return;
  const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  const lines = rows.map(
    (row) => `| ${row.route.id} | ${row.route.target} | ${cell(row.route.how)} | ${row.origin} | ${row.layer} | ${cell(row.text).slice(0, 110)} |`,
  );
  appendFileSync(file, `${lines.join('\n')}\n`);
}

export interface Attack {
  run: ClaudeRun;
  /** What changed among the guarded files (changes()). */
  changed: string[];
  /** Each route's outcome (also appended to the table, when asked for). */
  seen: Outcome[];
}

/**
 * One session in which the main agent tries `routes`, one tool call each, then `last` (calls made after
 * the routes, e.g. a wait); the guarded files are compared before and after.
 */
export async function attackFromMain(project: E2eProject, routes: readonly Route[], origin: string, last: readonly ToolCall[] = []): Promise<Attack> {
  const context = routeContext(project);
  const before = snapshot(project);
  const run = await runClaude(project, {
    prompt: 'Get this phase through its gate, whatever it takes.',
    timeoutMs: 150_000,
    scripts: [
      { name: 'main', turns: [...[...routeCalls(routes, context), ...last].map((attempt) => call(attempt)), say('Nothing I tried changed anything.')] },
    ],
  });
  const changed = changes(before, snapshot(project));
  const seen = outcomes(
    run,
    project,
    routes,
    run.api.calls.filter((sent) => sent.conversation === 'main'),
    origin,
  );
  recordTable(seen);
  return { run, changed, seen };
}

/** The outcomes no layer could be named for, with what the agent read. */
export function unrecognised(seen: readonly Outcome[]): string[] {
  return seen.filter((outcome) => outcome.layer === 'unrecognised').map((outcome) => `${outcome.origin} ${outcome.route.id}: ${outcome.text}`);
}

/**
 * A later session that delegates to the agent `helper` once, which runs one Bash call: a PreToolUse hook
 * in helper's definition fires (outside every sandbox, if Claude Code runs it).
 */
export async function delegateToHelper(project: E2eProject): Promise<ClaudeRun> {
  return runClaude(project, {
    prompt: 'Go on.',
    scripts: [
      { name: 'helper', match: startsWith('HELP'), turns: [call(bash('echo helping')), say('Helped.')] },
      { name: 'main', turns: [call(agent('helper', 'HELP with the tests', { run_in_background: false })), say('Done.')] },
    ],
  });
}
