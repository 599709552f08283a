// `isdlc init` and `isdlc uninstall`: put isdlc into a project, and take out exactly what was put in.
// Nothing the user wrote is overwritten; a file is rewritten only when its content would change, so a
// second init leaves the project byte for byte as it was.
// The agent hosts' own files (their settings, the files they read) are each host's to change
// (host-setup.ts); this module does isdlc's part and calls them in order.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { bundledConstitutionText, CONFIG_SCHEMAS_DIR, configDirsWith, ProjectConfig } from '../config/project-config.js';
import { initialTestingConfig, TESTING_PATH } from '../config/testing-config.js';
import { coverageAdvice, missingCoverage, missingMutation, mutationAdvice } from '../config/coverage-advice.js';
import { BIN_FILES } from '../integrity/bin-files.js';
import type { GuardedSet } from '../integrity/guarded-set.js';
import { adoptAll } from '../integrity/journal-adopt.js';
import { hasJournal, JOURNAL_DIR, journalPath, updateJournal, type JournalIndex } from '../integrity/journal.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { checkGuardedFiles, noteLogFloor } from '../integrity/tamper-check.js';
import { DISPLACED_REPAIR, displacedIsdlc } from '../integrity/displaced.js';
import { loadLoop } from '../loop/load.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import { initialState } from '../state/initial-state.js';
import { INSTALL_RECORD, readInstallRecord, type InstallRecord } from '../state/install-record.js';
import { ISDLC_DIR, readMonorepoConfig } from '../state/locate.js';
import { readTextIfPresent } from '../util/read-text.js';
import { InstallError, type ChangeLine, type HostSetup } from './host-setup.js';
import { serialise } from './json-file.js';
import { forgetLeftBehind, leftBehindFiles, writeLeftBehind } from './left-behind.js';

export { BIN_FILES, INSTALL_RECORD };
export const CONSTITUTION_FILE = 'docs/isdlc/constitution.md';

const GITIGNORE = `# isdlc: files that are local to this machine
# The workflow's state is this machine's record of its agents' work: git stash, a checkout of another
# branch or a pull would otherwise rewrite it under isdlc.
state.json
state.corrupt-*
hook-activity.log
hook-activity.log.1
journal/
*.rejected-*
*.lock
.*.tmp
bin/*.cache
bin/*.node
loop.db
loop.db-*
branch-heads/
# What the gate compares its own runs with: the tests seen by name, the packages installed when the workflow
# started, the last mutation run's results.
test-names.json
dependencies.json
mutation/
`;

/** The folders each config file is looked for in after `.isdlc/config/` (a framework's, a host keeps). */
const configReadme = (otherFolders: readonly string[]): string => `# isdlc configuration

isdlc reads each of these files from here first, ${otherFolders.map((folder) => `then from \`${folder}/\`, `).join('')}and otherwise uses
the defaults bundled with isdlc:

- \`iteration-requirements.json\`: what each phase must show before its gate opens
- \`artifact-paths.json\`: the files each phase must leave behind
- \`workflows.json\`: workflow types and their phases
- \`skills-manifest.json\` (or \`.yaml\`): which agent owns which phase
- \`testing.json\`: the command that runs the project's tests, which the gate runs itself before a phase
  that requires passing tests is completed (\`command\`, \`coverage_command\`, \`coverage_report\`,
  \`timeout_minutes\`, \`require_counts\`); \`isdlc init\` guessed it from the project, correct it here

To change one value, run in your own terminal \`isdlc config set NAME KEY VALUE\` (for example
\`isdlc config set testing timeout_minutes 15\`, or a dotted key such as
\`phase_requirements.06-implementation.test_iteration.max_iterations\`); \`isdlc config unset NAME KEY\`
removes one. It checks the value against the file's schema and writes through isdlc's journal, so isdlc takes
the change as yours. Editing a file by hand works too, followed by \`isdlc changes accept\` in your own
terminal: isdlc keeps its files as it wrote them, and without that the next hook call puts the file back and
counts a change made outside isdlc (start from the version in use: \`isdlc config show NAME\`). Then
\`isdlc doctor\` checks that the files still agree with each other (and that \`testing.json\`'s command can
run). A changed test command during a workflow also waits for \`isdlc tests accept\`. The constitution lives
in \`docs/isdlc/constitution.md\`.

\`schemas/\` holds each file's JSON Schema (the shape isdlc checks it against, with the messages isdlc
gives); a file that names one in \`$schema\` (\`config show\` prints it, \`init\` writes it into
\`testing.json\`) gets completion and checking in editors that read JSON Schemas.
`;

