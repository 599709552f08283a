// A project as `isdlc init --host codex` leaves it, a fingerprint of every file that keeps isdlc in place
// there, and a runner that sends Codex a list of attack routes in one session and says, route by route,
// what each changed: the scripted model takes a fingerprint each time Codex asks it for the next reply,
// which is after the previous call and isdlc's hooks around it have finished.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cli } from '../../helpers/project.js';
import type { CodexReply, CodexTurnContext, OutputItem } from './codex-mock-api.js';
import { say } from './codex-mock-api.js';
import { shell, spawnAgent, spawnedAgentId, waitAgent } from './codex-script.js';
import { codexProject, runCodex, type CodexProject, type CodexRun, type CodexRunOptions } from './codex-session.js';

export const STATE = '.isdlc/state.json';

/** A small Node project with one test. */
export const SUM_FILES: Readonly<Record<string, string>> = {
  'package.json': `${JSON.stringify({ name: 'sum', version: '1.0.0', private: true, scripts: { test: 'node --test', build: 'mkdir -p dist && cp sum.js dist/sum.js' } })}\n`,
  'sum.js': 'module.exports = (a, b) => a + b;\n',
  'test/sum.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst sum = require('../sum.js');\ntest('adds', () => assert.strictEqual(sum(1, 2), 3));\n",
};

/** A project set up by `isdlc init --host <hosts>` as a person does (git repository, trusted by Codex). */
export function isdlcProject(hosts = 'codex', files: Readonly<Record<string, string>> = SUM_FILES): CodexProject {
  const project = codexProject({ files: { ...files } });
  const run = cli(['init', project.dir, '--host', hosts, '--codex-version', '0.171.0']);
  if (run.status !== 0) throw new Error(run.stderr);
  return project;
}

/**
 * What isdlc itself writes while a session runs (its hooks and its MCP server, outside Codex's sandbox): the
 * state, the activity log, the journal of its writes, the branch heads, code caches beside its bundles, lock
 * and temporary files, and the loop store (its rows that matter are compared by what they say instead). A
 * version of a file the tamper check kept aside (`….rejected-<time>`) is not among them: it means a change
 * got through the wall.
 */
const WRITTEN_BY_ISDLC = [
  /^\.isdlc\/state\.json$/,
  /^\.isdlc\/hook-activity\.log(\.\d+)?$/,
  /^\.isdlc\/(journal|branch-heads)(\/|$)/,
  /^\.isdlc\/loop\.db(-wal|-shm|-journal)?$/,
  /\.cache$/,
  /\.lock$/,
  /(^|\/)\.[^/]*\.tmp$/,
];

/** The guarded paths of a project set up for Codex, and for Claude Code beside it. */
const GUARDED = ['.isdlc', '.codex', 'docs/isdlc', '.claude', '.mcp.json', '.git/config', '.git/hooks'];

function fingerprint(path: string, rel: string, into: Map<string, string>): void {
  if (WRITTEN_BY_ISDLC.some((pattern) => pattern.test(rel))) return;
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) {
    into.set(rel, 'absent');
    return;
  }
  const mode = (stats.mode & 0o7777).toString(8);
  if (stats.isSymbolicLink()) into.set(rel, `link -> ${readlinkSync(path)}`);
  else if (stats.isDirectory()) {
    // The inode too: a copy put in the folder's place is another folder.
    into.set(rel, `folder ${mode} ${stats.ino}`);
    for (const name of readdirSync(path).sort()) fingerprint(join(path, name), `${rel}/${name}`, into);
  } else {
    const digest = createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16);
    into.set(rel, `file ${mode} ${stats.ino} ${stats.mtimeMs} ${digest}`);
  }
}

