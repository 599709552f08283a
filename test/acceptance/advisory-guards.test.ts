// The advisory guards and the bookkeeping guards, through the hook command `isdlc init` registered,
// with payloads shaped like the recorded ones; the Stop loop that cannot happen; and a corpus of
// everyday tool calls that no guard may deny.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activate, isdlc, send, stateOf, useNoRequirements, type State } from '../helpers/handshake.js';
import {
  agentCall,
  agentResult,
  bashCall,
  bashFailed,
  bashPassed,
  editCall,
  runnerOutput,
  skillCall,
  stop,
  userPrompt,
  writeCall,
} from '../helpers/payloads.js';
import { cli, fixture, git, initedProject, tempDir, writeFile, writeJson, writePlan } from '../helpers/project.js';

const BRANCH = 'feature/REQ-0001-csv-export';

/** A project as a user has it: a git repository, isdlc set up, a feature workflow on its own branch. */
function projectOnBranch(): string {
  const dir = initedProject('isdlc-advisory-');
  git(dir, 'init', '-q', '-b', 'main');
  writeFile(join(dir, 'src/orders/list.ts'), 'export const orders = [];\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  git(dir, 'checkout', '-q', '-b', BRANCH);
  isdlc(dir, ['workflow', 'start', 'feature', '--description', 'CSV export', '--branch', BRANCH]);
  return dir;
}

/** Moves the workflow to `phase` the way the orchestrator does, with the gates out of the way. */
function reach(dir: string, phase: string): void {
  useNoRequirements(dir);
  while (stateOf(dir)['active_workflow'].current_phase !== phase) {
    if (stateOf(dir)['phases'][stateOf(dir)['active_workflow'].current_phase].status === 'in_progress') isdlc(dir, ['phase', 'complete', '--summary', 'done']);
    activate(dir);
  }
}

describe('the advisory guards through the registered hook', () => {
  it('phase-loop-controller: the next phase is delegated only after `isdlc phase activate`', () => {
    const dir = projectOnBranch();
    reach(dir, '01-requirements');
    isdlc(dir, ['phase', 'complete', '--summary', 'requirements agreed']);
    const denied = send(dir, agentCall(dir, { subagent_type: 'impact-analysis-orchestrator' }));
    expect(denied.reason).toContain('isdlc phase-loop-controller');
    activate(dir);
    expect(send(dir, agentCall(dir, { subagent_type: 'impact-analysis-orchestrator' })).kind).toBe('allow');
  });

  it('plan-surfacer: implementation waits for the task plan; its format problems come back as a note', () => {
    const dir = projectOnBranch();
    reach(dir, '06-implementation');
    const developer = agentCall(dir, { subagent_type: 'software-developer', prompt: 'Implement phase 06.' });
    expect(send(dir, developer).reason).toContain('docs/isdlc/tasks.md');
    writePlan(dir, 'cycle-v2.md');
    const noted = send(dir, developer);
    expect(noted.kind).toBe('allow');
    expect(noted.context).toContain('cycle among T0010, T0011, T0012');
    writePlan(dir);
    expect(send(dir, developer).context ?? '').not.toContain('plan-surfacer');
  });

  it('phase-sequence-guard: out of order is denied, naming both phases', () => {
    const dir = projectOnBranch();
    reach(dir, '01-requirements');
    const denied = send(dir, agentCall(dir, { subagent_type: 'system-designer' }));
    expect(denied.reason).toContain('targets phase 04-design, but the active feature workflow is in phase 01-requirements');
  });

  it('branch-guard: no commit on main while the workflow branch is active, none on the branch before the last phase', () => {
    const dir = projectOnBranch();
    reach(dir, '06-implementation');
    writePlan(dir);
    expect(send(dir, bashCall(dir, 'git add -A && git commit -m "wip"')).reason).toContain('during phase 06-implementation');
    git(dir, 'checkout', '-q', 'main');
    expect(send(dir, bashCall(dir, 'git commit -am "hotfix"')).reason).toContain(`git checkout ${BRANCH}`);
    git(dir, 'checkout', '-q', BRANCH);
    reach(dir, '08-code-review');
    expect(send(dir, bashCall(dir, 'git add -A && git commit -m "CSV export"')).kind).toBe('allow');
  });

  it('state-write-validator: a hand edit of a tracker is denied before the write', () => {
    const dir = projectOnBranch();
    const before = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    const denied = send(dir, editCall(dir, join(dir, '.isdlc/state.json'), '"current_phase_index": 0', '"current_phase_index": 3'));
    expect(denied.reason).toContain('active_workflow.current_phase_index is a phase tracker');
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(before);
  });

  it('state-write-validator where isdlc keeps a journal: an edit of a field it does not record is refused too, since the tamper check would undo it', () => {
    const dir = projectOnBranch();
    const before = readFileSync(join(dir, '.isdlc/state.json'), 'utf8');
    expect(before).toContain('"state_version"');
    const edit = editCall(dir, join(dir, '.isdlc/state.json'), '"state_version"', '"notes": "CSV export, see README",\n  "state_version"');
    const denied = send(dir, edit);
    expect(denied.kind).toBe('deny');
    expect(denied.reason).toContain("isdlc state-write-validator: Use isdlc's tools to change state");
    expect(denied.reason).toContain('undone at the next hook call and counted as an incident');
    expect(denied.reason).not.toContain('What it would have changed');
    expect(readFileSync(join(dir, '.isdlc/state.json'), 'utf8')).toBe(before);
  });

  it('discovery without the walkthrough, and an old discover menu, are told to the model and the user', () => {
    const dir = initedProject('isdlc-discover-');
    const state = stateOf(dir);
    state['discovery_context'] = { completed_at: new Date().toISOString(), walkthrough_completed: false };
    writeJson(join(dir, '.isdlc/state.json'), state);
    const walkthrough = send(dir, agentResult(dir, { subagent_type: 'discover-orchestrator', prompt: '/discover' }, 'Discovery complete.'));
    expect(walkthrough.context).toContain('constitution walkthrough');
    expect(walkthrough.systemMessage).toContain('constitution walkthrough');
    const menu = send(
      dir,
      agentResult(
        dir,
        { subagent_type: 'discover-orchestrator', prompt: '/discover' },
        'Pick one:\n\n1. New Project\n2. Existing Project\n3. Scoped Analysis\n4. Auto-detect\n',
      ),
    );
    expect(menu.kind).toBe('allow');
    expect(menu.context).toContain('lacks Chat / Explore');
    expect(menu.systemMessage).toContain('out of date');
  });

  it('bookkeeping: each delegation is logged with its phase and verdict; the gate reads that log', () => {
    const dir = projectOnBranch();
    reach(dir, '01-requirements');
    send(dir, agentResult(dir, { subagent_type: 'requirements-analyst' }, 'Requirements drafted.'));
    send(dir, agentResult(dir, { subagent_type: 'software-developer' }, 'Looked at the code.'));
    expect(stateOf(dir)['skill_usage_log'].map((e: State) => [e['agent'], e['agent_phase'], e['current_phase'], e['status'], e['reason']])).toEqual([
      ['requirements-analyst', '01-requirements', '01-requirements', 'executed', 'authorized-phase-match'],
      ['software-developer', '06-implementation', '01-requirements', 'observed', 'cross-phase-usage'],
    ]);
  });

  it('review-reminder: a commit with review off on a team of three is told to the user', () => {
    const dir = projectOnBranch();
    const state = stateOf(dir);
    state['code_review'] = { enabled: false, team_size: 3 };
    writeJson(join(dir, '.isdlc/state.json'), state);
    expect(send(dir, bashPassed(dir, 'git commit -m "CSV export"', '[x 1a2b3c] CSV export\n')).systemMessage).toContain('your team has 3 developers');
  });
});

describe('the delegation Stop hook cannot loop', () => {
  it('a session where the orchestrator never runs ends after the cap, with a message to the person', () => {
    const dir = initedProject('isdlc-stoploop-');
    // One session throughout: the typed command and the ends of its turns.
    const typed = {
      ...fixture('user-prompt-expansion.json'),
      session_id: fixture('stop.json')['session_id'],
      cwd: dir,
      command_name: 'isdlc',
      command_args: 'feature "CSV export"',
      prompt: '/isdlc feature "CSV export"',
    };
    expect(send(dir, typed).context).toContain('sdlc-orchestrator');
    const ends = (active: boolean) => send(dir, { ...stop(dir, 'Done: I wrote the export myself.'), stop_hook_active: active });
    // Turn 1: held once; the model goes on and ends again; the host says it is continuing: let go.
    expect(ends(false).kind).toBe('block');
    const released = ends(true);
    expect(released.kind).toBe('allow');
    expect(released.systemMessage).toContain('sdlc-orchestrator never ran');
    expect(stateOf(dir)['pending_delegation']).toBeNull();
    // A model that ignores the stop_hook_active protocol entirely still meets the cap.
    send(dir, typed);
    const decisions = Array.from({ length: 6 }, () => ends(false).kind);
    expect(decisions).toEqual(['block', 'block', 'allow', 'allow', 'allow', 'allow']);
    // Delegating as told clears it at the next stop.
    send(dir, typed);
    send(dir, agentResult(dir, { subagent_type: 'sdlc-orchestrator', prompt: 'Initialise the feature workflow.' }, 'Workflow initialised.'));
    expect(ends(false).kind).toBe('allow');
    expect(stateOf(dir)['pending_delegation']).toBeNull();
  });
});

describe('everyday work is never denied', () => {
  const FILES = [
    'src/orders/list.ts',
    'src/export/csv.ts',
    'test/export/csv.test.ts',
    'README.md',
    'package.json',
    'docs/notes.md',
    'src/index.ts',
    'src/util/format.ts',
  ];
  const COMMANDS = [
    'git status',
    'git diff',
    'git diff --stat',
    'git log --oneline -10',
    'git branch -a',
    'git stash list',
    'git show HEAD --stat',
    'git fetch origin',
    'git add -A',
    'git push -u origin HEAD',
    'npm test',
    'npm run lint',
    'npm run build',
    'npx tsc --noEmit',
    'ls -la src',
    'cat package.json',
    'grep -rn "orders" src',
    'find . -name "*.ts" -not -path "./node_modules/*"',
    'node --version',
    'echo "git commit later" >> NOTES.md',
    'cat .isdlc/state.json | head -20',
    'node .isdlc/bin/isdlc.cjs status',
    'node .isdlc/bin/isdlc.cjs gate check',
    'mkdir -p src/export',
    'rm -rf dist',
    'cp .env.example .env',
    'sed -i "s/foo/bar/" src/util/format.ts',
    'git checkout -- src/index.ts',
    'npm install --save-dev vitest',
    'python3 -m pytest -q',
    'curl -s http://localhost:3000/health',
    'wc -l src/**/*.ts',
    'git branch maintenance',
    'tee build.log < /dev/null',
  ];
  const PROMPTS = [
    ['Explore', 'Find where the orders list is rendered and summarise it.'],
    ['general-purpose', 'Proceed to read the file src/orders/list.ts and explain it.'],
    ['general-purpose', 'Search the codebase for CSV helpers we already have.'],
    ['Explore', 'Which tests cover src/util/format.ts?'],
    ['general-purpose', 'Draft a commit message for the staged changes.'],
    ['Plan', 'Outline how to add streaming to the exporter.'],
  ];
  const USER_PROMPTS = [
    'looks good, go on',
    'please also handle empty orders',
    'proceed to read the file and fix the typo',
    'what does the status code 204 mean here?',
  ];

  function corpus(dir: string): Record<string, unknown>[] {
    const calls: Record<string, unknown>[] = [];
    const read = (path: string) => ({ ...fixture('pre-bash.json'), cwd: dir, tool_name: 'Read', tool_input: { file_path: join(dir, path) } });
    for (const path of FILES) {
      calls.push(read(path), {
        ...read(path),
        hook_event_name: 'PostToolUse',
        tool_response: { type: 'text', file: { filePath: join(dir, path), content: 'x' } },
      });
      calls.push(writeCall(dir, join(dir, path), 'export const x = 1;\n'), editCall(dir, join(dir, path), 'x', 'y'));
    }
    for (const command of COMMANDS) calls.push(bashCall(dir, command), bashPassed(dir, command, 'ok\n'));
    calls.push(bashFailed(dir, 'npm test', 1, runnerOutput('jest', 'failing')), bashPassed(dir, 'npm test', runnerOutput('jest', 'passing')));
    for (const [type, prompt] of PROMPTS)
      calls.push(agentCall(dir, { subagent_type: type, prompt }), agentResult(dir, { subagent_type: type, prompt }, 'Here is what I found.'));
    for (const prompt of USER_PROMPTS) calls.push(userPrompt(dir, prompt));
    calls.push(skillCall(dir, 'pdf', 'docs/spec.pdf'), stop(dir, 'The export is in place and the tests pass.'), { ...fixture('subagent-stop.json'), cwd: dir });
    return calls;
  }

  it('at least 200 everyday calls, in three situations, pass every guard with zero denials', () => {
    const situations: [string, (dir: string) => void][] = [
      ['no workflow', () => undefined],
      ['a feature workflow in 01-requirements', (dir) => reach(dir, '01-requirements')],
      [
        'a feature workflow in 06-implementation, plan written, on its branch',
        (dir) => {
          reach(dir, '06-implementation');
          writePlan(dir);
        },
      ],
    ];
    let total = 0;
    for (const [situation, arrange] of situations) {
      const dir = situation === 'no workflow' ? initedProject('isdlc-benign-') : projectOnBranch();
      arrange(dir);
      const calls = corpus(dir);
      const file = join(tempDir(), 'corpus.jsonl');
      writeFileSync(file, `${calls.map((call) => JSON.stringify(call)).join('\n')}\n`);
      const run = cli(['replay', file, '--dir', dir, '--json'], { cwd: dir });
      expect(run.status, run.stderr).toBe(0);
      const steps = JSON.parse(run.stdout) as { decision: string; reason?: string; subject?: string; ran: string[] }[];
      expect(steps).toHaveLength(calls.length);
      expect(steps.filter((step) => step.decision !== 'allow').map((step) => `${situation}: ${step.subject} → ${step.reason}`)).toEqual([]);
      total += steps.length;
    }
    expect(total).toBeGreaterThanOrEqual(200);
  });
});