function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export interface HostToInstall {
  setup: HostSetup;
  /** The host's own command-line options, as the person gave them. */
  options: Record<string, unknown>;
}

export interface InitOptions {
  /** Where the bundled files to install are (the running package's dist/). */
  binSource: string;
  /** What is guarded in the project: isdlc's files and every registered host's. */
  guarded: GuardedSet;
  /** The agent hosts to register isdlc with. */
  hosts: readonly HostToInstall[];
  version: string;
  now?: Date;
  /** The config files' JSON Schemas, by file name without `.json` (the build makes them). */
  configSchemas?: Readonly<Record<string, string>>;
}

export interface InitResult {
  changes: ChangeLine[];
  /** What each host wants the person to read. */
  notices: string[];
}

/** init and uninstall change nothing through a displaced .isdlc: their writes and removals would land wherever it points. */
function refuseDisplaced(root: string): void {
  const displaced = displacedIsdlc(root);
  if (displaced) throw new InstallError(`${displaced}; isdlc changes nothing through it: ${DISPLACED_REPAIR}`);
}

export function initProject(root: string, options: InitOptions): InitResult {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new InstallError(`${root} is not a directory`);
  refuseDisplaced(root);
  for (const file of BIN_FILES) {
    if (!existsSync(join(options.binSource, file))) {
      throw new InstallError(`${join(options.binSource, file)} is missing: run \`npm run build\` in the isdlc package first`);
    }
  }
  // A host that would not run the hooks stops init here, before any change.
  for (const host of options.hosts) host.setup.checkInit(host.options);
  // What changed isdlc's files since its last write is undone before init reads any of them: init takes its
  // files as it leaves them, so it must never make someone else's change isdlc's own.
  const undone = undoChangesFirst(root, options.guarded);
  const previous = readInstallRecord(root);
  const config = new ProjectConfig(root, configDirsWith(options.guarded.configFolders));
  // Each host reads and merges its files next: a file of the person's that cannot be merged stops init
  // before anything is written.
  const plans = options.hosts.map((host) => host.setup.prepareInit({ root, guarded: options.guarded, previous, config }, host.options));

  const now = (options.now ?? new Date()).toISOString();
  const record: InstallRecord = {
    version: 1,
    isdlc_version: options.version,
    installed_at: previous?.installed_at ?? now,
    // What a plain uninstall left in place is isdlc's again (left-behind.ts).
    files: { ...leftBehindFiles(root), ...(previous?.files ?? {}) },
    ...(Object.assign({}, ...plans.map((plan) => plan.record)) as Record<string, unknown>),
    journal: true,
  };
  const changes: ChangeLine[] = undone;

  /** Writes a file only when its content differs; `own` files are recorded for uninstall. */
  const put = (rel: string, content: string | Buffer, mode: 'replace' | 'if-absent', own = true): void => {
    const path = join(root, rel);
    const existing = existsSync(path) ? readFileSync(path) : undefined;
    const wanted = typeof content === 'string' ? Buffer.from(content) : content;
    if (existing && (mode === 'if-absent' || existing.equals(wanted))) {
      changes.push({ path: rel, change: existing.equals(wanted) ? 'unchanged' : 'kept', ...(existing.equals(wanted) ? {} : { note: 'yours, left as it is' }) });
      return;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, wanted);
    if (own) record.files[rel] = { sha256: sha256(wanted) };
    changes.push({ path: rel, change: existing ? 'updated' : 'created' });
  };

  for (const file of BIN_FILES) {
    const source = join(options.binSource, file);
    const target = join(root, ISDLC_DIR, 'bin', file);
    if (source === target) continue; // init run from the installed copy itself
    put(relative(root, target), readFileSync(source), 'replace');
  }
  // What an earlier isdlc put in .isdlc/bin/ and this one no longer ships (the compiled SQLite module of the
  // versions before the loop store moved to Node's own SQLite): removed while it is as isdlc wrote it.
  for (const rel of retiredBinFiles(previous)) {
    const path = join(root, rel);
    delete record.files[rel];
    if (!existsSync(path)) continue;
    if (sha256(readFileSync(path)) !== previous?.files[rel]?.sha256) {
      changes.push({ path: rel, change: 'kept', note: 'no longer used by isdlc, but changed since isdlc wrote it' });
      continue;
    }
    rmSync(path);
    changes.push({ path: rel, change: 'removed', note: 'no longer used by isdlc' });
  }
  // The agent-facing files: brought up to date while they are as isdlc wrote them; a file the user wrote
  // or edited is theirs and stays.
  const untouchedOurs = (rel: string): boolean => {
    const path = join(root, rel);
    return Boolean(previous?.files[rel] && existsSync(path) && previous.files[rel].sha256 === sha256(readFileSync(path)));
  };
  for (const plan of plans) for (const [rel, content] of Object.entries(plan.files)) put(rel, content, untouchedOurs(rel) ? 'replace' : 'if-absent');
  // Brought up to date the same way (an older .gitignore does not know loop.db).
  for (const [rel, content] of [
    [`${ISDLC_DIR}/.gitignore`, GITIGNORE],
    [`${ISDLC_DIR}/config/README.md`, configReadme(options.guarded.configFolders)],
    ...Object.entries(options.configSchemas ?? {}).map(([name, text]) => [schemaPath(name), text] as const),
  ] as const) {
    put(rel, content, untouchedOurs(rel) ? 'replace' : 'if-absent');
  }
  if (!existsSync(join(root, ISDLC_DIR, 'constitution.md'))) put(CONSTITUTION_FILE, bundledConstitutionText(), 'if-absent');
  // The gate runs this command itself; the person corrects the guess here, the agent cannot (it is guarded).
  const testing = initialTestingConfig(root);
  put(TESTING_PATH, testing.text, untouchedOurs(TESTING_PATH) ? 'replace' : 'if-absent');
  const testingChange = changes.at(-1);
  if (testingChange && (testingChange.change === 'created' || testingChange.change === 'updated'))
    testingChange.note = `the gate's test command, from ${testing.basis}`;

  for (const stateFile of stateFilesFor(root)) {
    const rel = relative(root, stateFile);
    if (existsSync(stateFile)) {
      changes.push({ path: rel, change: 'kept', note: 'existing state left as it is' });
      continue;
    }
    new JournaledStateStore(stateFile).update(
      (draft) => {
        Object.assign(draft, initialState({ projectName: basename(root), now, version: options.version }));
      },
      { expectedVersion: 0 },
    );
    changes.push({ path: rel, change: 'created' });
  }

  for (const plan of plans) changes.push(...plan.write());

  if (process.env['ISDLC_NO_WARM_CACHE'] !== '1') warmHookCache(join(root, ISDLC_DIR, 'bin', 'isdlc.cjs'));

  const recordText = serialise(record);
  if (readTextIfPresent(join(root, INSTALL_RECORD)) !== recordText) {
    writeFileAtomic(join(root, INSTALL_RECORD), recordText);
    changes.push({ path: INSTALL_RECORD, change: previous ? 'updated' : 'created' });
  }
  forgetLeftBehind(root);
  changes.push(startJournal(root, options.guarded));
  return {
    changes,
    notices: [
      ...coverageNotice(root, options.guarded.configFolders),
      ...mutationNotice(root, options.guarded.configFolders),
      ...plans.flatMap((plan) => plan.notices()),
    ],
  };
}

