// Is isdlc itself whole in this project? A hook that cannot read its monorepo config, whose bundles are
// gone, or whose state vanished from an installed project must not pass as if all were well: the model
// and the person are told, and the workflow cannot move on until a person repairs it.
// Checked on every hook call with a few stats; nothing is read unless something is missing.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BIN_FILES } from './bin-files.js';
import { DISPLACED_REPAIR, displacedIsdlc } from './displaced.js';
import { readJournal } from './journal.js';
import { relativeToRoot } from './guarded-set.js';

export interface InstallProblem {
  /** What is wrong, for the model and the person. */
  what: string;
  /** The command or step that repairs it; a person's, never the agent's. */
  repair: string;
}

export interface IntegrityInput {
  root: string;
  isdlcDir: string;
  /** The state file this call would use; unknown when the monorepo config could not be read. */
  stateFile?: string;
  /** Why `.isdlc/monorepo.json` could not be used. */
  monorepoProblem?: string;
  /** Bundles the executable looked for and did not find, whatever install.json says. */
  missingBundles?: readonly string[];
  /** Why this call's check of isdlc's files failed: a change it could not undo may stand. */
  tamperCheckFailed?: string;
  /** displacedIsdlc's answer when the caller has it already; looked up when the key is absent. */
  displaced?: string | undefined;
}

const exists = (path: string): boolean => statSync(path, { throwIfNoEntry: false }) !== undefined;

/** Whether the journal follows a file of isdlc's at `file` (read only when that file is missing): one isdlc wrote, or found and adopted. */
function journalLeftFile(root: string, file: string): boolean {
  const rel = relativeToRoot(root, file);
  const read = readJournal(root);
  // A journal that cannot be read vouches for nothing: the state counts as gone.
  if (read.kind === 'broken') return true;
  return read.kind === 'ok' && rel !== undefined && read.index.files[rel] !== undefined;
}

/** install.json is written by `isdlc init` (INSTALL_RECORD): where it is, the bin files and state belong. */
const INSTALL_RECORD_NAME = 'install.json';

export function installProblems(input: IntegrityInput): InstallProblem[] {
  const problems: InstallProblem[] = [];
  const displaced = 'displaced' in input ? input.displaced : displacedIsdlc(input.root);
  if (displaced) {
    problems.push({
      what: `${displaced}: isdlc keeps its state and the journal of its own writes there, and checks nothing through a link`,
      repair: DISPLACED_REPAIR,
    });
    return problems;
  }
  if (input.monorepoProblem) {
    problems.push({
      what: `.isdlc/monorepo.json cannot be used (${input.monorepoProblem}), so isdlc cannot tell which project's state applies and checks nothing`,
      repair: 'a person repairs .isdlc/monorepo.json; `isdlc doctor` names the fault',
    });
  }
  if (input.tamperCheckFailed) {
    problems.push({
      what: `isdlc could not check its own files on this call (${input.tamperCheckFailed}), so a change made to them outside isdlc may stand`,
      repair: 'a person frees disk space or makes .isdlc writable again, whatever stopped the write, then runs `isdlc doctor`',
    });
  }
  const installed = exists(join(input.isdlcDir, INSTALL_RECORD_NAME));
  const missing = new Set(input.missingBundles ?? []);
  if (installed) {
    // One listing rather than a stat per file: this runs on every hook call.
    let present: Set<string>;
    try {
      present = new Set(readdirSync(join(input.isdlcDir, 'bin')));
    } catch {
      present = new Set();
    }
    for (const file of BIN_FILES) if (!present.has(file)) missing.add(file);
  }
  if (missing.size > 0) {
    problems.push({
      what: `.isdlc/bin/ is missing ${[...missing].join(', ')}, so some of isdlc's hooks or tools cannot run`,
      repair: 'a person runs `isdlc init` in the project to reinstall them; `isdlc doctor` checks the install',
    });
  }
  // The state is this machine's (not in git): a clone has none, and starts its own workflow. Missing is a
  // fault where isdlc's journal follows a state file here.
  if (installed && input.stateFile && !exists(input.stateFile) && journalLeftFile(input.root, input.stateFile)) {
    problems.push({
      what: `${relative(input.root, input.stateFile)} is missing although isdlc is installed here, so the workflow's record is gone`,
      repair: 'a person restores it from a copy, or runs `isdlc init` to start a fresh one; `isdlc doctor` checks the install',
    });
  }
  return problems;
}
