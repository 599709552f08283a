// `isdlc doctor`: proves the installation works the way each agent host will use it, and says how to fix
// what does not. It changes nothing. isdlc's own part is checked here (the install record, the hook
// bundles' guards, the journal, the loop store, the config, the state); each host checks its own
// (src/hosts/<host>/doctor.ts): the version it goes by, its settings, the registered hooks, its sandbox.
import { spawnSync } from 'node:child_process';
import { DISPLACED_REPAIR, displacedIsdlc } from '../integrity/displaced.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { configProblems } from '../config/consistency.js';
import { git } from '../detect/git-branch.js';
import { testingFindings } from './doctor-testing.js';
import { CONFIG_NAMES, ProjectConfig, loadConfig } from '../config/project-config.js';
import { knownPhaseKeys } from '../config/phases.js';
import { hostsFor } from '../hosts/index.js';
import { CONFIG_DIRS, GUARDED } from '../hosts/hook-hosts.js';
import { journalFindings } from '../integrity/journal-doctor.js';
import type { Finding, Severity } from '../install/host-setup.js';
import { loadLoop } from '../loop/load.js';
import { activeWorkflowOf, workflowPhasesOf } from '../state/current-phase.js';
import { INSTALL_RECORD } from '../state/install-record.js';
import { ISDLC_DIR, locateState, readMonorepoConfig } from '../state/locate.js';
import type { IsdlcState } from '../state/schema.js';
import { MIN_NODE, nodeIsSupported } from '../util/node-version.js';

export type { Finding, Severity };

function checkGuardsLoad(root: string, reinit: string, findings: Finding[]): void {
  const bin = join(root, ISDLC_DIR, 'bin', 'isdlc.cjs');
  if (!existsSync(bin)) {
    findings.push({ severity: 'fail', what: `${bin} is missing`, fix: `run \`${reinit}\`` });
    return;
  }
  const run = spawnSync(process.execPath, [bin, 'hook', '--check'], { encoding: 'utf8', timeout: 10_000 });
  const reports: { bundle?: string; guards?: string[]; problems?: string[] }[] = [];
  try {
    for (const line of run.stdout.split('\n').filter(Boolean)) reports.push(JSON.parse(line) as (typeof reports)[number]);
    if (reports.length === 0 || (run.status !== 0 && reports.every((r) => (r.problems ?? []).length === 0))) throw new Error('no report');
  } catch {
    findings.push({
      severity: 'fail',
      what: `the installed guards could not be loaded: ${(run.stderr || run.stdout).trim().slice(0, 300)}`,
      fix: `run \`${reinit}\``,
    });
    return;
  }
  const problems = reports.flatMap((r) => (r.problems ?? []).map((p) => `${r.bundle ? `${r.bundle}: ` : ''}${p}`));
  if (problems.length > 0) {
    for (const problem of problems) findings.push({ severity: 'fail', what: `guard ${problem}`, fix: 'reinstall isdlc; this is a fault in the build' });
  } else {
    const guards = [...new Set(reports.flatMap((r) => r.guards ?? []))];
    findings.push({ severity: 'ok', what: `all ${guards.length} guards load in the ${reports.length} hook bundles: ${guards.join(', ')}` });
  }
  const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', timeout: 10_000 }).stdout.trim();
  if (version && version !== __ISDLC_VERSION__) {
    findings.push({ severity: 'warn', what: `installed hook is isdlc ${version}, this is ${__ISDLC_VERSION__}`, fix: `run \`${reinit}\` to update it` });
  }
}

/**
 * The Node.js that runs isdlc here, and the one the hooks get: they are started as `node` from the PATH
 * the agent host has, which need not be the one running this command.
 */
function checkNode(findings: Finding[]): void {
  const fix = `install Node.js ${MIN_NODE} or later (22 or 24) and put it first on the PATH the agent host starts hooks with`;
  if (!nodeIsSupported(process.versions.node)) {
    findings.push({ severity: 'fail', what: `Node.js ${process.versions.node} runs isdlc here; it needs ${MIN_NODE} or later`, fix });
  }
  const onPath = spawnSync('node', ['-p', 'process.versions.node'], { encoding: 'utf8', timeout: 10_000 });
  const version = onPath.status === 0 ? onPath.stdout.trim() : undefined;
  if (!version) findings.push({ severity: 'fail', what: 'no `node` on the PATH: the hooks are started as `node`', fix });
  else if (!nodeIsSupported(version))
    findings.push({ severity: 'fail', what: `the hooks would run on Node.js ${version} (the \`node\` on the PATH); isdlc needs ${MIN_NODE} or later`, fix });
  else
    findings.push({
      severity: 'ok',
      what: `Node.js ${version} runs the hooks${version === process.versions.node ? '' : ` (this command runs on ${process.versions.node})`}`,
    });
}