/** What the loop a person started says (status, iteration), read without writing; undefined without sqlite3. */
function loopRow(dir: string, loopId: string | undefined): string | undefined {
  if (!loopId || !existsSync(join(dir, '.isdlc/loop.db'))) return undefined;
  try {
    return execFileSync('sqlite3', ['-readonly', join(dir, '.isdlc/loop.db'), `select status, iteration from loops where id = '${loopId}'`], {
      encoding: 'utf8',
    }).trim();
  } catch (error) {
    return `unreadable: ${(error as Error).message.split('\n')[0]}`;
  }
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** How many changes the journal has recorded (each one a change it undid or reported). */
function incidentCount(dir: string): number {
  const text = readIfThere(join(dir, '.isdlc/journal/index.json'));
  try {
    return text === undefined ? 0 : ((JSON.parse(text) as { incidents?: unknown[] }).incidents?.length ?? 0);
  } catch {
    return -1;
  }
}

/**
 * Every guarded file of the project, by path: content, mode, inode and modification time; each folder's mode
 * and inode; each link's target; the project folder and its parent (a copy in their place is a forgery); the
 * person's Codex config; and the row of the loop a person started. What isdlc writes
 * itself is left out, but for whether the state says FORGED and how many changes the journal has recorded
 * (a change that got through and was undone at the next hook call leaves one).
 */
export function guardedBytes(project: Pick<CodexProject, 'dir' | 'codexHome'>, loopId?: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of GUARDED) fingerprint(join(project.dir, rel), rel, out);
  out.set('(state says FORGED)', String(readIfThere(join(project.dir, STATE))?.includes('FORGED') ?? 'no state'));
  out.set('(journal incidents)', String(incidentCount(project.dir)));
  for (const [name, path] of [
    ['(project)', project.dir],
    ['(parent)', dirname(project.dir)],
  ] as const) {
    const stats = lstatSync(path, { throwIfNoEntry: false });
    out.set(name, stats ? `folder ${stats.ino}` : 'absent');
  }
  const personConfig = join(project.codexHome, 'config.toml');
  out.set('(codex home)/config.toml', createHash('sha256').update(readFileSync(personConfig)).digest('hex').slice(0, 16));
  const row = loopRow(project.dir, loopId);
  if (row !== undefined) out.set(`(loop ${loopId})`, row);
  return out;
}

/** The paths whose fingerprint differs between two snapshots (changed, new or gone). */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}

/** What `isdlc changes list --json` says: incidents the hooks recorded, and changes waiting on disk. */
export function journalChanges(dir: string): { incidents: unknown[]; pending: unknown[] } {
  const run = cli(['changes', 'list', '--json', '--dir', dir]);
  return JSON.parse(run.stdout) as { incidents: unknown[]; pending: unknown[] };
}

// --- routes ---------------------------------------------------------------------------------------------

/** What refuses a route in a project init set up. */
export type Layer =
  /** isdlc's permission profile in `.codex/config.toml` (Codex's sandbox applies it). */
  | 'profile'
  /** Codex on its own: `.git` and `.codex` read-only in every writable root, approval policy `never`, its command safety check. */
  | 'codex'
  /** isdlc itself: its MCP server (no such tool, a closed gate) and the OS sandbox it runs loop rules in. */
  | 'isdlc';

export interface RouteContext {
  project: CodexProject;
  /** The loop a person started before the session. */
  loopId: string;
  /** The outputs of this route's earlier steps, in order (each step's calls, in order). */
  earlier: string[];
  /** The outputs of the session's prelude calls, in order. */
  prelude: string[];
}

/** One reply's calls; a route of several steps sends them one reply after another. */
export type Step = (context: RouteContext) => OutputItem[];

export interface CodexRoute {
  id: string;
  /** The guarded thing it goes after. */
  target: string;
  how: string;
  layer: Layer;
  steps: Step[];
  /** When it gets through it takes the project with it: the control runs it in a project of its own. */
  destructive?: boolean;
  /** A program beyond a shell, coreutils, git, node and python3 that it runs (skipped where missing). */
  needs?: string;
  /**
   * Codex runs no hook after its calls (write_stdin; a patch typed into exec_command gets a PreToolUse
   * only), so what gets through is undone at the next hook call, not the route's own.
   */
  unhooked?: boolean;
}

export interface RouteResult {
  route: CodexRoute;
  origin: string;
  /** Guarded paths whose fingerprint moved while the route ran. */
  changed: string[];
  /** What the model read back, every call of the route. */
  outputs: string[];
}

