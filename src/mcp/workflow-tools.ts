// The workflow's MCP tools: what an agent does to the workflow, through the operations the `isdlc` commands
// run (src/workflow/operations.ts). The server runs outside the agent host's sandbox, so these work where the
// agent's shell cannot write `.isdlc/`. A person's decisions (escalation approve, phase skip, review
// continue, loop cancel, uninstall) are not here, and never will be: they stay in the person's terminal.
// Results carry `at`, the transaction's time, so the PostToolUse hook of the call can find what the call
// recorded and add who called (guards/tool-caller.ts).
import { CONFIG_DIRS } from '../hosts/hook-hosts.js';
import { protectionOf } from '../hosts/index.js';
import type { RunIsolation } from '../verify/gate-run.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { phaseAgent } from '../config/agents.js';
import { buildStatus } from '../workflow/status-report.js';
import { locateState, readMonorepoConfig, type StateLocation } from '../state/locate.js';
import { LockTimeoutError } from '../state/lock.js';
import { StateConflictError } from '../state/store.js';
import { JournaledStateStore } from '../integrity/journaled-state.js';
import { forAgent } from '../config/agent-operations.js';
import {
  activateAt,
  cancelAt,
  clearEscalationsAt,
  completeAt,
  configFor,
  delegationPromptAt,
  ESCALATION_CHOICES,
  escalationsAt,
  finalizeAt,
  gateAt,
  NO_ACTIVE_WORKFLOW,
  phaseFor,
  recordArticleAt,
  reviewAt,
  startAt,
  UnknownPhaseError,
  type Outcome,
} from '../workflow/operations.js';
import type { ArchivedWorkflow } from '../workflow/finalize.js';
import { WorkflowError } from '../workflow/start.js';
import { needs, replier, text, ToolInputError } from './replies.js';

/**
 * The project a tool works on: `project` (a monorepo project id), else what `isdlc` would choose from the
 * server's directory (ISDLC_PROJECT, the project holding it, the default project).
 */
export function locateProject(root: string, project?: string): StateLocation {
  const env = project ? { ...process.env, ISDLC_PROJECT: project } : process.env;
  const location = locateState(root, { env, cwd: process.cwd(), configDirs: CONFIG_DIRS });
  if (project && location.projectId !== project) {
    const known = Object.keys(readMonorepoConfig(root)?.projects ?? {});
    throw new ToolInputError(
      `project "${project}" is not one of .isdlc/monorepo.json's projects` +
        (known.length > 0 ? ` (${known.join(', ')})` : ': this is not a monorepo, leave project out'),
    );
  }
  return location;
}

/** A failed file operation (disk full, permissions): its message says what went wrong. */
const isFileSystemError = (error: unknown): boolean => error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';

const project = () => text('a project id from .isdlc/monorepo.json').optional();
const phase = () => text('a phase key such as 06-implementation').optional();

/** A one-line message for the agent: the person's text with tool names for commands. */
const said = (message: string): string => forAgent(message).replace(/\s*\n\s*/g, ' ');

/** A state change's answer: what it did, the version it wrote, when, and the line to act on. */
function changed<T>(outcome: Outcome<T>, view: (result: T) => Record<string, unknown>): Record<string, unknown> {
  return { ...view(outcome.result), state_version: outcome.version, at: outcome.at, message: said(outcome.message) };
}

function archived(entry: ArchivedWorkflow): Record<string, unknown> {
  return { type: entry.type, status: entry.status, phases: entry.phases, metrics: entry.metrics };
}

