// What `isdlc doctor` says about the workflow under Codex: whether Codex's agent reads isdlc's instructions
// in this project (a warning, with the step, where it does not), and what Codex does not give isdlc that
// Claude Code does, each with how isdlc copes (no step to take: Codex works this way).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../install/host-setup.js';
import { MAX_IDLE_STOP_HOLDS } from '../../engine/stop-hold-cap.js';
import { readTextIfPresent } from '../../util/read-text.js';
import { AGENTS_FILE, MD_BEGIN } from './agents-md.js';
import { nestedCodexFolders } from './nested-config.js';

/** Codex reads at most this much of the AGENTS.md files on its way (`project_doc_max_bytes`), cutting the rest. */
const PROJECT_DOC_MAX_BYTES = 32 * 1024;
const OVERRIDE_FILE = 'AGENTS.override.md';
const REINIT = 'isdlc init --host codex';

function size(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** Whether Codex's agent reads isdlc's section of AGENTS.md here. */
function instructionFindings(root: string): Finding[] {
  if (size(join(root, OVERRIDE_FILE)) !== undefined)
    return [
      {
        severity: 'warn',
        what: `${OVERRIDE_FILE} is in the project's folder: Codex reads it instead of ${AGENTS_FILE}, so its agent never reads isdlc's section (how a workflow runs through isdlc's tools)`,
        fix: `copy isdlc's section of ${AGENTS_FILE} (between its \`<!-- >>> isdlc\` and \`<!-- <<< isdlc -->\` lines) into ${OVERRIDE_FILE}, or remove ${OVERRIDE_FILE}`,
      },
    ];
  const text = readTextIfPresent(join(root, AGENTS_FILE));
  if (text === undefined || !text.includes(MD_BEGIN))
    return [
      {
        severity: 'warn',
        what: `${AGENTS_FILE} has no isdlc section: Codex's agent is not told how a workflow runs through isdlc's tools (the guards still hold it)`,
        fix: REINIT,
      },
    ];
  const bytes = Buffer.byteLength(text);
  if (bytes > PROJECT_DOC_MAX_BYTES)
    return [
      {
        severity: 'warn',
        what: `${AGENTS_FILE} is ${bytes} bytes: Codex reads its first ${PROJECT_DOC_MAX_BYTES} (isdlc's section comes first) and cuts the rest`,
        fix: `shorten ${AGENTS_FILE}, or raise \`project_doc_max_bytes\` in your Codex config`,
      },
    ];
  return [{ severity: 'ok', what: `${AGENTS_FILE} tells Codex's agent how a workflow runs through isdlc's tools` }];
}

/** What Codex does not give isdlc, and how isdlc copes. */
const LIMITS: readonly string[] = [
  "a shell command's file changes are not reported: a phase agent's work, and what a reviewer must read, count from apply_patch and from files printed with the shell",
  "a shell result carries no exit status: a test run is judged from the runner's own summary, and one that prints no count is inconclusive",
  "what is typed into a running terminal (write_stdin) runs no hook: there the permission profile alone keeps isdlc's files from the agent",
  "a role cannot take tools from its agent: the reviewer can change files; isdlc counts no review from a run that patched files in the phase, but sees no shell's writes",
  `no turn ends however often a hook holds it: isdlc lets a turn end after ${MAX_IDLE_STOP_HOLDS} holds in a row with nothing done between them`,
  "an MCP tool call that fails runs no hook: isdlc's refusals reach the model, but no hook records who made them",
];

/** `.codex/` folders below the root: each could take the wall and the hooks from a session started there. */
function nestedConfigFindings(root: string): Finding[] {
  const nested = nestedCodexFolders(root);
  if (nested.length === 0) return [];
  return [
    {
      severity: 'fail',
      what: `a Codex config folder below the project's root (${nested.join(', ')}): Codex reads it for a session started in that folder, where it can lift the permission profile and switch isdlc's hooks off, with no hook left to notice`,
      fix: `look at what it holds and remove it (rm -r ${nested.map((path) => `'${path}'`).join(' ')}) unless you put it there yourself`,
    },
  ];
}

export function codexWorkflowFindings(root: string): Finding[] {
  return [...instructionFindings(root), ...nestedConfigFindings(root), ...LIMITS.map((what): Finding => ({ severity: 'ok', what: `under Codex: ${what}` }))];
}
