// `isdlc loop start|status|cancel|claim|approve` and `isdlc mcp`: iteration loops from the command line, and
// the MCP server that gives agents the loop's tools.
import { AGENT_DEFINITION_DIRS, agentShellHost } from '../hosts/index.js';
import { Option, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { AgentDefaultsError } from '../loop/agent-defaults.js';
import { loadLoop } from '../loop/load.js';
import type { Loop, LoopStore, Task } from '../loop/api.js';
import { startTaskLoop, type TaskLoopRequest } from '../loop/task-loop.js';
import { dirOption, io, json, projectLocation, refuseInsideAgent, UsageError, type LocationOptions } from './shared.js';

interface StartOptions extends LocationOptions {
  agent?: string;
  maxIterations?: string;
  circuitBreaker?: string;
  rule?: string[];
  promise?: string;
  session?: string;
  json?: boolean;
}

function positiveInteger(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UsageError(`${flag} needs a whole number of at least 1, not "${text}"`);
  return Number(text);
}

/** Runs `work` on the project's loop store, turning the store's refusals into one-line errors. */
function withStore<T>(options: LocationOptions, work: (store: LoopStore) => T, access: { readonly?: boolean } = {}): T {
  const loop = loadLoop();
  const location = projectLocation(options);
  let store: LoopStore;
  try {
    if (access.readonly && !existsSync(join(location.isdlcDir, 'loop.db'))) throw new LoopCommandError('no loop has been started in this project yet');
    // Reading needs no write access: it works in the agent's shell too, where .isdlc/ is read-only.
    store = loop.LoopStore.open(location.isdlcDir, access.readonly ? { readonly: true } : {});
  } catch (error) {
    if (error instanceof loop.LoopDbError) throw new LoopCommandError(error.message);
    throw error;
  }
  try {
    return work(store);
  } catch (error) {
    if (error instanceof loop.LoopStoreError || error instanceof loop.LoopConfigError) throw new LoopCommandError(error.message);
    throw error;
  } finally {
    store.close();
  }
}

/** The loop store refused: exit 1 with its reason. */
export class LoopCommandError extends Error {}

/** The person running this command, for the record of who started or approved a loop. */
function whoAmI(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env['USER'] ?? process.env['USERNAME'] ?? 'unknown user';
  }
}

function describeLoop(store: LoopStore, loop: Loop): string {
  const task = store.task(loop.taskId);
  const api = loadLoop();
  const lines = [
    `${loop.id}  ${loop.status.padEnd(9)}  iteration ${loop.iteration} of ${loop.config.maxIterations}  task ${task.id} "${task.title}"`,
    `  bound to: ${loop.sessionId ? `session ${loop.sessionId}${loop.agentId ? `, subagent ${loop.agentId}${loop.agentType ? ` (${loop.agentType})` : ''}` : ''}` : 'no session yet (the agent claims it with `isdlc loop claim`)'}`,
    `  rules: ${loop.config.validationRules.map((rule) => rule.name).join(', ') || 'none (the promise alone ends it)'}; circuit breaker after ${loop.config.circuitBreakerThreshold} failed iterations in a row`,
    `  started ${loop.startedAt} by ${loop.rulesSetBy === 'person' ? 'a person' : 'the agent'}, last change ${loop.updatedAt}`,
  ];
  // The agent's shell may sit in its host's sandbox, where no sandbox of isdlc's own can start: there
  // it cannot tell what the hooks, outside it, will find.
  const commandRules = loop.status === 'active' ? api.commandRulesStatus(loop, api.ruleSandbox(), agentShellHost(process.env) !== undefined) : undefined;
  if (commandRules) lines.push(`  ${commandRules}`);
  // The held Stop's reason is kept short and points here: the whole task and the last failure's output.
  const prompt = (loop.config.prompt ?? task.description ?? '').trim();
  if (prompt !== '' && prompt !== task.title) lines.push('  task:', ...prompt.split('\n').map((line) => `    ${line}`));
  const history = store.history(loop.id);
  for (const record of history) {
    if (record.validatedAt === null) continue;
    lines.push(
      `  ${String(record.iteration).padStart(3)}: ${record.passed ? 'passed' : 'failed'}  score ${record.score}  ${record.signal ?? ''}  (${record.validatedBy})`,
    );
  }
  const lastValidated = history.filter((record) => record.validatedAt !== null).at(-1);
  if (lastValidated?.passed === false && lastValidated.report) {
    lines.push(`  failing at iteration ${lastValidated.iteration}:`, ...api.failingLines(lastValidated.report).map((line) => `  ${line}`));
  }
  if (loop.endReason) lines.push(`  ended: ${loop.endReason}`);
  return `${lines.join('\n')}\n`;
}

export interface RunningLoop {
  id: string;
  taskTitle: string;
  iteration: number;
  maxIterations: number;
  boundTo: string | null;
}