/** Whether the program a route needs is on PATH. */
export function available(route: CodexRoute): boolean {
  if (!route.needs) return true;
  try {
    execFileSync('sh', ['-c', `command -v ${route.needs}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Played {
  route: CodexRoute;
  callIds: string[];
  changed: string[];
}

/**
 * The turns of a thread that plays `routes` in order, one step per reply, after `prelude` (calls that set
 * something up, such as an interactive shell) and before `coda` (calls that end it). Each route's changes
 * are what moved between the fingerprint taken when its first step was asked for and the one taken when
 * the reply after its last step was.
 */
function routeTurns(
  project: CodexProject,
  loopId: string,
  origin: string,
  routes: readonly CodexRoute[],
  played: Played[],
  prelude: Step[] = [],
  coda: Step[] = [],
): (context: CodexTurnContext) => CodexReply {
  const queue: { route?: CodexRoute; step: Step; index: number }[] = [
    ...prelude.map((step, index) => ({ step, index })),
    ...routes.flatMap((route) => route.steps.map((step, index) => ({ route, step, index }))),
    ...coda.map((step, index) => ({ step, index: prelude.length + index })),
  ];
  let next = 0;
  let current: { played: Played; before: Map<string, string> } | undefined;
  let preludeIds: string[] = [];
  return ({ api }) => {
    const now = guardedBytes(project, loopId);
    const item = queue[next++];
    if (current && (!item || !item.route || item.index === 0)) {
      current.played.changed = changedPaths(current.before, now);
      current = undefined;
    }
    if (!item) return say('Done.');
    const idsSoFar = item.route ? (current?.played.callIds ?? []) : preludeIds;
    const context: RouteContext = {
      project,
      loopId,
      earlier: idsSoFar.map((id) => api.output(id) ?? ''),
      prelude: preludeIds.map((id) => api.output(id) ?? ''),
    };
    const items = item.step(context).map((call, k) => ({ ...call, call_id: `${origin}-${item.route?.id ?? 'prelude'}-${item.index}-${k}` }));
    const ids = items.map((call) => call.call_id);
    if (!item.route) preludeIds = [...preludeIds, ...ids];
    else if (item.index === 0) {
      current = { played: { route: item.route, callIds: ids, changed: [] }, before: now };
      played.push(current.played);
    } else current!.played.callIds.push(...ids);
    return { items };
  };
}

export interface RouteRun {
  results: RouteResult[];
  run: CodexRun;
}

const SETTLE: Step = () => [shell('true')];

/** The model's first words to a subagent that plays routes. */
const SUBAGENT_PROMPT = 'ATTACK ROUTES: run each call you are given.';

/**
 * One Codex session playing `routes`: from the main agent (`origin: 'main'`), or from a subagent the main
 * agent starts and waits for (`'subagent'`). `prelude` runs first in the same thread.
 */
export async function playRoutes(
  project: CodexProject,
  loopId: string,
  routes: readonly CodexRoute[],
  options: {
    origin?: 'main' | 'subagent';
    prelude?: Step[];
    coda?: Step[];
    label?: string;
    run?: CodexRunOptions;
    /** Follow each unhooked route with a harmless call (for a run where routes get through). */
    settle?: boolean;
  } = {},
): Promise<RouteRun> {
  const origin = options.label ?? options.origin ?? 'main';
  const played: Played[] = [];
  // A harmless call after each route Codex runs no hook after: isdlc's hooks around it undo what got through
  // before the route's changes are taken, so they are counted as that route's, not the next one's.
  const settled = options.settle ? routes.map((route) => (route.unhooked ? { ...route, steps: [...route.steps, SETTLE] } : route)) : routes;
  const turns = routeTurns(project, loopId, origin, settled.filter(available), played, options.prelude, options.coda);
  const run =
    options.origin === 'subagent'
      ? await runCodex(project, {
          timeoutMs: 180_000,
          ...options.run,
          scripts: [
            { name: 'subagent', match: (prompt) => prompt.startsWith(SUBAGENT_PROMPT), after: turns },
            {
              name: 'main',
              turns: [
                { items: [{ ...spawnAgent(SUBAGENT_PROMPT), call_id: 'spawn-attacker' }] },
                ({ api }) => ({ items: [waitAgent([spawnedAgentId(api.output('spawn-attacker'))], 170_000)] }),
                say('Done.'),
              ],
            },
          ],
        })
      : await runCodex(project, { timeoutMs: 180_000, ...options.run, turns });
  const results = played.map(({ route, callIds, changed }) => ({
    route,
    origin,
    changed,
    outputs: callIds.slice(0, options.settle && route.unhooked ? -1 : undefined).map((id) => run.api.output(id) ?? '(no output)'),
  }));
  return { results, run };
}

/** The first line of what the model read that says why, for the report. */
export function refusal(result: RouteResult): string {
  const text = result.outputs.join('\n');
  const why =
    /Read-only file system|Device or resource busy|Operation not permitted|Permission denied|patch rejected[^\n]*|rejected:[^\n"]*|approval[^\n"]*|unknown tool[^\n]*|[^\n]*not found[^\n]*|refused[^\n]*|not one of[^\n]*/i.exec(
      text,
    );
  return (why?.[0] ?? text.replace(/\s+/g, ' ')).slice(0, 110);
}