/** Said at init, before the first implementation gate finds out: the coverage the phases want and what measures it. */
function coverageNotice(root: string, hostConfigFolders: readonly string[]): string[] {
  const advice = coverageAdvice(root, configDirsWith(hostConfigFolders));
  if (!advice?.missing) return [];
  const { what, step } = missingCoverage(advice.needs, advice.missing);
  return [`Coverage: ${what}. One step provides it: ${step} (the gate then measures it itself).`];
}

/** Said at init too: the mutation score the phases want of the changed code, and what measures it. */
function mutationNotice(root: string, hostConfigFolders: readonly string[]): string[] {
  const advice = mutationAdvice(root, configDirsWith(hostConfigFolders));
  if (!advice?.missing) return [];
  const { what, step } = missingMutation(advice.needs, advice.missing);
  return [`Mutation score: ${what}. One step provides it: ${step}.`];
}

/**
 * The journal of isdlc's writes starts from the files as init leaves them: init is the person's command.
 * What differed from an earlier journal (changes no hook call had found yet) is named, not hidden.
 */
function undoChangesFirst(root: string, guarded: GuardedSet): ChangeLine[] {
  if (!hasJournal(root)) return [];
  const check = checkGuardedFiles(root, { guarded, foundBy: 'isdlc init', loopRows: () => loadLoop().loopRows });
  return check.findings.map((finding) => ({
    path: finding.rel,
    change: finding.change === 'created' ? 'removed' : 'updated',
    note: `changed outside isdlc since its last write: ${finding.outcome === 'reverted' ? 'undone' : 'reported'}${finding.keptAs ? `, the changed version kept as ${finding.keptAs}` : ''}; \`isdlc changes accept\` keeps it`,
  }));
}

