// `isdlc workflow start`: one locked transaction that sets up a workflow. The first phase starts in
// progress in every place that tracks it, so no moment exists where the trackers disagree. Its timing
// starts when `isdlc phase activate` runs for it (STEP 3c-prime of the /isdlc command).
import { normalizePhaseKey } from '../config/phase-keys.js';
import { knownPhaseKeys } from '../config/phases.js';
import type { ProjectConfig } from '../config/project-config.js';
import type { Workflow } from '../config/schemas.js';
import { phaseAgent } from '../config/agents.js';
import { activeWorkflowOf } from '../state/current-phase.js';
import type { ActiveWorkflow, IsdlcState } from '../state/schema.js';
import { headCommit } from '../detect/changed-lines.js';
import { recordTestDefinition, takeCarriedDefinition, type TestCommandSource } from '../verify/test-definition.js';

export class WorkflowError extends Error {}

export interface StartInput {
  type: string;
  description?: string;
  artifactFolder?: string;
  branch?: string;
  atdd?: boolean;
  supervised?: boolean;
  now: Date;
  /** Where the test command comes from (default: the project's testing config, else package.json's test script). */
  testCommandOf?: TestCommandSource;
}

export function workflowDefinition(config: ProjectConfig, type: string): Workflow {
  const entry = config.workflows.workflows[type];
  if (!entry || typeof entry !== 'object') {
    const types = Object.entries(config.workflows.workflows)
      .filter(([name, value]) => !name.startsWith('_') && typeof value === 'object')
      .map(([name]) => name);
    throw new WorkflowError(`unknown workflow type "${type}"; the types are: ${types.join(', ')}`);
  }
  return entry;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

const SAFE_FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Applies the start to `draft`; throws WorkflowError, leaving the draft unwritten, when it cannot start. */
export function startWorkflow(draft: IsdlcState, config: ProjectConfig, input: StartInput): ActiveWorkflow {
  const definition = workflowDefinition(config, input.type);
  const running = activeWorkflowOf(draft);
  if (running) {
    throw new WorkflowError(
      `a ${String(running.type ?? '')} workflow is already active (phase ${String(running.current_phase ?? '?')}); ` +
        'one workflow runs at a time: finish or cancel it first',
    );
  }
  const phases = definition.phases.map((phase) => normalizePhaseKey(phase));
  const known = knownPhaseKeys(config);
  const unknown = phases.filter((phase) => !known.has(phase));
  if (phases.length === 0) throw new WorkflowError(`workflow "${input.type}" has no phases`);
  if (unknown.length > 0) {
    throw new WorkflowError(`workflow "${input.type}" names phases that iteration-requirements does not define: ${unknown.join(', ')}`);
  }

  const isFix = input.type === 'fix';
  const counters = (draft.counters ??= {});
  const counterName = isFix ? 'next_bug_id' : 'next_req_id';
  const number = typeof counters[counterName] === 'number' ? counters[counterName] : 1;
  let folder = input.artifactFolder;
  if (folder !== undefined && !SAFE_FOLDER.test(folder)) {
    throw new WorkflowError(`artifact folder "${folder}" must be a plain folder name (letters, digits, . _ -), not a path`);
  }
  if (!folder) {
    const prefix = isFix ? 'BUG' : 'REQ';
    const name = slug(input.description ?? '') || input.type;
    folder = `${prefix}-${String(number).padStart(4, '0')}-${name}`;
  }
  counters[counterName] = number + 1;

  const now = input.now.toISOString();
  const first = phases[0]!;
  const workflow: ActiveWorkflow = {
    type: input.type,
    description: input.description ?? '',
    phases,
    current_phase: first,
    current_phase_index: 0,
    phase_status: Object.fromEntries(phases.map((phase, index) => [phase, index === 0 ? 'in_progress' : 'pending'])),
    artifact_folder: folder,
    started_at: now,
    atdd_mode: input.atdd === true,
    supervised: input.supervised === true,
    git_branch: input.branch ? { name: input.branch, status: 'active', created_at: now } : null,
  };
  // What defines the test command now: the gate holds any later change until a person accepts it.
  // A definition the last workflow ended with unaccepted stays unaccepted: its baseline, not today's.
  const tests = takeCarriedDefinition(draft) ?? recordTestDefinition(config.root, input.now, input.testCommandOf);
  if (tests) workflow['test_definition'] = tests;
  // Where the workflow's changes start: a phase that wants a mutation score mutates what differs from it.
  const base = headCommit(config.root);
  if (base) workflow['base_commit'] = base;
  draft.active_workflow = workflow;
  draft.phases = Object.fromEntries(
    phases.map((phase, index) => [
      phase,
      {
        status: index === 0 ? 'in_progress' : 'pending',
        started: index === 0 ? now : null,
        completed: null,
        gate_passed: null,
        artifacts: [],
      },
    ]),
  );
  draft.current_phase = first;
  draft.active_agent = phaseAgent(config.manifest, first) ?? null;
  (draft.history ??= []).push({
    timestamp: now,
    agent: 'isdlc',
    action: `Started ${input.type} workflow${input.description ? `: ${input.description}` : ''}`,
  });
  return workflow;
}
