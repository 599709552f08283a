// `isdlc hook --warm-cache` (run by `isdlc init`): each hook bundle sends one call of each kind it answers
// through the engine, in a throw-away project, so that the V8 code cache written when the process exits
// holds the compiled code of every path, not only of whichever event happened to come first.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Guard } from '../engine/guard.js';
import { runHook } from '../engine/run-hook.js';
import { BIN_FILES } from '../install/bin-files.js';
import { StateStore } from '../state/store.js';
import { cacheVariant, familyOf, type EventFamily } from './event-family.js';
import { shrinkLargeStrings } from './shrink-payload.js';

const FAILING_RUN = ' FAIL  src/cart.test.js\n  ● cart › adds totals\n\n    Expected: 4\n    Received: 3\n\nTests:       1 failed, 2 passed, 3 total\n';
const PASSING_RUN = ' PASS  src/cart.test.js\nTests:       3 passed, 3 total\nAll files |   90 |   80 |   90 |   90 |\n';
const MENU = 'Draft ready.\n[A] Adjust [R] Refine [C] Continue [S] Save';

function samples(project: string): Record<string, unknown>[] {
  const base = { session_id: 'isdlc-warm-cache', transcript_path: '', cwd: project, permission_mode: 'default' };
  const tool = (event: string, name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...base,
    hook_event_name: event,
    tool_name: name,
    tool_input: input,
    tool_use_id: 'toolu_warm',
    ...extra,
  });
  return [
    tool('PreToolUse', 'Agent', { description: 'work', prompt: 'Implement it', subagent_type: 'software-developer' }),
    tool('PreToolUse', 'Agent', { description: 'gate', prompt: 'Advance to the next phase', subagent_type: 'sdlc-orchestrator' }),
    tool('PreToolUse', 'Skill', { skill: 'isdlc', args: 'advance' }),
    tool('PreToolUse', 'Bash', { command: 'node .isdlc/bin/isdlc.cjs escalation approve --phase 06-implementation' }),
    tool('PreToolUse', 'Bash', { command: 'npm test' }),
    tool('PreToolUse', 'Write', { file_path: join(project, 'src/a.ts'), content: 'x' }),
    tool('PostToolUse', 'Write', { file_path: join(project, 'src/a.ts'), content: 'x' }, { tool_response: { type: 'create', filePath: join(project, 'src/a.ts'), content: 'x', structuredPatch: [] } }),
    tool('PostToolUseFailure', 'Bash', { command: 'npm test' }, { error: `Exit code 1\n${FAILING_RUN}`, is_interrupt: false }),
    tool('PostToolUse', 'Bash', { command: 'npm test' }, {
      tool_response: {
        stdout: PASSING_RUN,
        stderr: '',
        interrupted: false,
        isImage: false,
        bashEditDiff: {
          files: [{ filePath: join(project, '.isdlc/state.json'), hunks: [{ lines: ['-  "state_version": 1', '+  "state_version": 2'] }] }],
          moreFiles: 0,
          changedFiles: [join(project, '.isdlc/state.json'), join(project, 'src/cart.js')],
        },
      },
    }),
    tool('PostToolUse', 'Agent', { description: 'work', prompt: 'Implement it', subagent_type: 'software-developer' }, { tool_response: { isAsync: true, status: 'async_launched', agentId: 'a1' } }),
    tool('PostToolUse', 'mcp__isdlc__phase_activate', {}, { tool_response: [{ type: 'text', text: '{"phase":"06-implementation","at":"2026-01-01T00:00:00.000Z"}' }] }),
    tool('PostToolUse', 'Agent', { description: 'work', prompt: 'Implement it', subagent_type: 'software-developer' }, { tool_response: { status: 'completed', content: [{ type: 'text', text: MENU }] } }),
    { ...base, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: MENU },
    { ...base, hook_event_name: 'SubagentStop', stop_hook_active: false, agent_id: 'a1', agent_type: 'software-developer', last_assistant_message: 'done' },
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'C' },
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: '<task-notification>\n<task-id>a1</task-id>\n<status>completed</status>\n</task-notification>' },
    { ...base, hook_event_name: 'SessionStart', source: 'startup' },
  ];
}

/** `variant`: only the sample calls of that kind (event-family.ts), for that kind's own cache. */
export function warmCache(family: EventFamily, guards: readonly Guard[], variant?: string): void {
  // node:os here only: every hook call loads this bundle, few warm its cache.
  const project = mkdtempSync(join(process.getBuiltinModule('node:os').tmpdir(), 'isdlc-warm-'));
  try {
    new StateStore(join(project, '.isdlc/state.json')).update((draft) => {
      Object.assign(draft, {
        current_phase: '06-implementation',
        active_workflow: { type: 'feature', phases: ['01-requirements', '06-implementation'], current_phase: '06-implementation', current_phase_index: 1, artifact_folder: 'REQ-0001-warm' },
        phases: { '06-implementation': { status: 'in_progress' } },
        skill_usage_log: [],
      });
    });
    // Set up as init leaves a project (an install record, the bin files), so that these calls go through
    // the tamper check and the install check as every real call does: the first takes the files into a
    // journal, the others compare with it. Without them, a call compiled that code anew each time.
    mkdirSync(join(project, '.isdlc/bin'), { recursive: true });
    for (const file of BIN_FILES) writeFileSync(join(project, '.isdlc/bin', file), '');
    writeFileSync(join(project, '.isdlc/install.json'), '{}\n');
    const ofThisKind = (p: Record<string, unknown>): boolean => {
      const event = String(p['hook_event_name']);
      return familyOf(event) === family && (!variant || cacheVariant(family, event, typeof p['tool_name'] === 'string' ? p['tool_name'] : undefined) === variant);
    };
    for (const payload of samples(project).filter(ofThisKind)) {
      // As hookMain hands it over: through the cut of large strings.
      runHook({ payload: shrinkLargeStrings(Buffer.from(JSON.stringify(payload))).toString('utf8'), env: { CLAUDE_PROJECT_DIR: project }, cwd: project, guards });
    }
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