/**
 * What of the journal says which files are isdlc's and how it left them. The folders' stamps move with
 * isdlc's own locks, caches and log, and the log's floor with every hook call: neither is a change of
 * isdlc's files, and the hook keeps both up to date itself (integrity/suspects.ts).
 */
function journalMeaning(index: JournalIndex): string {
  const { dirs, log: _log, ...rest } = index;
  return JSON.stringify({ ...rest, dirs: Object.keys(dirs).sort() });
}

function startJournal(root: string, guarded: GuardedSet): ChangeLine {
  const existed = hasJournal(root);
  const loopRows = () => loadLoop().loopRows;
  const changed = updateJournal(root, (index) => {
    const fresh = structuredClone(index);
    adoptAll(root, fresh, guarded, loopRows);
    noteLogFloor(root, fresh);
    // Written only when the files changed: a second init on an unchanged project writes nothing.
    if (existed && journalMeaning(fresh) === journalMeaning(index)) return false;
    Object.assign(index, fresh);
    if (!fresh.log) delete index.log;
    return true;
  });
  const rel = `${ISDLC_DIR}/${JOURNAL_DIR}/`;
  if (existed && !changed) return { path: rel, change: 'unchanged' };
  if (!existed) return { path: rel, change: 'created', note: "the record of isdlc's own writes, which every hook call compares with" };
  return { path: rel, change: 'updated', note: "isdlc's files as init left them" };
}

/**
 * Runs the installed hook once on sample calls of every kind, so its code cache covers every path
 * (docs/hot-path.md). Nothing in the project is touched; if it fails the hook still works, only slower.
 * `ISDLC_NO_WARM_CACHE=1` skips it (half a second of init): the first call of each kind then makes its
 * cache. The test suite sets it wherever a warm cache is not what a test is about.
 */
function warmHookCache(bin: string): void {
  spawnSync(process.execPath, [bin, 'hook', '--warm-cache'], { stdio: 'ignore', timeout: 20_000 });
}

/** The state files a project needs: one, or one per project of a monorepo. */
function stateFilesFor(root: string): string[] {
  const monorepo = readMonorepoConfig(root);
  if (!monorepo) return [join(root, ISDLC_DIR, 'state.json')];
  return Object.keys(monorepo.projects ?? {}).map((id) => join(root, ISDLC_DIR, 'projects', id, 'state.json'));
}

const SCHEMAS_FOLDER = `${ISDLC_DIR}/config/${CONFIG_SCHEMAS_DIR}/`;
const schemaPath = (name: string): string => `${SCHEMAS_FOLDER}${name}.json`;

/** Files under `.isdlc/bin/` an install record names that are not among this version's bin files. */
function retiredBinFiles(record: InstallRecord | undefined): string[] {
  const current = new Set<string>(BIN_FILES.map((file) => `${ISDLC_DIR}/bin/${file}`));
  return Object.keys(record?.files ?? {}).filter((rel) => rel.startsWith(`${ISDLC_DIR}/bin/`) && !current.has(rel));
}

