// `isdlc hook`: one payload in, one decision out. Whatever goes wrong here, the answer is an allow with
// the reason logged: a hook must never break the host's action because of its own fault. The one
// exception is isdlc's own install being broken (checkInstall): work goes on, the workflow does not.
// The host that sent the call reads the payload and writes the answer (host.ts); the engine sees only
// the canonical event and its verdict.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configDirsWith, ProjectConfig } from '../config/project-config.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import { loadLoop } from '../loop/load.js';
import { findProjectRoot, ISDLC_DIR, locateState, type StateLocation } from '../state/locate.js';
import { tamperCheckForHook, type HookCheckInput, type TamperReport } from '../integrity/tamper-on-hook.js';
import { displacedIsdlc } from '../integrity/displaced.js';
import { appendActivity } from '../state/activity-log.js';
import { dispatch } from './dispatch.js';
import type { HookEvent } from '../events/hook-event.js';
import { guardDefinitionProblems, type Guard } from './guard.js';
import type { HookHost } from './host.js';
import { checkInstall } from './install-verdict.js';
import { cutDeeperThan, MAX_JSON_DEPTH } from '../util/json-depth.js';
import { asText } from '../util/json.js';

export interface HookRunInput {
  /** The host that sent the call: it reads the payload and writes the answer. */
  host: HookHost;
  /** What is guarded in the project: isdlc's files and what every registered host adds. */
  guarded: GuardedSet;
  payload: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The project the call is for, when the caller knows it better than the host (a replay, the cache warm-up). */
  projectDir?: string;
  /** `--event NAME`: overrides the payload's hook_event_name. */
  eventName?: string;
  /** `--guards a,b`: run only these guards. */
  only?: string[];
  /** The guards to run, in order (a hook bundle's own, or the whole registry). */
  guards: readonly Guard[];
  /** The input could not be taken in whole (too large, unreadable): allow and log this. */
  inputProblem?: string;
  /** Bundles of `.isdlc/bin/` the executable did not find (it answered with another). */
  missingBundles?: readonly string[];
}

export interface HookRunOutput {
  stdout: string;
  /** Said on stderr: never reaches the model, shown to the human in the host's debug view. */
  stderr: string;
  entry: Record<string, unknown>;
  location?: StateLocation;
}

function summary(event: HookEvent): Record<string, unknown> {
  const out: Record<string, unknown> = { event: event.name };
  // Which host ran isdlc's hook: doctor's proof that a host which skips untrusted hooks silently ran them.
  if (event.host) out['host'] = event.host;
  if (event.tool) out['tool'] = event.tool.name;
  if (event.sessionId) out['session'] = event.sessionId;
  if (event.agentId) out['agent_id'] = event.agentId;
  if (event.agentType) out['agent_type'] = event.agentType;
  if (event.outcome?.exitCode !== undefined) out['exit_code'] = event.outcome.exitCode;
  if (event.notification) out['notification'] = event.notification.kind;
  // What the host said the command changed (only where it reports that).
  if (event.outcome?.fileChanges) out['edit_diff'] = event.outcome.fileChanges.files.map((file) => file.path);
  return out;
}

function selectGuards(all: readonly Guard[], only: string[] | undefined): { guards: readonly Guard[]; unknown: string[] } {
  if (!only) return { guards: all, unknown: [] };
  const known = new Set(all.map((guard) => guard.id));
  return { guards: all.filter((guard) => only.includes(guard.id)), unknown: only.filter((id) => !known.has(id)) };
}

function readPayload(text: string, inputProblem: string | undefined): { raw?: unknown; problem?: string; deepCut?: number } {
  if (inputProblem) return { problem: inputProblem };
  if (text.trim() === '') return { problem: 'empty input: expected one JSON hook payload on stdin' };
  try {
    const raw: unknown = JSON.parse(text);
    // Every reader after this one recurses; what nests past the bound is cut here, once, so none of them overflows.
    const deepCut = cutDeeperThan(raw);
    return deepCut > 0 ? { raw, deepCut } : { raw };
  } catch (error) {
    return { problem: `input is not JSON (${(error as Error).message}; ${text.length} characters)` };
  }
}