/** The loop bundle loads SQLite on this machine, and the loop store reads. */
function checkLoops(root: string, reinit: string, findings: Finding[]): void {
  const bundle = join(root, ISDLC_DIR, 'bin', 'loop.cjs');
  if (!existsSync(bundle)) {
    findings.push({ severity: 'fail', what: `${bundle} is missing: iteration loops cannot run`, fix: `run \`${reinit}\`` });
    return;
  }
  const run = spawnSync(process.execPath, [bundle, '--probe', join(root, ISDLC_DIR)], { encoding: 'utf8', timeout: 10_000 });
  let report: { sqlite?: string; store?: string; live?: number; unclaimed?: number; problem?: string } = {};
  try {
    report = JSON.parse(run.stdout) as typeof report;
  } catch {
    report = { problem: (run.stderr || run.stdout || `exit ${run.status}`).trim().split('\n')[0]! };
  }
  if (report.problem) {
    const fix = nodeIsSupported(process.versions.node)
      ? `run \`${reinit}\` on this machine; a loop.db that cannot be read is left for you to move aside`
      : `run isdlc on Node.js ${MIN_NODE} or later (22 or 24)`;
    findings.push({ severity: 'fail', what: `iteration loops: ${report.problem}`, fix });
  } else {
    const live =
      report.store === 'present' ? `; ${report.live} running${report.unclaimed ? `, ${report.unclaimed} not yet claimed by a session` : ''}` : '; no loop yet';
    findings.push({ severity: 'ok', what: `iteration loops: SQLite ${report.sqlite} loads${live}` });
  }
}

function checkConfig(root: string, findings: Finding[]): ProjectConfig {
  for (const name of CONFIG_NAMES) {
    const loaded = loadConfig(root, name, CONFIG_DIRS);
    if (loaded.problem)
      findings.push({
        severity: 'fail',
        what: `${name}: ${loaded.problem}; the bundled default is used instead`,
        fix: 'fix the file, or remove it to use the default',
      });
    else findings.push({ severity: 'ok', what: `${name}: ${loaded.from === 'bundled' ? 'bundled default' : loaded.from}` });
  }
  const config = new ProjectConfig(root, CONFIG_DIRS);
  const problems = configProblems({
    requirements: config.iterationRequirements,
    artifactPaths: config.artifactPaths,
    workflows: config.workflows,
    manifest: config.manifest,
    constitution: config.constitution,
  });
  for (const problem of problems)
    findings.push({ severity: 'fail', what: `config disagrees: ${problem}`, fix: 'make the files agree (`isdlc config show NAME` prints what is in use)' });
  if (problems.length === 0) findings.push({ severity: 'ok', what: `config files agree (constitution: ${config.constitution.articles.size} articles)` });
  return config;
}

/**
 * The state file is this machine's: tracked by git, `git stash`, a checkout of another branch or a pull
 * rewrites it under isdlc (and with the sandbox on they cannot, and stop half way).
 */
function checkStateUntracked(root: string, file: string, findings: Finding[]): void {
  const rel = relative(root, file);
  if (git(root, ['ls-files', '--error-unmatch', '--', rel]) === null) return;
  findings.push({
    severity: 'warn',
    what: `${rel} is tracked by git: git stash, a checkout of another branch or a pull would rewrite it under isdlc (with the sandbox on they cannot, and stop half way)`,
    fix: `\`git rm --cached ${rel}\` and commit that (the file stays; .isdlc/.gitignore keeps it out from then on)`,
  });
}