export interface UninstallOptions {
  /** Also remove state, logs, config and the constitution (the latter only if unchanged since init). */
  purge: boolean;
  /** The agent hosts to take isdlc out of. */
  hosts: readonly HostSetup[];
}

function removeIfEmpty(dir: string): boolean {
  try {
    if (readdirSync(dir).length > 0) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

export function uninstallProject(root: string, options: UninstallOptions): ChangeLine[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new InstallError(`${root} is not a directory`);
  refuseDisplaced(root);
  const record = readInstallRecord(root);
  const changes: ChangeLine[] = [];
  for (const host of options.hosts) changes.push(...host.uninstall(root, record));

  // After a plain uninstall the record is gone: what it left in place is known from left-behind.ts.
  const ownFiles = { ...leftBehindFiles(root), ...(record?.files ?? {}) };
  const removeOwnedFile = (rel: string): void => {
    const path = join(root, rel);
    if (!existsSync(path)) return;
    const owned = ownFiles[rel];
    if (owned && owned.sha256 !== sha256(readFileSync(path))) {
      changes.push({ path: rel, change: 'kept', note: 'changed since isdlc created it' });
      return;
    }
    rmSync(path);
    changes.push({ path: rel, change: 'removed' });
  };

  for (const file of BIN_FILES) removeOwnedFile(`${ISDLC_DIR}/bin/${file}`);
  for (const rel of retiredBinFiles(record)) removeOwnedFile(rel);
  const binDir = join(root, ISDLC_DIR, 'bin');
  if (existsSync(binDir)) {
    for (const name of readdirSync(binDir)) if (name.endsWith('.cache')) rmSync(join(binDir, name));
    removeIfEmpty(binDir);
  }
  for (const rel of [`${ISDLC_DIR}/.gitignore`, `${ISDLC_DIR}/config/README.md`, TESTING_PATH]) if (record?.files[rel]) removeOwnedFile(rel);
  for (const rel of Object.keys(record?.files ?? {})) if (rel.startsWith(SCHEMAS_FOLDER)) removeOwnedFile(rel);
  removeIfEmpty(join(root, ISDLC_DIR, 'config', CONFIG_SCHEMAS_DIR));
  for (const host of options.hosts) {
    for (const rel of Object.keys(record?.files ?? {})) if (host.installed(rel)) removeOwnedFile(rel);
    for (const dir of host.folders) removeIfEmpty(join(root, dir));
  }
  removeIfEmpty(join(root, ISDLC_DIR, 'config'));

  if (options.purge) {
    if (ownFiles[CONSTITUTION_FILE]) removeOwnedFile(CONSTITUTION_FILE);
    else if (existsSync(join(root, CONSTITUTION_FILE))) changes.push({ path: CONSTITUTION_FILE, change: 'kept', note: 'not created by isdlc' });
    removeIfEmpty(join(root, 'docs/isdlc'));
    removeIfEmpty(join(root, 'docs'));
    if (existsSync(join(root, ISDLC_DIR))) {
      rmSync(join(root, ISDLC_DIR), { recursive: true, force: true });
      changes.push({ path: `${ISDLC_DIR}/`, change: 'removed', note: 'state, logs and config' });
    }
  } else {
    if (existsSync(journalPath(root))) {
      rmSync(journalPath(root), { recursive: true, force: true });
      changes.push({ path: `${ISDLC_DIR}/${JOURNAL_DIR}/`, change: 'removed' });
    }
    if (existsSync(join(root, INSTALL_RECORD))) {
      rmSync(join(root, INSTALL_RECORD));
      changes.push({ path: INSTALL_RECORD, change: 'removed' });
    }
    writeLeftBehind(root, Object.fromEntries(Object.entries(ownFiles).filter(([rel]) => rel === CONSTITUTION_FILE && existsSync(join(root, rel)))));
    for (const rel of [`${ISDLC_DIR}/`, CONSTITUTION_FILE]) {
      if (existsSync(join(root, rel)))
        changes.push({
          path: rel,
          change: 'kept',
          note: rel === CONSTITUTION_FILE ? 'docs are kept; --purge removes it if unchanged' : 'state and logs are kept; --purge removes them',
        });
    }
  }
  return changes;
}