/** `ISDLC_DRY_RUN=1`: decide and answer as usual, but write nothing (no state, no log). */
export function isDryRun(env: NodeJS.ProcessEnv): boolean {
  const value = env['ISDLC_DRY_RUN'];
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

/** The project folder the call names: the caller's, else the host's. */
function namedProject(input: Pick<HookRunInput, 'host' | 'env' | 'projectDir'>): string | undefined {
  return input.projectDir ?? input.host.projectDir(input.env);
}

/**
 * After runHook itself threw: the decision (an allow) still goes into the activity log of the project the
 * call came from, so a person sees that a hook call went unjudged. Best effort; never throws.
 */
export function logInternalError(input: Pick<HookRunInput, 'host' | 'env' | 'cwd' | 'projectDir'>, error: unknown): void {
  try {
    const root = findProjectRoot({ hostProjectDir: namedProject(input), cwd: input.cwd });
    if (!root || isDryRun(input.env) || !existsSync(join(root, ISDLC_DIR))) return;
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    appendActivity(join(root, ISDLC_DIR), { ts: new Date().toISOString(), decision: 'allow', problem: `internal error, allowed without checks: ${message}` });
  } catch {
    // the stderr line the caller writes is all that is left
  }
}

export function runHook(input: HookRunInput): HookRunOutput {
  // Not performance.now(): the global loads perf_hooks and ten modules behind it, more than a whole
  // decision costs (measured: 11.7 million instructions of a 40 million hook call).
  const started = process.hrtime.bigint();
  const dryRun = isDryRun(input.env);
  const entry: Record<string, unknown> = { ts: new Date().toISOString() };
  const finish = (stdout: string, location: StateLocation | undefined, stderr = ''): HookRunOutput => {
    entry['ms'] = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
    if (dryRun) {
      stderr += `isdlc hook (dry run): ${JSON.stringify(entry)}\n`;
    } else if (location && existsSync(location.isdlcDir)) {
      try {
        appendActivity(location.isdlcDir, entry);
      } catch (error) {
        stderr += `isdlc: could not append to the activity log: ${(error as Error).message}\n`;
      }
    } else if (entry['problem']) {
      stderr += `isdlc hook: ${asText(entry['problem'])}\n`;
    }
    return { stdout, stderr, entry, ...(location ? { location } : {}) };
  };
  const allow = (problem: string, location?: StateLocation): HookRunOutput => {
    entry['decision'] = 'allow';
    entry['problem'] = problem;
    return finish('', location);
  };

  const { raw, problem: parseProblem, deepCut } = readPayload(input.payload, input.inputProblem);
  if (deepCut) entry['payload_cut'] = `${deepCut} part(s) nested deeper than ${MAX_JSON_DEPTH} levels replaced by a marker`;
  const payloadCwd =
    raw && typeof raw === 'object' && typeof (raw as Record<string, unknown>)['cwd'] === 'string'
      ? ((raw as Record<string, unknown>)['cwd'] as string)
      : input.cwd;
  const root = findProjectRoot({ hostProjectDir: namedProject(input), cwd: payloadCwd });
  const configDirs = configDirsWith(input.guarded.configFolders);
  let location: StateLocation | undefined;
  let tamper: TamperReport & { failed?: string } = {};
  // Which project's state applies is unknown: no guard runs, and checkInstall says why below.
  let monorepoProblem: string | undefined;
  // isdlc's folder or journal swapped for a link (displaced.ts): looked at once, it decides three things below.
  let displaced: string | undefined;
  if (root && existsSync(join(root, ISDLC_DIR))) {
    displaced = displacedIsdlc(root);
    if (displaced) entry['tamper'] = { journal: 'displaced', problem: displaced };
    // Before anything reads isdlc's files (monorepo.json first): what changed them since the last call is undone.
    else if (!dryRun) {
      const eventName = input.eventName ?? (raw && typeof raw === 'object' ? asText((raw as Record<string, unknown>)['hook_event_name']) : '');
      const stateFile = (): string => {
        try {
          return locateState(root, { env: input.env, cwd: payloadCwd, configDirs }).stateFile;
        } catch {
          return join(root, ISDLC_DIR, 'state.json');
        }
      };
      tamper = runTamperCheck(root, { guarded: input.guarded, stateFile, foundBy: eventName || 'a hook call', loopRows: () => loadLoop().loopRows }, entry);
    }
    try {
      location = locateState(root, { env: input.env, cwd: payloadCwd, configDirs });
      if (location.warning) entry['warning'] = location.warning;
    } catch (error) {
      monorepoProblem = (error as Error).message;
      const isdlcDir = join(root, ISDLC_DIR);
      location = { root, isdlcDir, stateFile: join(isdlcDir, 'state.json'), configDirs };
    }
  }
  if (parseProblem) return allow(parseProblem, location);

  const parsed = input.host.parse(raw, input.eventName);
  if (!parsed.ok) return allow(parsed.reason, location);
  const event = parsed.event;
  event.host = input.host.id;
  Object.assign(entry, summary(event));
  if (!location)
    return allow(root ? `no .isdlc/ in ${root}: isdlc is not set up here` : `no project found (${input.host.name} named none, no .isdlc/ above cwd)`);
  if (location.projectId) entry['project'] = location.projectId;

  const { guards, unknown } = selectGuards(input.guards, input.only);
  let stderr = '';
  if (unknown.length > 0) {
    entry['unknown_guards'] = unknown;
    stderr += `isdlc hook: no guard named ${unknown.join(', ')} reacts to this kind of event; these do: ${input.guards.map((guard) => guard.id).join(', ')}\n`;
  }
  const broken = guards.filter((guard) => guardDefinitionProblems(guard).length > 0);
  if (broken.length > 0) entry['broken_guards'] = broken.map((guard) => guard.id ?? '?');

  const config = new ProjectConfig(location.root, location.configDirs, location.projectId);
  // A displaced .isdlc (displaced.ts) holds nothing isdlc can vouch for: no guard runs, checkInstall says why.
  const runnable = monorepoProblem || displaced ? [] : guards.filter((guard) => !broken.includes(guard));
  const result = dispatch({
    event,
    guards: runnable,
    location,
    config,
    guarded: input.guarded,
    shellSandboxed: (root) => input.host.shellSandboxed(root),
    dryRun,
  });
  const verdict = result.verdict;
  if (tamper.note) verdict.notes.unshift(tamper.note);
  if (tamper.userMessage) verdict.userMessages.unshift(tamper.userMessage);
  const installProblems = checkInstall({
    event,
    location,
    config,
    verdict,
    ...(monorepoProblem ? { monorepoProblem } : {}),
    ...(input.missingBundles ? { missingBundles: input.missingBundles } : {}),
    ...(tamper.failed ? { tamperCheckFailed: tamper.failed } : {}),
    displaced,
  });
  if (installProblems.length > 0) entry['install_problems'] = installProblems.map((problem) => problem.what);
  // As the wire says it: a held Stop is a block, not a deny.
  entry['decision'] = input.host.decision(event.name, verdict);
  if (verdict.deny) Object.assign(entry, { guard: verdict.deny.guard, reason: verdict.deny.reason });
  if (verdict.notes.length > 0) entry['notes'] = verdict.notes;
  if (verdict.userMessages.length > 0) entry['user_messages'] = verdict.userMessages;
  if (result.ran.length > 0) entry['ran'] = result.ran;
  if (result.failures.length > 0) entry['failures'] = result.failures;
  if (result.details.length > 0) entry['details'] = result.details;
  if (result.stateWritten) entry['state_version'] = result.stateVersion;
  if (result.wouldWrite) entry['would_write_state'] = true;
  if (result.corrupt) entry['corrupt_state'] = result.corrupt;
  // A lock set aside is a crash or someone jamming the state: either way the log says so.
  if (result.lockTakeovers.length > 0) entry['lock_takeover'] = result.lockTakeovers.length === 1 ? result.lockTakeovers[0] : result.lockTakeovers;
  const configProblems = config.problems();
  if (configProblems.length > 0) entry['config_problems'] = configProblems;
  return finish(input.host.render(event.name, verdict, event.tool), location, stderr);
}

/** The check's report; `failed` when it could not be made (a full disk, a journal it may not write). */
function runTamperCheck(root: string, check: HookCheckInput, entry: Record<string, unknown>): TamperReport & { failed?: string } {
  try {
    const report = tamperCheckForHook(root, check);
    if (report.log) entry['tamper'] = report.log;
    return report;
  } catch (error) {
    const failed = (error as Error).message;
    entry['tamper'] = { error: failed };
    return { failed };
  }
}

/** `isdlc hook --check`: does every guard of this build load, and is it well formed? */
export function checkGuards(guards: readonly Guard[]): { guards: string[]; problems: string[] } {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [index, guard] of guards.entries()) {
    const label = typeof guard?.id === 'string' ? guard.id : `guard #${index + 1}`;
    for (const problem of guardDefinitionProblems(guard)) problems.push(`${label} ${problem}`);
    if (seen.has(label)) problems.push(`${label} is registered twice`);
    seen.add(label);
  }
  return { guards: guards.map((guard) => guard?.id ?? '?'), problems };
}