/** The running loops for `isdlc status`: none when the project never had one; SQLite loads only if it did. */
export function runningLoops(isdlcDir: string): { loops: RunningLoop[]; problem?: string } {
  if (!existsSync(join(isdlcDir, 'loop.db'))) return { loops: [] };
  try {
    const store = loadLoop().LoopStore.open(isdlcDir, { readonly: true });
    try {
      return {
        loops: store.loops({ activeOnly: true }).map((item) => ({
          id: item.id,
          taskTitle: store.task(item.taskId).title,
          iteration: item.iteration,
          maxIterations: item.config.maxIterations,
          boundTo: item.sessionId,
        })),
      };
    } finally {
      store.close();
    }
  } catch (error) {
    return { loops: [], problem: (error as Error).message.split('\n')[0]! };
  }
}

export function runningLoopLines(running: { loops: RunningLoop[]; problem?: string }): string[] {
  if (running.problem) return [`Loops: ${running.problem}`];
  return running.loops.map(
    (item) =>
      `Loop ${item.id} running: "${item.taskTitle}", iteration ${item.iteration} of ${item.maxIterations}, ${item.boundTo ? `held to session ${item.boundTo}` : 'not claimed by a session'} (isdlc loop status)`,
  );
}

export function registerLoopCommands(program: Command): void {
  const loop = program.command('loop').description('iteration loops: an agent works until validation passes with a completion promise');

  loop
    .command('start')
    .description('start a loop on a new task; the session that runs this command (or `loop claim`) is held to it')
    .argument('<prompt...>', 'the task, repeated to the agent at every iteration')
    .option(
      '--agent <name>',
      `take defaults from the agent's phase (its test_iteration in iteration-requirements.json), or from an iteration: section in its definition (${AGENT_DEFINITION_DIRS.map((dir) => `${dir}/<name>.md`).join(', ')})`,
    )
    .option('--max-iterations <n>', "at most this many iterations (default 10, or the agent's; at most 100)")
    .option('--circuit-breaker <n>', 'hand the loop to a person after this many failed iterations in a row (default 3)')
    .addOption(
      new Option('--rule <command>', "a command that must exit 0 (repeatable; replaces the agent's rules)").argParser(
        (value: string, previous: string[] = []) => [...previous, value],
      ),
    )
    .option('--promise <text>', 'the completion promise text (default COMPLETE): the agent ends with <promise>TEXT</promise>')
    .option('--session <id>', "bind to this agent session's id now, instead of on the next claim")
    .addOption(dirOption())
    .option('--json', 'print the loop as JSON')
    .action((words: string[], options: StartOptions) => {
      const prompt = words.join(' ').trim();
      if (prompt === '') throw new UsageError('say what the task is: isdlc loop start "make the login tests pass"');
      const location = projectLocation(options);
      const request: TaskLoopRequest = { prompt };
      if (options.agent) request.agent = options.agent;
      const max = positiveInteger(options.maxIterations, '--max-iterations');
      if (max !== undefined) request.maxIterations = max;
      const breaker = positiveInteger(options.circuitBreaker, '--circuit-breaker');
      if (breaker !== undefined) request.circuitBreaker = breaker;
      if (options.rule?.length) request.rules = options.rule;
      if (options.promise) request.promise = options.promise;
      if (options.session) request.sessionId = options.session;
      // In the agent's shell (its host says so in the environment) the rules are the agent's; in a person's terminal, theirs.
      const agentHost = agentShellHost(process.env);
      request.rulesSetBy = agentHost ? { by: 'agent' } : { by: 'person', who: `${whoAmI()} (isdlc loop start in a terminal)` };

      const api = loadLoop();
      withStore({ ...options, dir: location.root }, (store) => {
        let made: { task: Task; loop: Loop };
        try {
          made = startTaskLoop(store, { ...location, agentDirs: AGENT_DEFINITION_DIRS }, request);
        } catch (error) {
          if (error instanceof AgentDefaultsError) throw new UsageError(error.message);
          throw error;
        }
        const { task, loop: started } = made;
        if (options.json) {
          io.out(json({ loop: started, task, marker: started.sessionId ? undefined : api.markerFor(started.id) }));
          return;
        }
        io.out(describeLoop(store, started));
        if (started.config.validationRules.length === 0)
          io.out('  note: no rules, so only the completion promise decides; add --rule "npm test" to check the work.\n');
        if (!started.sessionId) {
          // Inside the agent's shell the PostToolUse hook of this very call reads the marker and binds the loop.
          if (agentHost) io.out(`This ${agentHost.hook.name} session owns the loop once this command returns.\n${api.markerFor(started.id)}\n`);
          else io.out(`No session owns it yet, so it holds nobody: ask the agent to run \`node .isdlc/bin/isdlc.cjs loop claim ${started.id}\`.\n`);
        }
      });
    });

  loop
    .command('claim')
    .description('print the marker that binds a loop nobody owns to the agent session running this command')
    .argument('<loop-id>')
    .addOption(dirOption())
    .action((loopId: string, options: LocationOptions) => {
      const api = loadLoop();
      withStore(
        options,
        (store) => {
          const found = store.loop(loopId);
          if (found.status !== 'active') throw new LoopCommandError(`loop ${found.id} has ended (${found.status})`);
          if (found.sessionId) throw new LoopCommandError(`loop ${found.id} already belongs to session ${found.sessionId}`);
          io.out(`${api.markerFor(found.id)}\n`);
        },
        { readonly: true },
      );
    });

  loop
    .command('status')
    .description('the running loops and the latest ended ones, with their iteration history')
    .option('--all', 'also list ended loops (the latest 20)')
    .addOption(dirOption())
    .option('--json', 'print as JSON')
    .action((options: LocationOptions & { all?: boolean; json?: boolean }) => {
      if (!existsSync(join(projectLocation(options).isdlcDir, 'loop.db'))) {
        io.out(options.json ? json([]) : 'No loops yet.\n');
        return;
      }
      withStore(
        options,
        (store) => {
          const loops = store.loops({ activeOnly: !options.all });
          if (options.json) {
            io.out(json(loops.map((item) => ({ ...item, task: store.task(item.taskId), history: store.history(item.id) }))));
            return;
          }
          if (loops.length === 0) {
            io.out(options.all ? 'No loops yet.\n' : 'No loop is running (`isdlc loop status --all` lists ended ones).\n');
            return;
          }
          for (const item of loops) io.out(describeLoop(store, item));
        },
        { readonly: true },
      );
    });

  loop
    .command('cancel')
    .description("end a running loop now (its task is marked cancelled); the agent's next stop is no longer held")
    .argument('[loop-id]', 'which loop (needed when more than one runs)')
    .option('--reason <text>', 'why, for the record', 'cancelled by a person')
    .addOption(dirOption())
    .option('--json', 'print the cancelled loop as JSON')
    .action((loopId: string | undefined, options: LocationOptions & { reason: string; json?: boolean }) => {
      refuseInsideAgent('cancelling an iteration loop');
      withStore(options, (store) => {
        let target = loopId;
        if (!target) {
          const running = store.loops({ activeOnly: true });
          if (running.length === 0) throw new LoopCommandError('no loop is running');
          if (running.length > 1)
            throw new UsageError(`${running.length} loops are running (${running.map((item) => item.id).join(', ')}): name the one to cancel`);
          target = running[0]!.id;
        }
        const ended = store.cancel(target, options.reason);
        if (options.json) return io.out(json({ loop: ended }));
        io.out(`Cancelled loop ${ended.id} at iteration ${ended.iteration} of ${ended.config.maxIterations}.\n`);
      });
    });

  loop
    .command('approve')
    .description("let a loop's command rules run where no OS sandbox can hold them (a person's decision; rules the person set are approved already)")
    .argument('<loop-id>')
    .addOption(dirOption())
    .option('--json', 'print the loop, its command rules and whether this approved them as JSON')
    .action((loopId: string, options: LocationOptions & { json?: boolean }) => {
      refuseInsideAgent('approving the command rules of an iteration loop');
      const api = loadLoop();
      withStore(options, (store) => {
        const found = store.loop(loopId);
        const rules = api.commandRuleList(found);
        if (rules.length === 0) {
          if (options.json) return io.out(json({ loop: found, rules, approved: false, already: false }));
          io.out(`Loop ${found.id} has no command rules: nothing runs, so there is nothing to approve.\n`);
          return;
        }
        const { loop: approved, already } = store.approveRules(found.id, `${whoAmI()} (isdlc loop approve)`);
        if (options.json) return io.out(json({ loop: approved, rules, approved: !already, already }));
        if (already) {
          io.out(`The command rules of loop ${approved.id} were approved already, by ${approved.rulesApprovedBy} at ${approved.rulesApprovedAt}.\n`);
          return;
        }
        const sandbox = api.ruleSandbox();
        io.out(
          `Approved the command rules of loop ${approved.id}: ${rules.join(', ')}.\n` +
            (sandbox.ok
              ? `They run in an OS sandbox here (${sandbox.kind}) anyway; the approval counts on a machine without one.\n`
              : `Without an OS sandbox (${sandbox.why}) they run with your rights, and so does whatever they run: tests and builds are the project's code, which the agent can change.\n`),
        );
      });
    });

  program
    .command('mcp')
    .description("serve the workflow's and the loop's tools to the agent over MCP on stdio (what .mcp.json starts; init registers it)")
    .addOption(dirOption())
    .action(async (options: LocationOptions) => {
      const location = projectLocation(options);
      const server = require('./mcp.cjs') as typeof import('../mcp/server.js');
      await server.serveMcp({ root: location.root, version: __ISDLC_VERSION__ });
    });
}