/** `isolation`: how the gate's own test run is kept apart from the agent, asked at each run. */
export function registerWorkflowTools(server: McpServer, root: string, isolation: () => RunIsolation): void {
  const reply = replier(
    (error) =>
      error instanceof ToolInputError ||
      error instanceof WorkflowError ||
      error instanceof UnknownPhaseError ||
      error instanceof StateConflictError ||
      error instanceof LockTimeoutError ||
      isFileSystemError(error),
    forAgent,
  );
  const located = (id: string | undefined): StateLocation => locateProject(root, id);
  /** The phase named, else the current one; an operation on a phase needs one of the two. */
  const phaseOf = (location: StateLocation, wanted: string | undefined): string => {
    const found = phaseFor(location, wanted);
    if (!found) throw new ToolInputError(`${NO_ACTIVE_WORKFLOW}, or name the phase`);
    return found;
  };

  // Reads: init pre-approves these in the host's permission rules.
  server.registerTool(
    'status',
    { description: 'Where the workflow stands: its phases, the current gate, escalations and the next step.', inputSchema: { project: project() } },
    ({ project: id }) =>
      reply('status', () => {
        const location = located(id);
        const report = buildStatus(location, new JournaledStateStore(location.stateFile).read(), configFor(location), protectionOf(location.root));
        const next = report.nextStep ? `Next: ${report.nextStep}` : 'No active workflow: `isdlc workflow start <type>` starts one.';
        return { ...report, message: said(next) };
      }),
  );

  server.registerTool(
    'gate_check',
    {
      description: "A phase's gate (default: the current phase): each requirement, whether it is met, what to do.",
      inputSchema: { phase: phase(), project: project() },
    },
    ({ phase: wanted, project: id }) =>
      reply('gate_check', () => {
        const location = located(id);
        const { result, message } = gateAt(location, phaseOf(location, wanted));
        return { ...result, message: said(message) };
      }),
  );

  server.registerTool(
    'delegation_prompt',
    {
      description: 'The prompt to delegate a phase (default: the current one) to its agent with, gate requirements included.',
      inputSchema: { phase: phase(), project: project() },
    },
    ({ phase: wanted, project: id }) =>
      reply('delegation_prompt', () => {
        const location = located(id);
        const delegation = delegationPromptAt(location, wanted);
        if (!delegation) throw new ToolInputError(NO_ACTIVE_WORKFLOW);
        const agent = phaseAgent(configFor(location).manifest, delegation.phase) ?? null;
        return {
          ...delegation,
          agent,
          // The server answers every host: each host's delegation tool is named.
          message: agent
            ? `Delegate ${delegation.phase} to ${agent} (the Agent tool with subagent_type "${agent}", or Codex's spawn_agent with agent_type "${agent}"): this prompt, then the user's request, unchanged.`
            : `Delegate ${delegation.phase} with the Agent tool (or Codex's spawn_agent): this prompt, then the user's request, unchanged.`,
        };
      }),
  );

  server.registerTool(
    'escalations',
    { description: 'What the guards escalated: for the user to decide on before the workflow goes on.', inputSchema: { project: project() } },
    ({ project: id }) =>
      reply('escalations', () => {
        const queue = escalationsAt(located(id));
        return { escalations: queue, message: queue.length === 0 ? 'No open escalations.' : said(`${queue.length} open; ${ESCALATION_CHOICES}.`) };
      }),
  );

  // Changes: each is one locked transaction, as the command is.
  server.registerTool(
    'escalations_clear',
    { description: 'Empty the escalation queue, when the user chose to retry the phase.', inputSchema: { project: project() } },
    ({ project: id }) => reply('escalations_clear', () => changed(clearEscalationsAt(located(id)), (cleared) => ({ cleared }))),
  );

  server.registerTool(
    'workflow_start',
    {
      description: 'Start a workflow; its first phase becomes current.',
      inputSchema: {
        type: text('a workflow type from workflows.json (feature, fix, ...)'),
        description: text().optional(),
        artifactFolder: text().optional(),
        branch: text().optional(),
        atdd: z.boolean(needs('true or false')).optional(),
        supervised: z.boolean(needs('true or false')).optional().describe('the user reviews each phase'),
        project: project(),
      },
    },
    ({ project: id, ...input }) => reply('workflow_start', () => changed(startAt(located(id), input), (workflow) => ({ ...workflow }))),
  );

  server.registerTool(
    'workflow_finalize',
    { description: 'Archive the workflow once every phase is completed.', inputSchema: { project: project() } },
    ({ project: id }) => reply('workflow_finalize', () => changed(finalizeAt(located(id)), archived)),
  );

  server.registerTool(
    'workflow_cancel',
    {
      description:
        'End the workflow unfinished, with the reason. Only when the user asks for it; refused while an escalation waits for a person (the user cancels in their own terminal then).',
      inputSchema: { reason: text('the reason'), project: project() },
    },
    ({ reason, project: id }) => reply('workflow_cancel', () => changed(cancelAt(located(id), reason, false), archived)),
  );

  server.registerTool(
    'phase_activate',
    {
      description: 'Make the phase the workflow has reached current: before delegating to its agent.',
      inputSchema: { phase: phase().describe('as a check'), project: project() },
    },
    ({ phase: wanted, project: id }) => reply('phase_activate', () => changed(activateAt(located(id), wanted), (result) => ({ ...result }))),
  );

  server.registerTool(
    'phase_complete',
    {
      description: 'Complete the current phase through its gate (refused while the gate is closed).',
      inputSchema: { summary: text().optional().describe('what the phase produced'), project: project() },
    },
    ({ summary, project: id }) =>
      reply('phase_complete', async () => changed(await completeAt(located(id), summary, isolation()), ({ gate: _checks, ...result }) => result)),
  );

  server.registerTool(
    'constitution_record',
    {
      description: 'Record the check of one constitutional article for the current phase.',
      inputSchema: {
        article: text('an article number such as IV'),
        result: z.enum(['compliant', 'violation'], needs('compliant or violation')),
        note: text().optional().describe('what was checked, or what violates it'),
        phase: phase(),
        project: project(),
      },
    },
    ({ phase: wanted, project: id, ...check }) =>
      reply('constitution_record', () => {
        const location = located(id);
        const key = phaseOf(location, wanted);
        return changed(
          recordArticleAt(location, { ...check, phase: key, source: { recorded_with: 'mcp_tool' } }),
          ({ record, remaining, completed, escalated }) => ({
            phase: key,
            article: check.article.toUpperCase(),
            result: check.result,
            iteration: record.iterations_used,
            remaining,
            completed,
            escalated,
          }),
        );
      }),
  );

  server.registerTool(
    'phase_review',
    {
      description: "Supervised workflow: mark the waiting phase under review, or redo it, as the user asked. Continue is the user's.",
      inputSchema: { decision: z.enum(['review', 'redo'], needs('review or redo')), note: text().optional(), project: project() },
    },
    ({ project: id, ...decision }) => reply('phase_review', () => changed(reviewAt(located(id), { ...decision, by: 'agent' }), (result) => ({ ...result }))),
  );
}