function checkStateFile(file: string, config: ProjectConfig, findings: Finding[]): void {
  const dir = join(file, '..');
  let state: IsdlcState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as IsdlcState;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    findings.push(
      code === 'ENOENT'
        ? { severity: 'ok', what: `${file}: no workflow state on this machine yet (\`isdlc workflow start\` makes it; it is not kept in git)` }
        : {
            severity: 'fail',
            what: `${file} does not parse: ${(error as Error).message}`,
            fix: 'repair the JSON by hand (a hook will set a broken file aside and start afresh)',
          },
    );
    return;
  }
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    findings.push({ severity: 'fail', what: `${file} does not hold a JSON object` });
    return;
  }
  findings.push({ severity: 'ok', what: `${file} parses (state_version ${String(state.state_version ?? 'none')})` });
  const workflow = activeWorkflowOf(state);
  if (workflow) {
    const known = knownPhaseKeys(config);
    const unknown = workflowPhasesOf(state).filter((phase) => !known.has(phase));
    if (unknown.length > 0) findings.push({ severity: 'warn', what: `active workflow names phases the config does not define: ${unknown.join(', ')}` });
  }
  const leftovers = readdirSync(dir).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock') || name.includes('.corrupt-'));
  for (const name of leftovers) {
    findings.push(
      name.includes('.corrupt-')
        ? { severity: 'warn', what: `${join(dir, name)} is a state file that was set aside as unreadable`, fix: 'repair it and move it back, or delete it' }
        : { severity: 'warn', what: `${join(dir, name)} was left by an interrupted write`, fix: 'delete it if no isdlc process is running' },
    );
  }
}

/** The hosts' own options of `isdlc doctor` (the version to check against), as the command line gives them. */
export type DoctorOptions = Record<string, unknown>;

export function runDoctor(root: string, options: DoctorOptions = {}): Finding[] {
  const findings: Finding[] = [];
  if (!existsSync(join(root, ISDLC_DIR))) {
    return [{ severity: 'fail', what: `${root} has no ${ISDLC_DIR}/: isdlc is not set up here`, fix: `run \`isdlc init ${root}\`` }];
  }
  // Everything else would be read through the link, and every hook answers that isdlc is broken: one finding, the repair first.
  const displaced = displacedIsdlc(root);
  if (displaced)
    return [{ severity: 'fail', what: `${displaced}: isdlc checks nothing through a link and the workflow cannot move on`, fix: DISPLACED_REPAIR }];
  const hosts = hostsFor(root).map((host) => host.doctor(root, GUARDED, options));
  // The command that sets it all up again, as the first host would have it run (with its version flag).
  const reinit = hosts[0]?.reinit ?? `isdlc init ${root}`;
  for (const host of hosts) findings.push(...host.version);
  checkNode(findings);
  if (!existsSync(join(root, INSTALL_RECORD))) findings.push({ severity: 'warn', what: `${INSTALL_RECORD} is missing`, fix: `run \`${reinit}\`` });
  checkGuardsLoad(root, reinit, findings);
  for (const host of hosts) findings.push(...host.findings);
  findings.push(...journalFindings(root, GUARDED, () => loadLoop().loopRows));
  checkLoops(root, reinit, findings);
  const config = checkConfig(root, findings);
  findings.push(...testingFindings(root));
  let monorepo;
  try {
    monorepo = readMonorepoConfig(root);
  } catch (error) {
    findings.push({ severity: 'fail', what: `.isdlc/monorepo.json: ${(error as Error).message}`, fix: 'repair it or remove it' });
  }
  const stateFiles = monorepo
    ? Object.keys(monorepo.projects ?? {}).map((id) => join(root, ISDLC_DIR, 'projects', id, 'state.json'))
    : [locateState(root, { env: {}, cwd: root, configDirs: CONFIG_DIRS }).stateFile];
  for (const file of stateFiles) {
    checkStateFile(file, config, findings);
    checkStateUntracked(root, file, findings);
  }
  return findings;
}

const SYMBOL: Record<Severity, string> = { ok: '✓', warn: '!', fail: '✗' };

export function formatFindings(root: string, findings: Finding[]): string {
  const lines = [`isdlc doctor: ${root}`];
  for (const finding of findings) {
    lines.push(`${SYMBOL[finding.severity]} ${finding.what}`);
    if (finding.fix && finding.severity !== 'ok') lines.push(`    fix: ${finding.fix}`);
  }
  const failed = findings.filter((f) => f.severity === 'fail').length;
  const warned = findings.filter((f) => f.severity === 'warn').length;
  lines.push(failed === 0 ? `All good${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}.` : `${failed} problem${failed > 1 ? 's' : ''} to fix.`);
  return `${lines.join('\n')}\n`;
}
